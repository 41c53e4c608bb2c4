/** The attach stream's demux: where a flush token is found, however the frames cut it. */
import { describe, expect, it } from "vitest";
import { attachFrame, OutputDemux } from "../../sandbox/src/docker/index.js";

const frame = (stream: 1 | 2, text: string): Buffer => attachFrame(stream, Buffer.from(text));

const TOKEN = "evolve-flushed-0123456789abcdef";

describe("output demux, stderrBefore", () => {
  it("finds a token split over frames, with the stderr before it and nothing of it", async () => {
    const demux = new OutputDemux({ stdoutCapBytes: 1024, stderrCapBytes: 1024 });
    const seen = demux.stderrBefore(TOKEN);
    const text = `one\ntwo${TOKEN}\n`;
    for (const piece of [text.slice(0, 6), text.slice(6, 12), text.slice(12, 20), text.slice(20)]) demux.push(frame(2, piece));
    expect(await seen).toBe("one\ntwo");
  });

  it("finds a token past the cap and gives the capped stderr", async () => {
    const demux = new OutputDemux({ stdoutCapBytes: 1024, stderrCapBytes: 10 });
    const seen = demux.stderrBefore(TOKEN);
    demux.push(frame(2, "a".repeat(30)));
    demux.push(frame(1, `${TOKEN}\n`));
    demux.push(frame(2, `b${TOKEN.slice(0, 5)}`));
    demux.push(frame(2, `${TOKEN.slice(5)}\n`));
    expect(await seen).toBe("a".repeat(10));
    expect(demux.stderrTruncated).toBe(true);
  });

  it("does not take the token from stdout or a near miss", async () => {
    const demux = new OutputDemux({ stdoutCapBytes: 1024, stderrCapBytes: 1024 });
    let found: string | null = null;
    void demux.stderrBefore(TOKEN).then((text) => (found = text));
    demux.push(frame(1, `${TOKEN}\n`));
    demux.push(frame(2, `${TOKEN.slice(0, -1)}X\n`));
    await new Promise((r) => setTimeout(r, 10));
    expect(found).toBeNull();
  });
});
