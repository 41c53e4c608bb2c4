/**
 * `ctx.evaluate` inside the container: each call goes to the host as an evaluate message
 * and resolves with the host's answer. The host checks the request, counts the calls and
 * refuses what it will not run; the runner only carries the request there and back.
 */
import type { EvaluateCallMessage, EvaluateResultMessage, WireJson, WorkspaceTree } from "./protocol.js";

/** The agent's request as it will travel: a value that is not JSON goes as a string the host refuses. */
function wireRequest(request: unknown): WireJson {
  if (request === undefined) return {};
  try {
    return JSON.parse(JSON.stringify(request)) as WireJson;
  } catch (error) {
    return `the request is not JSON-serialisable: ${error instanceof Error ? error.message : String(error)}`.slice(0, 500);
  }
}

/**
 * The evaluate function for the meta agent's context, and the handler for the host's answers.
 * Each request carries the agent tree as it is at the call (`snapshot`; none: the host takes it
 * from the volume).
 */
export function createEvaluateClient(send: (message: EvaluateCallMessage) => void, snapshot: () => Promise<WorkspaceTree | null>) {
  const pending = new Map<number, (result: WireJson) => void>();
  let nextId = 1;
  return {
    evaluate(request?: unknown): Promise<WireJson> {
      const id = nextId++;
      const wire = wireRequest(request);
      return snapshot().then(
        (tree) =>
          new Promise((resolve) => {
            pending.set(id, resolve);
            send({ type: "evaluate", id, request: wire, ...(tree === null ? {} : { tree }) });
          }),
      );
    },
    settle(message: EvaluateResultMessage): void {
      const resolve = pending.get(message.id);
      if (resolve === undefined) return;
      pending.delete(message.id);
      resolve(message.result);
    },
  };
}
