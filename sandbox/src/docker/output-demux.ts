/**
 * Docker's attach stream multiplexes stdout and stderr in frames of an 8-byte header
 * (stream id, 3 zero bytes, big-endian length) and a payload. This splits them, cuts
 * each at its byte cap, and hands stdout to the caller line by line.
 */
import type { RunOutcome } from "../port/index.js";

export interface DemuxOptions {
  stdoutCapBytes: number;
  stderrCapBytes: number;
  onStdoutLine?: (line: string) => void;
  /** Called once when stdout passes its cap (the sandbox kills a flooding process). */
  onStdoutOverflow?: () => void;
}

/** `payload` as one frame of the attach stream (what a process that is not a container hands the demux). */
export function attachFrame(stream: 1 | 2, payload: Buffer): Buffer {
  const header = Buffer.alloc(8);
  header[0] = stream;
  header.writeUInt32BE(payload.length, 4);
  return Buffer.concat([header, payload]);
}

/** Output before the sandbox is handed to a caller is held (up to this much) until it is. */
const EARLY_STDOUT_CAP = 64 * 1024;

export class OutputDemux {
  private options: DemuxOptions | null;
  private early: Buffer[] = [];
  private earlyBytes = 0;
  private pending: Buffer = Buffer.alloc(0);
  private lineBuffer: Buffer = Buffer.alloc(0);
  private stdoutBytes = 0;
  private readonly stderrChunks: Buffer[] = [];
  private stderrBytes = 0;
  /** Bytes of stderr seen, the cap's cut ones included. */
  private stderrSeen = 0;
  private watch: { token: Buffer; carry: Buffer; found: (text: string) => void } | null = null;
  stdoutTruncated = false;
  stderrTruncated = false;

  /** Without options (a warm sandbox nobody holds yet) stdout waits for `configure`. */
  constructor(options: DemuxOptions | null) {
    this.options = options;
  }

  /** Set the caps and the line sink; output held so far is delivered now. */
  configure(options: DemuxOptions): void {
    this.options = options;
    const early = this.early;
    this.early = [];
    for (const payload of early) this.stdout(payload);
  }

  push(chunk: Buffer): void {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    while (this.pending.length >= 8) {
      const size = this.pending.readUInt32BE(4);
      if (this.pending.length < 8 + size) return;
      const stream = this.pending[0];
      const payload = this.pending.subarray(8, 8 + size);
      this.pending = this.pending.subarray(8 + size);
      if (stream === 1) this.stdout(payload);
      else if (stream === 2) this.stderr(payload);
    }
  }

  private stdout(payload: Buffer): void {
    if (this.stdoutTruncated) return;
    if (this.options === null) {
      this.earlyBytes += payload.length;
      if (this.earlyBytes <= EARLY_STDOUT_CAP) this.early.push(Buffer.from(payload));
      return;
    }
    const room = this.options.stdoutCapBytes - this.stdoutBytes;
    const accepted = payload.length > room ? payload.subarray(0, Math.max(0, room)) : payload;
    this.stdoutBytes += accepted.length;
    this.lineBuffer = Buffer.concat([this.lineBuffer, accepted]);
    let newline = this.lineBuffer.indexOf(0x0a);
    while (newline >= 0) {
      const line = this.lineBuffer.subarray(0, newline).toString("utf8");
      this.lineBuffer = this.lineBuffer.subarray(newline + 1);
      this.options.onStdoutLine?.(line);
      newline = this.lineBuffer.indexOf(0x0a);
    }
    if (payload.length > room) {
      this.stdoutTruncated = true;
      this.lineBuffer = Buffer.alloc(0);
      this.options.onStdoutOverflow?.();
    }
  }

  private stderr(payload: Buffer): void {
    this.look(payload);
    this.stderrSeen += payload.length;
    const room = this.capOfStderr() - this.stderrBytes;
    if (room <= 0) {
      this.stderrTruncated = true;
      return;
    }
    const accepted = payload.length > room ? payload.subarray(0, room) : payload;
    if (accepted.length < payload.length) this.stderrTruncated = true;
    this.stderrBytes += accepted.length;
    this.stderrChunks.push(Buffer.from(accepted));
  }

  /**
   * Resolves once `token` comes through stderr (cut by the cap or not), with the capped stderr
   * before it; never, if it does not come. One watch at a time: a later call replaces it.
   */
  stderrBefore(token: string): Promise<string> {
    return new Promise((found) => {
      this.watch = { token: Buffer.from(token), carry: Buffer.alloc(0), found };
    });
  }

  /** Stops looking for a token (its caller gave up waiting): later stderr is only capped. */
  unwatch(): void {
    this.watch = null;
  }

  /** Looks for the watched token in this payload and the end of the one before (a frame can split it). */
  private look(payload: Buffer): void {
    const watch = this.watch;
    if (watch === null) return;
    const window = Buffer.concat([watch.carry, payload]);
    const at = window.indexOf(watch.token);
    if (at < 0) {
      watch.carry = window.subarray(Math.max(0, window.length - watch.token.length + 1));
      return;
    }
    this.watch = null;
    const offset = this.stderrSeen - watch.carry.length + at;
    const kept = Buffer.concat(this.stderrChunks);
    // The bytes of this payload before the token are not pushed yet; those within the cap count.
    const before = Buffer.concat([kept, payload.subarray(0, Math.max(0, at - watch.carry.length))]);
    watch.found(before.subarray(0, Math.min(offset, this.capOfStderr())).toString("utf8"));
  }

  private capOfStderr(): number {
    return this.options?.stderrCapBytes ?? EARLY_STDOUT_CAP;
  }

  /** The capped stderr so far, decoded. */
  stderrText(): string {
    return Buffer.concat(this.stderrChunks).toString("utf8");
  }
}

/**
 * The process as its flush leaves it: once `token` comes through stderr, an outcome with the
 * stderr before it, the caps' flags and the time since `startedAt` (epoch ms); the exit code is
 * null, since nobody waits for the exit. Null when the process ended first or `timeoutMs` passed.
 */
export async function flushedOutcome(demux: OutputDemux, token: string, finished: Promise<unknown>, startedAt: number, timeoutMs: number): Promise<RunOutcome | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => (timer = setTimeout(resolve, timeoutMs, null)));
  try {
    const stderr = await Promise.race([demux.stderrBefore(token), finished.then(() => null), late]);
    if (stderr === null) return null;
    return { exitCode: null, timedOut: false, oomKilled: false, killed: false, stdoutTruncated: demux.stdoutTruncated, stderrTruncated: demux.stderrTruncated, stderr, durationMs: Date.now() - startedAt };
  } finally {
    clearTimeout(timer);
    demux.unwatch();
  }
}
