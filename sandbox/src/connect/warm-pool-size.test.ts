import { describe, expect, it } from "vitest";
import { warmPoolFromEnvironment } from "./connect-engines.js";

describe("warm pool size", () => {
  it("takes EVOLVE_WARM_POOL when set (0 turns the pool off), else the caller's default", () => {
    expect(warmPoolFromEnvironment(2, {})).toBe(2);
    expect(warmPoolFromEnvironment(2, { EVOLVE_WARM_POOL: "" })).toBe(2);
    expect(warmPoolFromEnvironment(2, { EVOLVE_WARM_POOL: "0" })).toBe(0);
    expect(warmPoolFromEnvironment(0, { EVOLVE_WARM_POOL: "3" })).toBe(3);
    expect(warmPoolFromEnvironment(2, { EVOLVE_WARM_POOL: "8" })).toBe(8);
  });

  it("refuses anything but a whole number from 0 to 8, saying what it got", () => {
    for (const bad of ["two", "1.5", "-1", "9"]) {
      expect(() => warmPoolFromEnvironment(2, { EVOLVE_WARM_POOL: bad })).toThrow(`EVOLVE_WARM_POOL must be a whole number from 0 to 8, not "${bad}"`);
    }
  });
});
