// Claude Code's adapter: transcripts in `projects/<project>/`, each with the side files of its bundle
// (per-session folders, background jobs, its temp folder outside the store); live sessions from its
// own registry, and its own sweep of old transcripts.
import { existsSync, realpathSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { StoreAdapter } from "../adapter-types.js";
import {
  CLAUDE_JOBS,
  CLAUDE_SIDE_FOLDERS,
  claudeDefaultRoot,
  claudeTempRoot,
  ensureClaudeTempRoot,
} from "./location.js";

/** A session id as Claude Code names its files and folders after it. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * In a project folder of `projects/`, in one of its per-session side folders or `jobs/`, or a
 * session's folder in a project folder of its temp root outside the store (`claudeTempRoot`, judged
 * now: it must still be a folder of ours no one else may write to).
 */
const isSessionPlace = (root: string, path: string) => {
  const parent = dirname(path);
  return (
    dirname(parent) === join(root, "projects") ||
    CLAUDE_SIDE_FOLDERS.some((folder) => parent === join(root, folder)) ||
    parent === join(root, CLAUDE_JOBS) ||
    (UUID.test(basename(path)) && dirname(parent) === claudeTempRoot(process.env, root))
  );
};

/** Whether `folder` is its own real path (no symlink on the way), or not there (yet). */
function reachedDirectly(folder: string): boolean {
  try {
    return realpathSync(folder) === folder;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT";
  }
}

export const claudeAdapter: StoreAdapter = {
  kind: "claude",
  // `projects/<p>/<id>/subagents/`: the deepest a session's parts are kept.
  watchDepth: 4,
  // `$CLAUDE_CONFIG_DIR`, else `~/.claude`.
  defaultStores: (env) => ({ stores: [{ root: claudeDefaultRoot(env), label: "Claude Code's store" }] }),
  // Claude Code's folder holds much more than sessions: it is a store once it has projects.
  isStore: (root) => existsSync(join(root, "projects")),
  isSessionPlace,
  // The session's temp folder is outside its store, in a temp folder other users may write to: it
  // goes back only where `isSessionPlace` holds again — the temp root made afresh as Claude makes it
  // when a reboot emptied the temp folder, and refused when it is not ours.
  isReturnPlace: (root, path) => {
    if (path.startsWith(`${root}/`)) return true;
    ensureClaudeTempRoot(process.env, root);
    return isSessionPlace(root, path) && reachedDirectly(dirname(path));
  },
  load: async () => {
    const [
      { scanClaudeRoot, rescanClaudeChanged },
      { claudeLiveSessions },
      { claudeSweep, claudeSweptAgain },
      { readClaudeDetail },
    ] = await Promise.all([
      import("./claude-store.js"),
      import("./claude-live.js"),
      import("./claude-sweep.js"),
      import("./claude-detail.js"),
    ]);
    return {
      scan: scanClaudeRoot,
      rescanChanged: rescanClaudeChanged,
      liveSessions: (root, sessions) => claudeLiveSessions(root, sessions),
      externalSweep: claudeSweep,
      sweptAgain: claudeSweptAgain,
      sessionDetail: readClaudeDetail,
    };
  },
};
