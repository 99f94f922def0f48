// What "nothing changed on disk" means in the safety tests: every entry under some folders — its
// type, size, mode, the sha256 of a file's content, a symlink's target — taken before and after an
// attempt, and compared. Symlinks are recorded, never followed: a link to `/` or to home is one
// entry, and what it points to is snapshotted only where it is itself inside a snapshotted folder.
import { createHash } from "node:crypto";
import { lstatSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { join } from "node:path";

/** Path → one line describing the entry. */
export type TreeSnapshot = ReadonlyMap<string, string>;

/**
 * Every entry under `roots` (the roots included; a missing root is recorded as missing), except
 * those `ignore` names — and below an ignored folder, nothing.
 */
export function snapshotTree(roots: readonly string[], ignore: (path: string) => boolean = () => false) {
  const entries = new Map<string, string>();
  const visit = (path: string) => {
    if (ignore(path) || entries.has(path)) return;
    const stat = lstatSync(path, { throwIfNoEntry: false });
    if (!stat) return void entries.set(path, "missing");
    const mode = (stat.mode & 0o7777).toString(8);
    if (stat.isSymbolicLink()) entries.set(path, `symlink → ${readlinkSync(path)}`);
    else if (stat.isFile()) {
      const sha = createHash("sha256").update(readFileSync(path)).digest("hex");
      entries.set(path, `file ${stat.size} B mode ${mode} sha256 ${sha}`);
    } else if (stat.isDirectory()) {
      entries.set(path, `folder mode ${mode}`);
      for (const name of readdirSync(path).sort()) visit(join(path, name));
    } else entries.set(path, `special (${stat.isFIFO() ? "fifo" : "other"}) mode ${mode}`);
  };
  for (const root of roots) visit(root);
  return entries as TreeSnapshot;
}

/** What differs between two snapshots, one line per path (empty when nothing changed): readable in a failed `toEqual([])`. */
export function treeChanges(before: TreeSnapshot, after: TreeSnapshot): string[] {
  const changes: string[] = [];
  for (const [path, was] of before) {
    const now = after.get(path);
    if (now === undefined) changes.push(`gone: ${path} (was ${was})`);
    else if (now !== was) changes.push(`changed: ${path}: ${was} → ${now}`);
  }
  for (const [path, now] of after) if (!before.has(path)) changes.push(`new: ${path} (${now})`);
  return changes.sort();
}

/** Every regular file's mtime (ns) below `folder`: what "times included" adds to a tree snapshot. */
export function fileTimes(folder: string): Map<string, string> {
  const times = new Map<string, string>();
  const visit = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      const stat = lstatSync(path, { bigint: true });
      if (stat.isDirectory()) visit(path);
      else if (stat.isFile()) times.set(path, stat.mtimeNs.toString());
    }
  };
  visit(folder);
  return times;
}

/** A snapshot without the paths `moved` names. */
export const without = (snapshot: TreeSnapshot, moved: (path: string) => boolean): TreeSnapshot =>
  new Map([...snapshot].filter(([path]) => !moved(path)));

/** Whether a path is one of `parts` or inside one. */
export const insideAny = (parts: readonly string[]) => (path: string) =>
  parts.some((part) => path === part || path.startsWith(`${part}/`));
