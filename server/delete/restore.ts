// Restore: entries in the trash go back where they were, each only while its trashed copy is still
// the very one we put there and nothing stands at its original path again. Each move back is
// journaled before it happens; a failed one is closed at once from what is on disk, as recovery
// would after a crash.
import { rmSync } from "node:fs";
import { dirname } from "node:path";
import {
  parseEntryId,
  type TrashActionResult,
  type TrashEntry,
  trashRefResolver,
} from "../../shared/trash.js";
import { isReturnPlace } from "../stores/session-place.js";
import { storeAdapter } from "../stores/store-adapter.js";
import { indexRestoreFor, putIndexBack } from "./handover.js";
import { type EngineOptions, type EngineState, exclusive } from "./engine.js";
import { Ledger, withEntryLedger } from "../state/journal.js";
import type { IndexRestore } from "../stores/adapter-types.js";
import { listTrash } from "./list-trash.js";
import { moveFile, pathExists } from "./movers.js";
import { markStuck, recoverLocked, resolveOpen, whereIs } from "./recovery.js";
import { moveBack, moveSidecars, realFolder, removeEmptiedFolders, trashedCopy } from "./trashed-copy.js";
import { doneItem, trashAudit } from "./trash-report.js";
import { agentChecks } from "./agent-checks.js";

export async function restore(refs: readonly string[], options: EngineOptions): Promise<TrashActionResult> {
  return exclusive(options, recoverLocked, async (state) => {
    const { entries } = listTrash(options);
    const result: TrashActionResult = { done: [], skipped: [] };
    // A ref may name several entries (an operation: what one clean moved); each is restored on its own.
    const named: Named[] = [];
    const resolve = trashRefResolver(entries);
    for (const ref of refs) {
      const found = resolve(ref);
      if (typeof found === "string") result.skipped.push({ ref, reason: found });
      else for (const entry of found) named.push({ ref: found.length > 1 ? entry.entryId : ref, entry });
    }
    // Undone in the reverse of the order things moved: what a session reads from (a Codex fork's
    // parent, moved after the fork) is back before the session, so a restore cut short never leaves
    // a session in place that cannot be opened.
    named.sort((a, b) => compareEntryIds(b.entry.entryId, a.entry.entryId));
    // Restored in runs of one operation's entries: their intents made durable with one fsync.
    const run: Named[] = [];
    const flush = () => run.length > 0 && restoreRun(run.splice(0), state, result);
    for (const { ref, entry } of named) {
      if (run.length === BATCH || (run[0] && operationOf(run[0].entry) !== operationOf(entry))) flush();
      if (entry.state === "conflict") {
        flush();
        putBack(entry, ref, state, result);
        continue;
      }
      const refused = refusal(entry);
      if (refused) result.skipped.push({ ref, ...refused });
      else run.push({ ref, entry });
    }
    flush();
    const restored = new Set(result.done.map((d) => d.entryId));
    // Each store something came back to, checked by its agent's own look.
    const checks = await agentChecks(
      named
        .filter(({ entry }) => restored.has(entry.entryId))
        .map(({ entry }) => ({
          kind: entry.storeKind,
          root: entry.storeRoot,
          restored: [entry.originalPath, ...entry.sidecars.map((s) => s.from)],
        })),
      state.env,
    );
    if (checks.length > 0) result.checks = checks;
    trashAudit(state, options, "restore", result);
    const sweptAgain = [];
    for (const { entry } of named) {
      const again = restored.has(entry.entryId)
        ? await sweptAgainAfterRestore(entry, state.now())
        : undefined;
      if (again) sweptAgain.push(again);
    }
    return sweptAgain.length > 0 ? { ...result, sweptAgain } : result;
  });
}

/** How many restore intents are made durable with one fsync before their entries move back. */
const BATCH = 256;

type Named = { ref: string; entry: TrashEntry };
const operationOf = (entry: TrashEntry) => parseEntryId(entry.entryId)!.operationId;

