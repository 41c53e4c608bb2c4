/** The container runtimes evolve runs agents under: Docker's default, or gVisor's runsc. */
import { z } from "zod";

export const Runtime = z.enum(["runc", "runsc"]);
export type Runtime = z.infer<typeof Runtime>;
