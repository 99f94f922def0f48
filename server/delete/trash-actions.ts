// The trash: what is in it, bringing entries back, and the only hard delete there is — of entries
// already in it, confirmed by their exact count and bytes, and only while the config is valid.
// Both act on an entry only when its copy is still the very one we put there, and every intent they
// write ends in a definite state, even when the move fails.
import { rmSync } from "node:fs";
import { dirname } from "node:path";
import type { AuditEntry } from "../../shared/audit.js";
import { isFolderSession } from "../../shared/session-record.js";
import {
  parseEntryId,
  purgeConfirmation,
  resolveTrashRefs,
  type TrashActionResult,
  type TrashEntry,
  trashRefResolver,
} from "../../shared/trash.js";
import { appendAudit } from "../state/audit-log.js";
import { storeAdapter } from "../stores/store-adapter.js";
import { type EngineOptions, type EngineState, engineState, exclusive, freshConfig } from "./engine.js";
import { restoreCodexIndex } from "./codex-move.js";
import { moveFile, pathExists } from "./movers.js";
import { recoverLocked, resolveOpen } from "./recovery.js";
import {
  moveSidecars,
  realFolder,
  removeEmptiedFolders,
  removeSidecars,
  trashedCopy,
} from "./trashed-copy.js";
import { Ledger, type LedgerRead, readLedgers } from "./trash-ledger.js";

/**
 * Every entry, in its latest state — with "in the trash" judged on the disk: an entry whose copy is
 * gone (the trash was emptied by a file manager) is shown as gone, and one whose copy came back is
 * in the trash again.
 */
export function listTrash(options: EngineOptions): LedgerRead {
  const read = readLedgers(engineState(options).ledgerDir);
  return { ...read, entries: read.entries.map(onDisk) };
}

function onDisk(entry: TrashEntry): TrashEntry {
  if (entry.state !== "in-trash" && entry.state !== "gone") return entry;
  const present = entry.location !== undefined && pathExists(entry.location);
  if (entry.state === "in-trash" && !present) {
    const copy = trashedCopy(entry);
    return { ...entry, state: "gone", ...(copy.state === "gone" ? { reason: copy.reason } : {}) };
  }
  if (entry.state === "gone" && present) {
    const { reason: _gone, ...back } = entry;
    return { ...back, state: "in-trash" };
  }
  return entry;
}