/** Why an entry is not restored, before anything of it is touched (undefined: it may be). */
function refusal(entry: TrashEntry): { reason: string; pathTaken?: true } | undefined {
  if (entry.state === "gone") return { reason: entry.reason ?? "gone from the trash" };
  if (entry.state !== "in-trash") return { reason: `it is ${entry.state}, not in the trash` };
  const taken = takenPath(entry);
  if (taken)
    return { reason: `conflict: ${taken} exists again; kept both (the trashed copy stays)`, pathTaken: true };
  if (!realFolder(dirname(entry.originalPath)))
    return {
      reason: `${dirname(entry.originalPath)} is now reached through a symlink; not restored through it`,
    };
  const unsafe = unsafePart(entry);
  if (unsafe)
    return {
      reason: `${unsafe} is outside its store, and its folder is no longer one of ours that no one else may write to; not restored there`,
    };
  return undefined;
}

/**
 * Restores entries of one operation: each still the very copy we put there (and its agent's index
 * open to append to, if it has one), their intents journaled and synced together, then each moved
 * back and recorded; the records are synced once at the end.
 */
function restoreRun(run: Named[], state: EngineState, result: TrashActionResult) {
  const ledger = Ledger.reopen(state.ledgerDir, operationOf(run[0]!.entry));
  const ready: Array<Named & { seq: number; index: IndexRestore }> = [];
  try {
    for (const { ref, entry } of run) {
      const { seq } = parseEntryId(entry.entryId)!;
      const copy = trashedCopy(entry);
      if (copy.state !== "ours") {
        // Said once in the ledger too, so the trash shows it without another look.
        if (copy.state === "gone") ledger.append([{ seq, event: "gone", reason: copy.reason }]);
        result.skipped.push({ ref, reason: copy.reason });
        continue;
      }
      // An agent's index the restore appends to (its names of the session), opened before anything moves:
      // one that cannot be appended to safely (a symlink, a FIFO) keeps the entry in the trash.
      const index = indexRestoreFor(entry);
      if (typeof index === "string")
        result.skipped.push({ ref, reason: `not restored, it stays in the trash: ${index}` });
      else ready.push({ ref, entry, seq, index });
    }
    if (ready.length === 0) return;
    ledger.append(ready.map(({ seq }) => ({ seq, event: "restore-intent" as const })));
    ledger.sync();
    for (const item of ready) restoreOne(item, ledger, state, result);
    ledger.sync();
  } finally {
    for (const { index } of ready) index.close();
    ledger.close();
  }
}

/** Moves one entry back, its intent synced; a failed move is closed at once from what is on disk. */
function restoreOne(
  { ref, entry, seq, index }: Named & { seq: number; index: IndexRestore },
  ledger: Ledger,
  state: EngineState,
  result: TrashActionResult,
) {
  state.crash("restore-intent-synced"); // its intent is durable, nothing of it has moved
  try {
    moveFile(entry.location!, entry.originalPath);
  } catch (error) {
    // The intent is closed at once, from what is on disk, as recovery would after a crash.
    const resolved = resolveOpen({ ...entry, state: "restoring" }, ledger, state.env);
    ledger.sync();
    return void result.skipped.push({
      ref,
      reason: `restore failed (${(error as Error).message}): ${resolved.detail}`,
    });
  }
  state.crash("restored");
  try {
    moveSidecars(entry, "back", state.crash);
  } catch (error) {
    // A part that may not come back (its folder is root's now): a conflict that says so and how.
    const stuck = markStuck({ ...entry, state: "restoring" }, ledger, state.env, error);
    ledger.sync();
    return void result.skipped.push({ ref, reason: `restore failed: ${stuck.detail}` });
  }
  index.put();
  if (entry.trashInfo) rmSync(entry.trashInfo, { force: true });
  // Tidied before the outcome is written: once "restored" is, recovery no longer looks at the
  // entry, and a kill in between left its emptied quarantine folders there for good.
  removeEmptiedFolders(entry);
  ledger.append([{ seq, event: "restored" }]);
  state.crash("restore-recorded"); // written; made durable with the rest of its batch
  result.done.push(doneItem(entry));
}

