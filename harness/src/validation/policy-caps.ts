/** Size caps of the policy gate; the defaults sit within the sandbox's extraction caps. */
import { z } from "zod";

export const PolicyCaps = z.object({
  /** Regular files in the tree. */
  maxFiles: z.number().int().positive(),
  /** Bytes of any one file: source files, not data sets. */
  maxFileBytes: z.number().int().positive(),
  /** Bytes of all files together. */
  maxTotalBytes: z.number().int().positive(),
  /** Folder nesting below the root. */
  maxDepth: z.number().int().positive(),
  /** Characters of one relative path. */
  maxPathLength: z.number().int().positive(),
});
export type PolicyCaps = z.infer<typeof PolicyCaps>;

/** 1000 files, 1 MiB per file, 8 MiB in all, 16 folders deep, 240-character paths. */
export const DEFAULT_POLICY_CAPS: PolicyCaps = {
  maxFiles: 1_000,
  maxFileBytes: 1024 * 1024,
  maxTotalBytes: 8 * 1024 * 1024,
  maxDepth: 16,
  maxPathLength: 240,
};
