// `session-retention --version`: the version of the installed package, read from its package.json at
// run time so it can never disagree with what npm installed.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { CliIo } from "./io.js";

/** The nearest package.json above this file: two folders up in a checkout, three in dist/. */
export function packageVersion(from = dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest))
      return (JSON.parse(readFileSync(manifest, "utf8")) as { version: string }).version;
    if (dirname(dir) === dir) throw new Error("package.json not found above " + from);
  }
}

export function runVersion(io: CliIo): number {
  io.stdout(packageVersion());
  return 0;
}