/**
 * The restore of an entry recovery left as a conflict (interrupted half-way, and a part it could not
 * move): every part that is away goes back where it was, once nothing stands at its place — the
 * move undone, whole. A part that is both in place and in the trash keeps both, as before.
 */
function putBack(entry: TrashEntry, ref: string, state: EngineState, result: TrashActionResult) {
  let trashed: string | undefined;
  try {
    trashed = whereIs(entry, state.env).trashed;
  } catch (error) {
    return void result.skipped.push({ ref, reason: `cannot look at its parts: ${(error as Error).message}` });
  }
  const twice = [
    ...(trashed && pathExists(entry.originalPath) ? [entry.originalPath] : []),
    ...entry.sidecars.filter((s) => pathExists(s.to) && pathExists(s.from)).map((s) => s.from),
  ];
  if (twice.length > 0)
    return void result.skipped.push({
      ref,
      reason: `conflict: ${twice[0]} is both in place and in the trash; kept both (move one aside, then restore again)`,
      pathTaken: true,
    });
  const copy = trashed ? trashedCopy({ ...entry, location: trashed }) : undefined;
  if (copy && copy.state !== "ours") return void result.skipped.push({ ref, reason: copy.reason });
  withEntryLedger(state.ledgerDir, entry.entryId, (ledger, seq) => {
    ledger.append([{ seq, event: "restore-intent" }]);
    ledger.sync();
    try {
      moveBack(entry, trashed, entry.trashInfo, state.crash);
    } catch (error) {
      // Closed at once: still a conflict, that says what is in the way now.
      const stuck = markStuck(entry, ledger, state.env, error);
      ledger.sync();
      return void result.skipped.push({ ref, reason: `restore failed: ${stuck.detail}` });
    }
    // The agent's names of it back, as recovery puts them back (never thrown: the parts are back).
    putIndexBack(entry);
    ledger.append([{ seq, event: "restored" }]);
    ledger.sync();
    result.done.push(doneItem(entry));
  });
}

/**
 * The first of an entry's paths that something is at again — its own, or one of its bundle's
 * (Claude may have made a new `file-history/<id>/`): a restore would overwrite or strand a part.
 */
function takenPath(entry: TrashEntry): string | undefined {
  if (pathExists(entry.originalPath)) return entry.originalPath;
  return entry.sidecars.find((s) => pathExists(s.to) && pathExists(s.from))?.from;
}

/**
 * A part of the entry outside its store (Claude Code's temp folder for the session) that may not go
 * back now: in a shared temp folder, another user may have made the folder it goes into.
 */
function unsafePart(entry: TrashEntry): string | undefined {
  return entry.sidecars.find((s) => !isReturnPlace(entry.storeKind, entry.storeRoot, s.from))?.from;
}

/**
 * A restored session keeps its time, so its agent's own retention may delete it again (Claude Code's
 * cleanup at its next run, Gemini CLI's at its next start in the project): the restore says so — and
 * `keep` or the dashboard keeps Claude's, whose sweep looks at the file time `keep` refreshes.
 */
async function sweptAgainAfterRestore(entry: TrashEntry, now: Date) {
  const again = (await storeAdapter(entry.storeKind)).sweptAgain?.(entry, now);
  return again && { id: entry.id, path: entry.originalPath, agent: entry.storeKind, ...again };
}

/** Entries in the order they were moved: by operation (named by its start time), then by sequence. */
function compareEntryIds(a: string, b: string): number {
  const [x, y] = [parseEntryId(a)!, parseEntryId(b)!];
  if (x.operationId !== y.operationId) return x.operationId < y.operationId ? -1 : 1;
  return x.seq - y.seq;
}
