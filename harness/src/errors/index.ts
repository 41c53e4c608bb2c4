/**
 * The project's one base error, for the harness's folders. It is defined in the sandbox, the
 * lowest layer, so both share it (DESIGN.md); this index is the harness's way to it, and a
 * light one: importing it loads no engine client (the sandbox's own index loads dockerode).
 */
export { EvolveError, assertNever, type ErrorCode } from "../../../sandbox/src/errors.js";
