/**
 * The runner's stdout, line by line, as protocol messages: each line is parsed as hostile
 * data with the kernel's `RunnerMessage` schema. Requests (llm, tool, evaluate) go to their
 * handlers at once; answers wait in order for `next()`. The first line that is not a
 * message is a violation: it is kept, the handler is told (the caller kills the
 * container), and nothing after it is read.
 */
import { RunnerMessage } from "../../../harness/src/kernel/index.js";

type Of<T extends RunnerMessage["type"]> = Extract<RunnerMessage, { type: T }>;

export interface MessageHandlers {
  llm(message: Of<"llm">): void;
  tool(message: Of<"tool">): void;
  evaluate(message: Of<"evaluate">): void;
  violated(reason: string): void;
}

export class MessageQueue {
  private readonly waiting: RunnerMessage[] = [];
  private readonly waiters: ((message: RunnerMessage | null) => void)[] = [];
  private broken: string | null = null;
  private ended = false;

  constructor(private readonly handlers: MessageHandlers) {}

  /** One stdout line of the runner. */
  line(line: string): void {
    if (this.broken !== null) return;
    const message = parseLine(line);
    if (message === null) {
      this.broken = `the container printed a line that is not a protocol message: ${JSON.stringify(line.slice(0, 200))}`;
      this.handlers.violated(this.broken);
      return;
    }
    if (message.type === "llm") return this.handlers.llm(message);
    if (message.type === "tool") return this.handlers.tool(message);
    if (message.type === "evaluate") return this.handlers.evaluate(message);
    this.deliver(message);
  }

  /** The process ended: whoever waits gets null. */
  end(): void {
    this.ended = true;
    for (const waiter of this.waiters.splice(0)) waiter(null);
  }

  next(): Promise<RunnerMessage | null> {
    const queued = this.waiting.shift();
    if (queued) return Promise.resolve(queued);
    if (this.ended) return Promise.resolve(null);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  violation(): string | null {
    return this.broken;
  }

  private deliver(message: RunnerMessage): void {
    const waiter = this.waiters.shift();
    if (waiter) waiter(message);
    else this.waiting.push(message);
  }
}

function parseLine(line: string): RunnerMessage | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return null;
  }
  // A value nested thousands deep is legal JSON but overflows the recursive check: a line
  // that cannot be checked is no message, and must not throw into the output stream.
  try {
    const result = RunnerMessage.safeParse(parsed);
    return result.success ? result.data : null;
  } catch {
    return null;
  }
}
