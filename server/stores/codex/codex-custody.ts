// Codex's side of the engine's hand-over (server/delete/handover.ts; codex-delete.ts says why a Codex
// session is deleted this way): which files are threads' rollouts, the `codex delete` that removes a
// thread with its index lines and rows, the look at what Codex still shows after it, the wait for a
// delete a killed process of ours left running, and the index lines a restore appends again.
import { awaitProcesses } from "../../fs/await-processes.js";
import type { Custody, IndexRestore } from "../adapter-types.js";
import { codexDelete, codexTools, codexTraces, threadsOfPaths } from "./codex-delete.js";
import { indexLinesOf, openSessionIndex } from "./session-index.js";

/** Every path of an item in the store: its rollout and the rest of its bundle. */
const pathsOf = (item: { originalPath: string; sidecars: ReadonlyArray<{ from: string }> }) => [
  item.originalPath,
  ...item.sidecars.map((s) => s.from),
];

/** The thread an item's own rollout names. */
const threadOf = (item: { originalPath: string }) => threadsOfPaths([item.originalPath])[0]!;

export const codexCustody: Custody = {
  // A thread's rollout; a thread's orphaned per-thread files (no rollout, nothing Codex lists) move
  // as files do. Whether Codex deleted anything is judged by the rollouts alone (a thread's other
  // files — a shell snapshot Codex 0.171 removes — say nothing of its rows and lines).
  takes: (path) => threadsOfPaths([path]).length > 0,
  blocked(env) {
    const tools = codexTools(env);
    return typeof tools === "string" ? tools : undefined;
  },
  indexLines: (record) =>
    indexLinesOf(record.store.root, threadsOfPaths([record.path, ...(record.bundle ?? [])])),
  remove(item, env, crash) {
    const tools = codexTools(env);
    if (typeof tools === "string") return { ok: false, message: tools };
    const deleted = codexDelete(tools, item.storeRoot, threadOf(item), env);
    crash("codex-deleted");
    return deleted;
  },
  proveGone(item, env, exists) {
    const tools = codexTools(env);
    if (typeof tools === "string") return [`Codex's store was not looked at: ${tools}`];
    const paths = pathsOf(item);
    const traces = codexTraces(tools, item.storeRoot, threadsOfPaths(paths), paths, env, exists);
    return [
      ...traces.left.map((t) => `Codex may still list it: ${t}`),
      ...traces.legacy.map((t) => `${t} (an older Codex's database, not read by this one; left as it is)`),
    ];
  },
  awaitRunning: (item) => waitForCodexDelete(threadOf(item)),
  indexRestore(item): IndexRestore | string {
    const lines = item.indexLines ?? [];
    if (lines.length === 0) return { put() {}, close() {} };
    const index = openSessionIndex(item.storeRoot);
    if (typeof index === "string") return index;
    return {
      put() {
        // Lines the index has again already (a restore recovery finishing what a crash cut) are not doubled.
        const present = new Set(index.linesOf(threadsOfPaths(pathsOf(item))));
        index.append(lines.filter((line) => !present.has(line)));
      },
      close: index.close,
    };
  },
};

/** How long recovery waits for a `codex delete` left running (it takes well under a second). */
const CODEX_DELETE_WAIT_MS = 60_000;
/** How long it looks for one before it concludes there is none (await-processes.ts says why). */
const CODEX_DELETE_QUIET_MS = 500;

/**
 * Waits while a `codex delete … <thread>` process is alive (Linux: /proc; elsewhere there is no
 * such look, and recovery runs at once). Synchronous, as recovery is.
 */
export function waitForCodexDelete(
  thread: string,
  waitMs = CODEX_DELETE_WAIT_MS,
  quietMs = CODEX_DELETE_QUIET_MS,
  procDir = "/proc",
) {
  awaitProcesses((args) => args.includes("delete") && args.includes(thread), { waitMs, quietMs, procDir });
}
