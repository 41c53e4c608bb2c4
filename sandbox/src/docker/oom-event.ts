/**
 * Did the engine report an OOM kill of this container? Asked of its event log, not of the
 * container's state: under runsc on dockerd 20.10 the engine logged `oom` events before the
 * container's exit and still left `State.OOMKilled` false, about once in 30 memory hogs while
 * both cores were busy (tests/sandbox/hardened-container.test.ts failed on it in CI).
 */
import type Docker from "dockerode";

/** The longest this waits for the window's end, whatever the clocks say. */
const MAX_WAIT_MS = 10_000;

/** A window on the engine's clock, in milliseconds since the epoch. */
export interface EventWindow {
  fromMs: number;
  toMs: number;
}

/**
 * Reads the engine's `oom` events for one container inside `window`; the part of the window
 * still ahead is waited for (the engine streams until its end). True at the first one; false
 * when the window ends, or when the engine cannot be asked.
 */
export async function engineReportedOom(docker: Docker, containerId: string, window: EventWindow): Promise<boolean> {
  let stream: NodeJS.ReadableStream;
  try {
    stream = await docker.getEvents({
      // Whole seconds, widened outwards: the engine keeps the second's events.
      since: Math.floor(window.fromMs / 1000),
      until: Math.ceil(window.toMs / 1000),
      filters: { container: [containerId], event: ["oom"] },
    });
  } catch {
    return false;
  }
  return new Promise<boolean>((resolve) => {
    let settled = false;
    const settle = (reported: boolean): void => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      (stream as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
      resolve(reported);
    };
    // The engine closes the stream at `until`; this bounds the wait on an engine that does
    // not, or whose clock is ahead of ours.
    const deadline = setTimeout(() => settle(false), Math.min(Math.max(window.toMs - Date.now(), 0), MAX_WAIT_MS) + 2_000);
    stream.on("data", (chunk: Buffer | string) => {
      if (/"Action"\s*:\s*"oom"/.test(String(chunk))) settle(true);
    });
    stream.on("end", () => settle(false));
    stream.on("close", () => settle(false));
    stream.on("error", () => settle(false));
  });
}
