// Codex's per-thread files outside its rollouts (0.171; the TUI's threads): `shell_snapshots/
// <thread>.<ns>.sh` (the shell's options and functions, a few KB) and
// `tui-thread-reference-capabilities/<thread>` (empty), each named after one thread, belong to that
// thread's session: sized, moved and restored with it. `codex delete` never removes the
// capabilities file (0.169 leaves the snapshot too; 0.171 removes it): our move takes both, so
// neither is left. A thread with such files and no rollout at all (a TUI whose first prompt never
// went out) leaves them orphaned: listed as one item, by what it is.
//
// The third, `thread-writer-locks/<thread>.lock`, is no part of anything: `codex delete` removes
// every lock no process holds, of any thread (measured on 0.169), so one session's lock may be gone
// before its own turn in a delete of several — an empty file whose life is Codex's own, made again
// when it next writes the thread. A held one means the thread runs (its rollout is open too).
import { lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";

const UUID = "([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})";

/** The folders of per-thread files, each with the names it holds (the thread's id is the first group). */
export const THREAD_FILE_FOLDERS: ReadonlyArray<readonly [string, RegExp]> = [
  ["shell_snapshots", new RegExp(`^${UUID}(?:\\.\\d+)?\\.sh$`)],
  ["tui-thread-reference-capabilities", new RegExp(`^${UUID}$`)],
];

/** What an orphaned set of per-thread files is, as its item's name. */
export const ORPHAN_THREAD_FILES =
  "per-thread files of a thread with no rollout (a Codex TUI whose first prompt never went out)";

/** The per-thread files in the store at `root` (regular files only), by thread id in lower case. */
export function threadFiles(root: string): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const [folder, pattern] of THREAD_FILE_FOLDERS) {
    let names: string[];
    try {
      names = readdirSync(join(root, folder)).sort();
    } catch {
      continue;
    }
    for (const name of names) {
      const thread = pattern.exec(name)?.[1]?.toLowerCase();
      const path = join(root, folder, name);
      if (thread === undefined || !lstatSync(path, { throwIfNoEntry: false })?.isFile()) continue;
      found.set(thread, [...(found.get(thread) ?? []), path]);
    }
  }
  return found;
}

/** Whether `path` is in one of the per-thread folders of the store at `root`. */
export const isThreadFile = (root: string, path: string) =>
  THREAD_FILE_FOLDERS.some(([folder]) => path.startsWith(`${join(root, folder)}/`));
