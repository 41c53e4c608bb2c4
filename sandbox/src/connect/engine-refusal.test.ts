import { describe, expect, it } from "vitest";
import { hostArchitecture, refusal } from "./connect-engines.js";
import type { EngineInfo } from "../port/sandbox-port.js";

const info = (over: Partial<EngineInfo>): EngineInfo => ({
  endpoint: "tcp://192.0.2.1:2376",
  version: "27.0.0",
  apiVersion: "1.46",
  runtimes: ["runc", "runsc"],
  architecture: hostArchitecture(),
  cpus: 4,
  memoryBytes: 8 * 2 ** 30,
  ...over,
});

describe("which engines a run can use", () => {
  it("takes an engine of this host's architecture with the runtime asked for", () => {
    expect(refusal(info({}), "runc")).toBeNull();
    expect(refusal(info({}), "runsc")).toBeNull();
  });

  it("refuses another CPU architecture: the image carries this host's node", () => {
    const other = hostArchitecture() === "aarch64" ? "x86_64" : "aarch64";
    expect(refusal(info({ architecture: other }), "runc")).toMatch(new RegExp(`^its CPU architecture is ${other}, this host's is ${hostArchitecture()}`));
  });

  it("refuses an engine without the runtime the run asks for, and says what it has", () => {
    expect(refusal(info({ runtimes: ["runc"] }), "runsc")).toMatch(/^it has no runsc runtime \(it has runc\)/);
    expect(refusal(info({ runtimes: ["runc"] }), "runc")).toBeNull();
  });
});
