/**
 * Run as its own process by bounded-checks.test.ts: a command whose last step is closing the
 * validator must end normally, not with Node's exit code 13 (an unsettled top-level await)
 * because nothing kept its event loop alive while the worker died.
 */
import { createValidator } from "../../harness/src/validation/index.js";

const validator = createValidator();
validator.warm();
await new Promise((resolve) => setTimeout(resolve, Number(process.argv[2] ?? 0)));
await validator.close();
process.stdout.write("closed\n");
