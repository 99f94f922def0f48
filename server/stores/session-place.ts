// Where each kind of store keeps its sessions — the places a scan recognises them in, and the only
// places the deletion engine will move anything from. The scan decides what is a session; this is
// the engine's last look, at the moment of the move, that a path is still in such a place.
import { basename, dirname, join } from "node:path";
import type { StoreKind } from "../../shared/session-record.js";
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

/** Codex's folder of one day's rollouts, below its root: `/sessions/YYYY/MM/DD`. */
const CODEX_DAY = /^\/sessions\/\d{4}\/\d{2}\/\d{2}$/;

/**
 * Whether `path` is where a store of `kind` at `root` keeps a session or a part of one: directly in
 * the root (a flat pi store, agentsh, workspaces) or in a pi `--<cwd>--` folder; for Claude Code in
 * a project folder of `projects/`, or in one of its per-session side folders; for Codex in a day's
 * folder of `sessions/` or in `archived_sessions/` (a rollout), or in a folder of per-thread files; for Gemini CLI in a project folder of `tmp/` (a
 * session's own folder) or in its `chats/`, `logs/` or `tool-outputs/`.
 */
export function isSessionPlace(kind: StoreKind, root: string, path: string): boolean {
  const parent = dirname(path);
  switch (kind) {
    case "pi":
      return parent === root || (dirname(parent) === root && PI_CWD_FOLDER.test(basename(parent)));
    case "claude":
      return (
        dirname(parent) === join(root, "projects") ||
        CLAUDE_SIDE_FOLDERS.some((folder) => parent === join(root, folder))
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
