/**
 * The hardened container spec: the default for every container the harness creates.
 * Pure functions from our spec to Docker's create options, so the hardening can be read
 * and unit-tested in one place.
 */
import type Docker from "dockerode";
import { DEFAULT_LIMITS, DEFAULT_WORKSPACE_BYTES, LABEL_PREFIX, SANDBOX_UID } from "../port/index.js";
import type { Runtime, SandboxLabels, SandboxLimits, SandboxSpec } from "../port/index.js";

export const WORKSPACE_MOUNT = "/work";

/**
 * Under gVisor the pids cgroup also counts the sandbox kernel's own threads (and, on the
 * ptrace platform, a stub per guest process); without headroom the sentry itself fails to
 * start threads and dies (exit code 2) long before the agent reaches its limit.
 */
export const RUNSC_PIDS_HEADROOM = 128;

/** Docker labels: every container and volume can be found again by session, run, generation. */
export function dockerLabels(labels: SandboxLabels): Record<string, string> {
  const out: Record<string, string> = { [`${LABEL_PREFIX}.managed`]: "true", [`${LABEL_PREFIX}.session`]: labels.session };
  if (labels.run !== undefined) out[`${LABEL_PREFIX}.run`] = labels.run;
  if (labels.generation !== undefined) out[`${LABEL_PREFIX}.generation`] = labels.generation;
  if (labels.phase !== undefined) out[`${LABEL_PREFIX}.phase`] = labels.phase;
  return out;
}

export function resolveLimits(limits: Partial<SandboxLimits> | undefined): SandboxLimits {
  return { ...DEFAULT_LIMITS, ...(limits ?? {}) };
}

/** The workspace mount, every field we set required: an anonymous volume the engine makes with the container. */
export interface WorkspaceMount extends Docker.MountSettings {
  Type: "volume";
  /** Empty: an anonymous volume. */
  Source: "";
  Target: typeof WORKSPACE_MOUNT;
  ReadOnly: false;
  VolumeOptions: { NoCopy: false; Labels: Record<string, string>; DriverConfig: { Name: "local"; Options: { type: "tmpfs"; device: "tmpfs"; o: string } } };
}

/**
 * A size-capped tmpfs volume owned by the sandbox user: the workspace. Anonymous, so the
 * engine creates it with the container and removes it with it (`remove` with `v`): two API
 * calls fewer per container than a named volume made and removed on its own.
 */
export function workspaceMount(labels: SandboxLabels, bytes = DEFAULT_WORKSPACE_BYTES): WorkspaceMount {
  return {
    Type: "volume",
    Source: "",
    Target: WORKSPACE_MOUNT,
    ReadOnly: false,
    VolumeOptions: {
      NoCopy: false,
      Labels: dockerLabels(labels),
      DriverConfig: { Name: "local", Options: { type: "tmpfs", device: "tmpfs", o: `size=${bytes},uid=${SANDBOX_UID},gid=${SANDBOX_UID},mode=0700,nosuid,nodev` } },
    },
  };
}

/** The host side of the hardened spec: every field Docker reads for isolation, required. */
export interface HardenedHostConfig extends Docker.HostConfig {
  NetworkMode: "none";
  ReadonlyRootfs: true;
  Mounts: [WorkspaceMount];
  Tmpfs: Record<string, string>;
  CapDrop: ["ALL"];
  SecurityOpt: string[];
  PidsLimit: number;
  Memory: number;
  MemorySwap: number;
  NanoCpus: number;
  Init: true;
  IpcMode: "private";
  Privileged: false;
  Ulimits: Docker.Ulimit[];
  LogConfig: { Type: "json-file"; Config: Record<string, string> };
  Runtime: Runtime;
  AutoRemove: false;
}

/** Docker's container create options as the hardened spec fills them. */
export interface ContainerCreateOptions extends Docker.ContainerCreateOptions {
  Image: string;
  Cmd: string[];
  User: string;
  WorkingDir: string;
  Env: string[];
  Labels: Record<string, string>;
  AttachStdin: boolean;
  AttachStdout: boolean;
  AttachStderr: boolean;
  OpenStdin: boolean;
  StdinOnce: boolean;
  Tty: boolean;
  NetworkDisabled: true;
  HostConfig: HardenedHostConfig;
}

/** Docker create options for `spec`, with the workspace volume at /work. */
export function containerCreateOptions(spec: SandboxSpec): ContainerCreateOptions {
  const limits = resolveLimits(spec.limits);
  return {
    Image: spec.image,
    Cmd: spec.command,
    User: `${SANDBOX_UID}:${SANDBOX_UID}`,
    WorkingDir: WORKSPACE_MOUNT,
    // Nothing of the host's environment: no keys, no paths.
    Env: ["HOME=/tmp", "NODE_ENV=production"],
    Labels: dockerLabels(spec.labels),
    AttachStdin: true,
    AttachStdout: true,
    AttachStderr: true,
    OpenStdin: true,
    StdinOnce: true,
    Tty: false,
    NetworkDisabled: true,
    HostConfig: {
      NetworkMode: "none",
      ReadonlyRootfs: true,
      Mounts: [workspaceMount(spec.labels)],
      // mode=1777: writable by the sandbox user under every runtime (runc mounts it 0755 root otherwise).
      Tmpfs: { "/tmp": `rw,noexec,nosuid,nodev,size=${limits.tmpfsBytes},mode=1777` },
      CapDrop: ["ALL"],
      SecurityOpt: ["no-new-privileges"],
      PidsLimit: spec.runtime === "runsc" ? limits.pidsLimit + RUNSC_PIDS_HEADROOM : limits.pidsLimit,
      Memory: limits.memoryBytes,
      // Equal to Memory: no swap, so a memory hog meets the OOM killer, not the disk.
      MemorySwap: limits.memoryBytes,
      NanoCpus: limits.nanoCpus,
      Init: true,
      IpcMode: "private",
      Privileged: false,
      Ulimits: [
        { Name: "nofile", Soft: 1024, Hard: 1024 },
        { Name: "core", Soft: 0, Hard: 0 },
      ],
      LogConfig: { Type: "json-file", Config: { "max-size": String(limits.logBytes), "max-file": "1" } },
      Runtime: spec.runtime ?? "runc",
      AutoRemove: false,
    },
  };
}
