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

/**
 * A value whose type is plain JSON, field by field (an interface of the contract, say): what
 * `toWire` accepts. Functions, dates, `undefined` and class instances make it `never`.
 */
export type JsonCompatible<T> = T extends string | number | boolean | null
  ? T
  : T extends readonly (infer U)[]
    ? readonly JsonCompatible<U>[]
    : T extends (...args: never[]) => unknown
      ? never
      : T extends object
        ? { [K in keyof T]: JsonCompatible<T[K]> }
        : never;

/**
 * A contract value (ImproveRequest, EvaluateResult, ...) as wire JSON. Interfaces carry no
 * index signature, so TypeScript does not see them as JSON; `JsonCompatible` proves it at
 * compile time instead, and this is the one place that says so.
 */
export function toWire<T>(value: T & JsonCompatible<T>): WireJson {
  return value as WireJson;
}
