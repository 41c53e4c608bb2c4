/**
 * A folder as a tar stream (tar-fs), loaded on first use: the CLI's inspect commands and
 * `--help` reach this folder through the sandbox's index and must not pay for tar-fs's
 * start-up (tests/architecture/light-commands.test.ts).
 */
import type { PackOptions } from "tar-fs";

/** tar-fs's `pack(dir, options)`; umask is an option tar-fs takes that @types/tar-fs does not declare. */
export async function packFolder(dir: string, options: PackOptions & { umask?: number }): Promise<NodeJS.ReadableStream> {
  const { pack } = await import("tar-fs");
  return pack(dir, options) as unknown as NodeJS.ReadableStream;
}
