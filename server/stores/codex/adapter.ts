// Codex's adapter: rollouts in `sessions/YYYY/MM/DD/` and `archived_sessions/`, a thread with its
// subagents' rollouts and per-thread files; deleted through Codex's own `codex delete` (our copy a
// hard link first), checked after with `codex doctor`.
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import type { StoreAdapter } from "../adapter-types.js";
import type { SpawnEdges } from "./codex-spawned.js";
import { codexCustody } from "./codex-custody.js";
import { ARCHIVED, codexDefaultRoot, SESSIONS } from "./location.js";
import { THREAD_FILE_FOLDERS } from "./thread-files.js";

/** Codex's folder of one day's rollouts, below its root: `/sessions/YYYY/MM/DD`. */
const CODEX_DAY = /^\/sessions\/\d{4}\/\d{2}\/\d{2}$/;

export const codexAdapter: StoreAdapter = {
  kind: "codex",
  // `sessions/YYYY/MM/DD/`.
  watchDepth: 4,
  // `$CODEX_HOME`, else `~/.codex`.
  defaultStores: (env) => ({ stores: [{ root: codexDefaultRoot(env), label: "Codex's store" }] }),
  // Codex's home holds its config and databases too: it is a store once it has rollouts.
  isStore: (root) => existsSync(join(root, SESSIONS)) || existsSync(join(root, ARCHIVED)),
  // In a day's folder of `sessions/` or in `archived_sessions/` (a rollout), or in a folder of
  // per-thread files.
  isSessionPlace: (root, path) => {
    const parent = dirname(path);
    return (
      parent === join(root, "archived_sessions") ||
      (CODEX_DAY.test(parent.slice(root.length)) && parent.startsWith(`${root}/sessions/`)) ||
      THREAD_FILE_FOLDERS.some(([folder]) => parent === join(root, folder))
    );
  },
  // Our copy is a hard link; Codex's own `codex delete` removes the original (codex-custody.ts) —
  // of a thread's rollout; a thread's orphaned per-thread files move as files do.
  custody: codexCustody,
  load: async () => {
    const [
      { scanCodexRoot, rescanCodexChanged },
      { codexAlsoDeletes, spawnEdgeFiles, spawnEdges },
      { codexDoctor },
      { codexBinary, threadsOfPaths },
    ] = await Promise.all([
      import("./codex-store.js"),
      import("./codex-spawned.js"),
      import("./codex-doctor.js"),
      import("./codex-delete.js"),
    ]);
    return {
      scan: scanCodexRoot,
      rescanChanged: rescanCodexChanged,
      agentRecords: spawnEdges,
      agentRecordFiles: spawnEdgeFiles,
      alsoDeletes: (scan, ids, edges) => codexAlsoDeletes(scan, ids, edges as SpawnEdges | string),
      checkAfterChange: (root, env, restored = []) => {
        const codex = codexBinary(env);
        return codex === undefined
          ? { status: "unavailable", message: "codex doctor was not run: no `codex` binary was found" }
          : codexDoctor(
              codex,
              root,
              env,
              restored.filter((path) => threadsOfPaths([path]).length > 0),
            );
      },
    };
  },
};
