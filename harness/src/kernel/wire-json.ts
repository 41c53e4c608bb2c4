/**
 * Plain JSON, the one definition of what crosses the container boundary (a runner message,
 * an answer of `solve`) and what the archive keeps of it (an instance's artifact): the type,
 * and its zod schema under the same name. Recursive: a caller that parses a value of unknown
 * depth catches the RangeError of a stack overflow (the runner channel does: such a line is
 * a protocol violation).
 */
import { z } from "zod";

export type WireJson = null | boolean | number | string | WireJson[] | { [key: string]: WireJson };
export const WireJson: z.ZodType<WireJson> = z.lazy(() =>
  z.union([z.null(), z.boolean(), z.number(), z.string(), z.array(WireJson), z.record(z.string(), WireJson)]),
);
