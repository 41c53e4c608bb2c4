import { describe, expect, it } from "vitest";
import { containerCreateOptions, RUNSC_PIDS_HEADROOM, workspaceMount } from "./container-spec.js";
import { DEFAULT_LIMITS, SANDBOX_UID } from "../port/limits.js";

describe("hardened container spec", () => {
  const spec = containerCreateOptions(
    { image: "img:1", command: ["node", "x.js"], labels: { session: "s1", run: "r1", generation: "g0003", phase: "evaluate" } },
  );
  const host = spec.HostConfig;

  it("cuts the network, the root filesystem, capabilities and privileges", () => {
    expect(host["NetworkMode"]).toBe("none");
    expect(spec.NetworkDisabled).toBe(true);
    expect(host["ReadonlyRootfs"]).toBe(true);
    expect(host["CapDrop"]).toEqual(["ALL"]);
    expect(host["SecurityOpt"]).toContain("no-new-privileges");
    expect(host["Privileged"]).toBe(false);
    expect(spec.User).toBe(`${SANDBOX_UID}:${SANDBOX_UID}`);
    expect(host["Init"]).toBe(true);
  });

  it("applies resource limits, no swap beyond memory, and a capped log", () => {
    expect(host["Memory"]).toBe(DEFAULT_LIMITS.memoryBytes);
    expect(host["MemorySwap"]).toBe(host["Memory"]);
    expect(host["PidsLimit"]).toBe(DEFAULT_LIMITS.pidsLimit);
    expect(host["NanoCpus"]).toBe(DEFAULT_LIMITS.nanoCpus);
    expect((host["Tmpfs"] as Record<string, string>)["/tmp"]).toContain(`size=${DEFAULT_LIMITS.tmpfsBytes}`);
    expect(host["LogConfig"]).toEqual({ Type: "json-file", Config: { "max-size": String(DEFAULT_LIMITS.logBytes), "max-file": "1" } });
  });

  it("mounts only the workspace volume and passes no host environment", () => {
    expect(host["Mounts"]).toEqual([workspaceMount({ session: "s1", run: "r1", generation: "g0003", phase: "evaluate" })]);
    // An anonymous volume (no Source): the engine makes it with the container and removes it with it.
    expect(host["Mounts"]?.[0]?.Source).toBe("");
    expect(host["Binds"]).toBeUndefined();
    expect(spec.Env).toEqual(["HOME=/tmp", "NODE_ENV=production"]);
  });

  it("labels the container with session, run, generation and phase", () => {
    expect(spec.Labels).toMatchObject({
      "dev.evolve.managed": "true",
      "dev.evolve.session": "s1",
      "dev.evolve.run": "r1",
      "dev.evolve.generation": "g0003",
      "dev.evolve.phase": "evaluate",
    });
  });

  it("takes limit overrides and the gVisor runtime", () => {
    const custom = containerCreateOptions(
      { image: "i", command: ["n"], labels: { session: "s" }, runtime: "runsc", limits: { memoryBytes: 64 << 20, pidsLimit: 8 } },
    );
    expect(custom.HostConfig["Runtime"]).toBe("runsc");
    expect(custom.HostConfig["Memory"]).toBe(64 << 20);
    expect(custom.HostConfig["MemorySwap"]).toBe(64 << 20);
    expect(custom.HostConfig["PidsLimit"]).toBe(8 + RUNSC_PIDS_HEADROOM);
  });

  it("makes the workspace a size-capped tmpfs owned by the sandbox user", () => {
    const volume = workspaceMount({ session: "s" }, 1024).VolumeOptions;
    expect(volume.DriverConfig.Options.type).toBe("tmpfs");
    expect(volume.DriverConfig.Options.o).toContain("size=1024");
    expect(volume.DriverConfig.Options.o).toContain(`uid=${SANDBOX_UID}`);
    // Labelled like the container, so a sweep finds one a dead process left behind.
    expect(volume.Labels).toMatchObject({ "dev.evolve.managed": "true", "dev.evolve.session": "s" });
  });
});
