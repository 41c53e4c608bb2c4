/**
 * Plain JSON as a zod schema: the one definition, for what crosses the container boundary
 * (an answer of `solve`) and what the archive keeps of it (an instance's artifact).
 * Recursive: a caller that parses a value of unknown depth catches the RangeError of a
 * stack overflow (runner-channel.ts does: such a line is a protocol violation).
 */
import { z } from "zod";
import type { WireJson as Json } from "../runner/protocol.js";

export type WireJson = Json;
export const WireJson: z.ZodType<WireJson> = z.lazy(() =>
  z.union([z.null(), z.boolean(), z.number(), z.string(), z.array(WireJson), z.record(z.string(), WireJson)]),
);
