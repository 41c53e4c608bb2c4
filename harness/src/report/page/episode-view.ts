/**
 * The report's player of a recorded episode (a snake game): the grid as SVG squares, one
 * frame at a time, with play/pause and a step slider. The frames are numbers checked here
 * before they become geometry; names and the closing line are set as text.
 */
import type { EpisodeView } from "../report-view.js";
import { el, num, score, svg } from "./dom.js";

const STEPS_PER_SECOND = 8;
const CELL = 12;
/** Fill per layer, in order (the snake, the food, ...); a head is drawn darker. */
const FILLS = ["#16a34a", "#dc2626", "#2563eb", "#a16207"];

let timer: number | null = null;

/** Stops the episode that is playing (another generation was selected). */
export function stopEpisode(): void {
  if (timer !== null) window.clearInterval(timer);
  timer = null;
}

/** Draws `episode` into `host` and starts it; "omitted" and null say why there is none. */
export function drawEpisode(host: HTMLElement, episode: EpisodeView | "omitted" | null, generation: string): void {
  stopEpisode();
  host.textContent = "";
  if (episode === null) return;
  if (episode === "omitted") {
    host.appendChild(el("div", `episode left out to keep the report small: evolve watch <run> ${generation}`, "empty"));
    return;
  }
  const w = num(episode.width) ? episode.width : 1;
  const h = num(episode.height) ? episode.height : 1;
  host.appendChild(el("div", `episode of ${episode.instance} (${episode.split}, score ${score(episode.score)}): ${episode.end}${episode.truncated > 0 ? ` (${episode.truncated} later steps not recorded)` : ""}`, "muted"));
  const board = svg("svg", { id: "episode-svg", viewBox: `0 0 ${w * CELL} ${h * CELL}`, width: Math.min(320, w * CELL * 2), height: Math.min(320, h * CELL * 2) * (h / Math.max(w, h)) });
  board.appendChild(svg("rect", { x: 0, y: 0, width: w * CELL, height: h * CELL, class: "episode-bg" }));
  const cells = svg("g");
  board.appendChild(cells);
  host.appendChild(board);
  const draw = (step: number): void => {
    cells.textContent = "";
    (episode.frames[step] ?? []).forEach((layer, k) => {
      layer.forEach((cell, i) => {
        if (!num(cell) || cell < 0 || cell >= w * h) return;
        const head = i === 0 && episode.layers[k]?.head !== undefined;
        cells.appendChild(svg("rect", { x: (cell % w) * CELL + 1, y: Math.floor(cell / w) * CELL + 1, width: CELL - 2, height: CELL - 2, rx: 2, fill: FILLS[k] ?? "#555", "fill-opacity": head ? 1 : 0.7, class: head ? "episode-head" : "episode-cell" }));
      });
    });
  };
  host.appendChild(player(episode.frames.length, draw));
}

/** Play/pause, a step slider and the step shown, driving `draw`; starts playing when there is more than one frame. */
function player(frames: number, draw: (step: number) => void): HTMLElement {
  const last = Math.max(0, frames - 1);
  const controls = el("div", null, "toolbar");
  const play = el("button", "pause");
  play.type = "button";
  play.id = "episode-play";
  const slider = el("input");
  slider.type = "range";
  slider.min = "0";
  slider.max = String(last);
  slider.value = "0";
  slider.id = "episode-step";
  const label = el("span", "", "muted");
  controls.append(play, slider, label);
  let t = 0;
  const show = (step: number): void => {
    t = step;
    slider.value = String(step);
    label.textContent = `step ${step}/${last}`;
    draw(step);
  };
  const pause = (): void => {
    stopEpisode();
    play.textContent = "play";
  };
  const start = (): void => {
    stopEpisode();
    play.textContent = "pause";
    timer = window.setInterval(() => (t >= last ? pause() : show(t + 1)), 1000 / STEPS_PER_SECOND);
  };
  play.addEventListener("click", () => {
    if (timer !== null) return pause();
    if (t >= last) show(0);
    start();
  });
  slider.addEventListener("input", () => {
    pause();
    show(Number(slider.value) || 0);
  });
  show(0);
  if (frames > 1) start();
  else play.textContent = "play";
  return controls;
}
