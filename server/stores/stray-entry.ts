// What a store's walk finds where sessions are kept that is not one: reported, never followed or read.
import type { Stats } from "node:fs";
import type { ScanProblem } from "../../shared/scan-report.js";
import type { StoreKind } from "../../shared/store-kinds.js";

/**
 * A link (never followed), another file or folder (`what` says what it is not, with its bytes for a
 * file), or something that is neither (a FIFO, a socket).
 */
export function strayEntry(stat: Stats, path: string, kind: StoreKind, what: string): ScanProblem {
  if (stat.isSymbolicLink())
    return { code: "symlink", path, message: `symlink in a ${kind} store; not followed` };
  return {
    code: stat.isFile() || stat.isDirectory() ? "not-a-session" : "not-regular",
    path,
    message: what,
    ...(stat.isFile() ? { bytes: stat.size } : {}),
  };
}