export async function restore(refs: readonly string[], options: EngineOptions): Promise<TrashActionResult> {
  return exclusive(options, recoverLocked, async (state) => {
    const { entries } = listTrash(options);
    const result: TrashActionResult = { done: [], skipped: [] };
    // A ref may name several entries (an operation: what one clean moved); each is restored on its own.
    const named: Array<{ ref: string; entry: TrashEntry }> = [];
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
    for (const { ref, entry } of named) {
      if (entry.state === "gone") result.skipped.push({ ref, reason: entry.reason ?? "gone from the trash" });
      else if (entry.state !== "in-trash")
        result.skipped.push({ ref, reason: `it is ${entry.state}, not in the trash` });
      else if (takenPath(entry))
        result.skipped.push({
          ref,
          reason: `conflict: ${takenPath(entry)} exists again; kept both (the trashed copy stays)`,
          pathTaken: true,
        });
      else if (!realFolder(dirname(entry.originalPath)))
        result.skipped.push({
          ref,
          reason: `${dirname(entry.originalPath)} is now reached through a symlink; not restored through it`,
        });
      else restoreOne(entry, ref, state, result);
    }
    trashAudit(state, options, "restore", result);
    const restored = new Set(result.done.map((d) => d.entryId));
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

function restoreOne(entry: TrashEntry, ref: string, state: EngineState, result: TrashActionResult) {
  const copy = trashedCopy(entry);
  const { operationId, seq } = parseEntryId(entry.entryId)!;
  const ledger = Ledger.reopen(state.ledgerDir, operationId);
  try {
    if (copy.state !== "ours") {
      // Said once in the ledger too, so the trash shows it without another look.
      if (copy.state === "gone") ledger.append([{ seq, event: "gone", reason: copy.reason }]);
      result.skipped.push({ ref, reason: copy.reason });
      return;
    }
    ledger.append([{ seq, event: "restore-intent" }]);
    ledger.sync();
    state.crash("restore-intent-synced");
    try {
      moveFile(entry.location!, entry.originalPath);
    } catch (error) {
      // The intent is closed at once, from what is on disk, as recovery would after a crash.
      const resolved = resolveOpen({ ...entry, state: "restoring" }, ledger, state.env);
      ledger.sync();
      result.skipped.push({
        ref,
        reason: `restore failed (${(error as Error).message}): ${resolved.detail}`,
      });
      return;
    }
    state.crash("restored");
    moveSidecars(entry, "back", state.crash);
    if (entry.storeKind === "codex") restoreCodexIndex(entry);
    if (entry.trashInfo) rmSync(entry.trashInfo, { force: true });
    // Tidied before the outcome is written: once "restored" is, recovery no longer looks at the
    // entry, and a kill in between left its emptied quarantine folders there for good.
    removeEmptiedFolders(entry);
    ledger.append([{ seq, event: "restored" }]);
    ledger.sync();
    state.crash("restore-recorded");
    result.done.push(doneItem(entry));
  } finally {
    ledger.close();
  }
}

/**
 * The first of an entry's paths that something is at again — its own, or one of its bundle's
 * (Claude may have made a new `file-history/<id>/`): a restore would overwrite or strand a part.
 */
function takenPath(entry: TrashEntry): string | undefined {
  if (pathExists(entry.originalPath)) return entry.originalPath;
  return entry.sidecars.find((s) => pathExists(s.to) && pathExists(s.from))?.from;
}

/** What exactly a purge of these refs would remove, for the confirmation that must echo it. */
export function purgeSelection(refs: readonly string[], options: EngineOptions) {
  const named = resolveTrashRefs(listTrash(options).entries, refs);
  const selected = named.entries.filter((e) => e.state === "in-trash");
  const problems = [
    ...named.problems,
    ...named.entries
      .filter((e) => e.state !== "in-trash")
      .map((e) => `${e.entryId} is ${e.state}, not in the trash`),
  ];
  return {
    selected,
    problems,
    count: selected.length,
    bytes: selected.reduce((t, e) => t + e.sizeBytes, 0),
    confirmation: purgeConfirmation(selected),
  };
}

/**
 * Hard delete of soft-deleted items only, and only when `confirm` is exactly "COUNT:BYTES" of what
 * goes. Refused while the config is invalid (read-only); an entry whose copy is not ours is skipped.
 */
export async function purge(
  refs: readonly string[],
  confirm: string,
  options: EngineOptions,
): Promise<TrashActionResult> {
  return exclusive(options, recoverLocked, async (state) => {
    freshConfig(options);
    const { selected, problems } = purgeSelection(refs, options);
    if (problems.length > 0) return { done: [], skipped: [], refused: problems.join("; ") };
    const expected = purgeConfirmation(selected);
    if (confirm !== expected)
      return {
        done: [],
        skipped: [],
        refused: `the confirmation must be ${expected} (count:bytes of exactly what will be purged), got "${confirm}"`,
      };
    const result: TrashActionResult = { done: [], skipped: [] };
    for (const entry of selected) {
      const copy = trashedCopy(entry, true);
      if (copy.state !== "ours") {
        result.skipped.push({ ref: entry.entryId, reason: copy.reason });
        continue;
      }
      const { operationId, seq } = parseEntryId(entry.entryId)!;
      const ledger = Ledger.reopen(state.ledgerDir, operationId);
      try {
        ledger.append([{ seq, event: "purge-intent" }]);
        ledger.sync();
        // Hard delete of what is already in the trash; a folder session goes as a whole.
        rmSync(entry.location!, { force: true, recursive: isFolderSession(entry) });
        removeSidecars(entry);
        if (entry.trashInfo) rmSync(entry.trashInfo, { force: true });
        removeEmptiedFolders(entry); // before the outcome, as for a restore
        ledger.append([{ seq, event: "purged" }]);
        ledger.sync();
        result.done.push(doneItem(entry));
      } catch (error) {
        result.skipped.push({ ref: entry.entryId, reason: `purge failed: ${(error as Error).message}` });
      } finally {
        ledger.close();
      }
    }
    trashAudit(state, options, "purge", result);
    return result;
  });
}

/**
 * A restored session keeps its time, so its agent's own retention may delete it again (Claude Code's
 * cleanup at its next run, Gemini CLI's at its next start in the project): the restore says so — and
 * `keep` or the dashboard keeps Claude's, whose sweep looks at the file time `keep` refreshes.
 */
async function sweptAgainAfterRestore(entry: TrashEntry, now: Date) {
  if (entry.storeKind === "pi") return undefined;
  const again = (await storeAdapter(entry.storeKind)).sweptAgain?.(entry, now);
  return again && { id: entry.id, path: entry.originalPath, agent: entry.storeKind, ...again };
}

/** What a restore or purge reports for an entry it acted on. */
const doneItem = (entry: TrashEntry) => ({
  entryId: entry.entryId,
  id: entry.id,
  path: entry.originalPath,
  ...(entry.title !== undefined ? { title: entry.title } : {}),
  bytes: entry.sizeBytes,
});

function trashAudit(
  state: EngineState,
  options: EngineOptions,
  action: Extract<AuditEntry["action"], "restore" | "purge">,
  result: TrashActionResult,
) {
  appendAudit(state.paths.auditLog, {
    time: state.now().toISOString(),
    actor: options.actor,
    action,
    ...(action === "purge" ? { mode: "hard" } : {}),
    items: [
      ...result.done.map((d) => ({
        id: d.id,
        path: d.path,
        ...(d.title !== undefined ? { title: d.title } : {}),
        bytes: d.bytes,
        result: action === "restore" ? "restored" : "purged",
      })),
      ...result.skipped.map((s) => ({ id: s.ref, path: "", result: "skipped", reason: s.reason })),
    ],
    bytes: result.done.reduce((t, d) => t + d.bytes, 0),
    result: result.skipped.length > 0 ? (result.done.length > 0 ? "partial" : "failed") : "ok",
  });
}

/** Entries in the order they were moved: by operation (named by its start time), then by sequence. */
function compareEntryIds(a: string, b: string): number {
  const [x, y] = [parseEntryId(a)!, parseEntryId(b)!];
  if (x.operationId !== y.operationId) return x.operationId < y.operationId ? -1 : 1;
  return x.seq - y.seq;
}
