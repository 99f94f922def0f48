// Where each kind of store keeps its sessions — the places a scan recognises them in, and the only
// places the deletion engine will move anything from. The scan decides what is a session; this is
// the engine's last look, at the moment of the move, that a path is still in such a place — and a
// restore's, before a part outside its store goes back.
import { realpathSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { StoreKind } from "../../shared/session-record.js";
import { claudeTempRoot, ensureClaudeTempRoot } from "./claude/location.js";
import { GEMINI_PROJECTS, GEMINI_SESSION_FOLDERS } from "./gemini/location.js";
import { THREAD_FILE_FOLDERS } from "./codex/thread-files.js";

/** pi's per-cwd folder: `--<cwd with / replaced>--`. */
export const PI_CWD_FOLDER = /^--.*--$/s;

/** Claude Code's folders of per-session side files, each named after the session. */
export const CLAUDE_SIDE_FOLDERS = [
  "file-history",
  "session-env",
  "tasks",
  "uploads",
  "image-cache",
  "debug",
  "todos",
];

/** Claude Code's folder of background jobs, one folder each named by the first 8 characters of its session's id. */
export const CLAUDE_JOBS = "jobs";

/** A session id as Claude Code names its files and folders after it. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Codex's folder of one day's rollouts, below its root: `/sessions/YYYY/MM/DD`. */
const CODEX_DAY = /^\/sessions\/\d{4}\/\d{2}\/\d{2}$/;

/**
 * Whether `path` is where a store of `kind` at `root` keeps a session or a part of one: directly in
 * the root (a flat pi store, agentsh, workspaces) or in a pi `--<cwd>--` folder; for Claude Code in
 * a project folder of `projects/`, in one of its per-session side folders or `jobs/`, or a session's
 * folder in a project folder of its temp root outside the store (`claudeTempRoot`, judged now: it
 * must still be a folder of ours no one else may write to); for Codex in a day's folder of
 * `sessions/` or in `archived_sessions/` (a rollout), or in a folder of per-thread files; for Gemini
 * CLI in a project folder of `tmp/` (a session's own folder) or in its `chats/`, `logs/` or
 * `tool-outputs/`.
 */
export function isSessionPlace(kind: StoreKind, root: string, path: string): boolean {
  const parent = dirname(path);
  switch (kind) {
    case "pi":
      return parent === root || (dirname(parent) === root && PI_CWD_FOLDER.test(basename(parent)));
    case "claude":
      return (
        dirname(parent) === join(root, "projects") ||
        CLAUDE_SIDE_FOLDERS.some((folder) => parent === join(root, folder)) ||
        parent === join(root, CLAUDE_JOBS) ||
        (UUID.test(basename(path)) && dirname(parent) === claudeTempRoot(process.env, root))
      );
    case "codex":
      return (
        parent === join(root, "archived_sessions") ||
        (CODEX_DAY.test(parent.slice(root.length)) && parent.startsWith(`${root}/sessions/`)) ||
        THREAD_FILE_FOLDERS.some(([folder]) => parent === join(root, folder))
      );
    case "gemini": {
      const projects = join(root, GEMINI_PROJECTS);
      return (
        dirname(parent) === projects ||
        (dirname(dirname(parent)) === projects && GEMINI_SESSION_FOLDERS.includes(basename(parent)))
      );
    }
    default:
      return parent === root;
  }
}

/**
 * Whether a part of a session may go back to `path` now (a restore). Inside the store's root, and pi's
 * session-index file beside its store, it goes back as the session does. Claude Code's temp folder of
 * the session is outside its store, in a temp folder other users may write to: it goes back only
 * where `isSessionPlace` holds again — the temp root made afresh as Claude makes it when a reboot
 * emptied the temp folder, and refused when it is not ours.
 */
export function isReturnPlace(kind: StoreKind, root: string, path: string): boolean {
  if (kind !== "claude" || path.startsWith(`${root}/`)) return true;
  ensureClaudeTempRoot(process.env, root);
  return isSessionPlace(kind, root, path) && reachedDirectly(dirname(path));
}

/** Whether `folder` is its own real path (no symlink on the way), or not there (yet). */
function reachedDirectly(folder: string): boolean {
  try {
    return realpathSync(folder) === folder;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT";
  }
}
