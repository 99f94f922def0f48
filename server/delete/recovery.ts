// Crash recovery: every intent a crash (or a failure) left without an outcome is resolved from what
// is on disk, under the deletion lock, before any other operation — and when the dashboard starts.
// Both copies present is a conflict (reported, never guessed); no trashed copy at all is "gone from
// the trash" — a definite state that becomes restorable again if the copy ever comes back.
import { rmSync } from "node:fs";
import { AGENT_LABELS } from "../../shared/session-record.js";
import { parseEntryId, type Recovery, type TrashEntry } from "../../shared/trash.js";
import { appendAudit } from "../state/audit-log.js";
import { acquireLock } from "../fs/lock-file.js";
import { moveRefusalNow, type Refusal } from "../fs/rename-rights.js";
import { type EngineOptions, engineState } from "./engine.js";
import { custodyFor, putIndexBack, recoverHandOver } from "./handover.js";
import { findInSystemTrash, pathExists } from "./movers.js";
import { homeTrashPaths } from "../fs/desktop-trash.js";
import {
  identityAfterMove,
  moveBack,
  moveSidecars,
  removeEmptiedFolders,
  removeSidecars,
} from "./trashed-copy.js";
import { isOpen, Ledger, readLedgers } from "../state/journal.js";

/** Resolves every intent a crash left open. */
export function recover(options: EngineOptions): Recovery[] {
  const state = engineState(options);
  const release = acquireLock(state.lockFile);
  try {
    return recoverLocked(options);
  } finally {
    release();
  }
}

/** `recover` for a caller that holds the lock already. */
export function recoverLocked(options: EngineOptions): Recovery[] {
  const state = engineState(options);
  const open = readLedgers(state.ledgerDir).entries.filter(isOpen);
  if (open.length === 0) return [];
  const results: Recovery[] = [];
  const byOperation = new Map<string, TrashEntry[]>();
  for (const entry of open) {
    const { operationId } = parseEntryId(entry.entryId)!;
    byOperation.set(operationId, [...(byOperation.get(operationId) ?? []), entry]);
  }
  for (const [operationId, entries] of byOperation) {
    let ledger: Ledger;
    try {
      ledger = Ledger.reopen(state.ledgerDir, operationId);
    } catch (error) {
      // Its journal cannot be written (its owner changed?): its entries stay open, said here, and
      // every other operation's are settled.
      for (const entry of entries)
        results.push({
          entryId: entry.entryId,
          id: entry.id,
          path: entry.originalPath,
          result: "conflict",
          detail: `its journal cannot be written (${(error as Error).message}); nothing was done to it`,
        });
      continue;
    }
    try {
      for (const entry of entries) {
        results.push(resolveOpen(entry, ledger, state.env, state.crash));
        state.crash("recovered");
      }
      ledger.sync();
    } finally {
      ledger.close();
    }
  }
  appendAudit(state.paths.auditLog, {
    time: state.now().toISOString(),
    actor: options.actor,
    action: "recover",
    items: results.map((r) => ({ id: r.id, path: r.path, result: r.result, reason: r.detail })),
    result: results.some((r) => r.result === "conflict") ? "partial" : "ok",
  });
  return results;
}

/** Where an item's trashed copy is, if anywhere, and whether its original path is occupied. */
export function whereIs(entry: TrashEntry, env: NodeJS.ProcessEnv) {
  const atOrigin = pathExists(entry.originalPath);
  if (entry.location) return { atOrigin, trashed: pathExists(entry.location) ? entry.location : undefined };
  // Our own move into the home trash: the name was journaled before it.
  if (entry.trashName) {
    const { location, trashInfo } = homeTrashPaths(entry.trashName, env);
    if (pathExists(location)) return { atOrigin, trashed: location, trashInfo };
  }
  // A system-trash move whose outcome was not written: the trash chose the name; find it by Path=.
  const found = findInSystemTrash(entry.originalPath, env).find((f) => f.fileExists);
  return { atOrigin, trashed: found?.location, trashInfo: found?.trashInfo };
}

/**
 * A killed move can leave a `.trashinfo` without its file: ours (moveToHomeTrash) is created, empty
 * or whole, before the rename; the `trash` package's too. Only those we can prove ours go: the one
 * under the name the journal holds for this entry, and those naming this entry's path. An empty one
 * under another name could be anyone's — another program may be writing it this very moment.
 */
function removeOrphanTrashInfo(entry: TrashEntry, env: NodeJS.ProcessEnv) {
  for (const orphan of findInSystemTrash(entry.originalPath, env).filter((f) => !f.fileExists))
    rmSync(orphan.trashInfo, { force: true });
  if (entry.trashName) {
    const { location, trashInfo } = homeTrashPaths(entry.trashName, env);
    if (!pathExists(location)) rmSync(trashInfo, { force: true });
  }
}

/**
 * What a crash left of one entry, made definite. Exported for a failed restore, which ends the same
 * way. `crash` is the crash harness's hook (a crash in recovery must lose nothing either). It never
 * throws: an entry it cannot settle — a part it may not move — becomes a conflict that says which
 * path and how to put it right, and every other entry, and every other operation, goes on.
 */
export function resolveOpen(
  entry: TrashEntry,
  ledger: Ledger,
  env: NodeJS.ProcessEnv,
  crash: (step: string) => void = () => {},
): Recovery {
  try {
    return settleOpen(entry, ledger, env, crash);
  } catch (error) {
    return markStuck(entry, ledger, env, error);
  }
}

/**
 * An entry whose parts could not all be put in one place (`error`: the step that failed), recorded
 * as a conflict whose sentence names the path in the way and the fix, then the restore to run.
 */
export function markStuck(
  entry: TrashEntry,
  ledger: Ledger,
  env: NodeJS.ProcessEnv,
  error: unknown,
): Recovery {
  const detail = stuckSentence(entry, env, error);
  const { seq } = parseEntryId(entry.entryId)!;
  try {
    ledger.append([{ seq, event: "conflict", reason: detail, ...whereItIs(entry, env) }]);
  } catch {
    // The ledger cannot be written either: the entry stays open, and is said here.
  }
  return { entryId: entry.entryId, id: entry.id, path: entry.originalPath, result: "conflict", detail };
}

/** Where an entry's own copy is in the trash, as a conflict records it (for a later restore). */
function whereItIs(entry: TrashEntry, env: NodeJS.ProcessEnv) {
  try {
    const { trashed, trashInfo } = whereIs(entry, env);
    if (!trashed) return {};
    return {
      location: trashed,
      ...((trashInfo ?? entry.trashInfo) ? { trashInfo: (trashInfo ?? entry.trashInfo)! } : {}),
      ...identityAfterMove(trashed, entry),
    };
  } catch {
    return {};
  }
}

/**
 * An entry recovery could not settle, in a sentence: the first part that may not be put back
 * where it was (probed now), with the fix, then the restore that finishes the job — or, when no
 * right is missing, the error itself.
 */
function stuckSentence(entry: TrashEntry, env: NodeJS.ProcessEnv, error: unknown): string {
  let refusal: Refusal | undefined;
  try {
    const location = whereIs(entry, env).trashed;
    const back = [
      ...(location ? [{ from: location, to: entry.originalPath }] : []),
      ...entry.sidecars.map((s) => ({ from: s.to, to: s.from })),
    ];
    const away = entry.sidecars.map((s) => ({ from: s.from, to: s.to }));
    for (const { from, to } of [...back, ...away])
      if (!refusal && pathExists(from) && !pathExists(to)) refusal = moveRefusalNow(from, to);
  } catch {
    // Not even a look is possible (a folder on the way may not be entered): the error says it.
  }
  const why = refusal
    ? `${refusal.problem}; run \`${refusal.fix}\`, then`
    : `${(error as Error).message}; once that is put right, run`;
  return `interrupted half-way, and neither finished nor undone: ${why} \`session-retention trash restore ${entry.entryId}\` to put every part back where it was`;
}

/** `resolveOpen`'s work; a step that fails throws. */
function settleOpen(
  entry: TrashEntry,
  ledger: Ledger,
  env: NodeJS.ProcessEnv,
  crash: (step: string) => void,
): Recovery {
  const { seq } = parseEntryId(entry.entryId)!;
  const { atOrigin, trashed, trashInfo } = whereIs(entry, env);
  const base = { entryId: entry.entryId, id: entry.id, path: entry.originalPath };
  const conflict = (detail: string): Recovery => {
    ledger.append([{ seq, event: "conflict", reason: detail, ...whereItIs(entry, env) }]);
    return { ...base, result: "conflict", detail };
  };
  const gone = (detail: string): Recovery => {
    ledger.append([{ seq, event: "gone", reason: detail }]);
    return { ...base, result: "gone", detail };
  };
  const custody = custodyFor({ store: { kind: entry.storeKind }, path: entry.originalPath });
  if (entry.state === "moving" && custody && entry.location) {
    // Our copy is a hard link taken while the session is still in the store: both being there is
    // the normal half-way state, judged by whether its agent had deleted anything yet.
    if (recoverHandOver(entry, custody, env) === "rolled-back") {
      ledger.append([
        { seq, event: "not-moved", reason: `interrupted before ${agent(entry)} deleted it; left in place` },
      ]);
      return {
        ...base,
        result: "rolled-back",
        detail: `${agent(entry)} had not deleted it; the session is in place`,
      };
    }
    if (!trashed) return gone("neither the original nor our copy was found");
    ledger.append([{ seq, event: "moved", location: trashed, ...identityAfterMove(trashed, entry) }]);
    return {
      ...base,
      result: "finished",
      detail: `${agent(entry)} had deleted it; the session is in the trash at ${trashed}`,
    };
  }
  if (entry.state === "moving") {
    if (atOrigin && !trashed) {
      if (entry.target === "system-trash") removeOrphanTrashInfo(entry, env);
      moveSidecars(entry, "back", crash);
      // As after a whole operation: the quarantine folders its parts went through go once empty.
      removeEmptiedFolders(entry);
      ledger.append([{ seq, event: "not-moved", reason: "interrupted before the move; left in place" }]);
      return { ...base, result: "rolled-back", detail: "the move never happened; the session is in place" };
    }
    if (!atOrigin && trashed) {
      try {
        moveSidecars(entry, "away", crash);
      } catch (error) {
        // A part may not follow (a folder owned by root): whole in place, then, if it can be.
        moveBack(entry, trashed, trashInfo ?? entry.trashInfo, crash);
        const reason = `not moved: ${unmovable(entry) ?? (error as Error).message}; every part of it is where it was`;
        ledger.append([{ seq, event: "not-moved", reason }]);
        return { ...base, result: "rolled-back", detail: reason };
      }
      ledger.append([
        {
          seq,
          event: "moved",
          location: trashed,
          ...((trashInfo ?? entry.trashInfo) ? { trashInfo: (trashInfo ?? entry.trashInfo)! } : {}),
          ...identityAfterMove(trashed, entry),
        },
      ]);
      return {
        ...base,
        result: "finished",
        detail: `the move had happened; the session is in the trash at ${trashed}`,
      };
    }
    return atOrigin
      ? conflict(`both the original and a trashed copy (${trashed}) exist; kept both`)
      : gone("neither the original nor a trashed copy was found: it was removed outside session-retention");
  }
  if (entry.state === "restoring") {
    if (atOrigin && !trashed) {
      moveSidecars(entry, "back", crash);
      const names = putIndexBack(entry);
      if (entry.trashInfo) rmSync(entry.trashInfo, { force: true });
      // What restoreOne does after the move: without it, a restore killed between a bundle's parts
      // left its emptied `<n>.sidecars/` folders in the quarantine for good, named by no entry —
      // indistinguishable there from a part left behind (found by the bundle crash harness).
      removeEmptiedFolders(entry);
      ledger.append([{ seq, event: "restored" }]);
      return {
        ...base,
        result: "finished",
        detail: `the restore had happened${names ? `; ${names}` : ""}`,
      };
    }
    if (!atOrigin && trashed) {
      // The restore of an entry left half moved (a conflict put back part by part): still half.
      const inPlace = entry.sidecars.find((s) => pathExists(s.from));
      if (inPlace)
        return markStuck(
          entry,
          ledger,
          env,
          new Error(`its restore was interrupted (${inPlace.from} is in place)`),
        );
      ledger.append([
        { seq, event: "in-trash", reason: "restore interrupted before the move; still in the trash" },
      ]);
      return { ...base, result: "rolled-back", detail: "the restore never happened; still in the trash" };
    }
    return atOrigin
      ? conflict("both the original and the trashed copy exist; kept both")
      : gone(
          "gone from the trash: neither the original nor the trashed copy is there (the trash was emptied, or it was removed outside session-retention)",
        );
  }
  // purging
  if (!trashed) {
    removeSidecars(entry);
    if (entry.trashInfo) rmSync(entry.trashInfo, { force: true });
    removeEmptiedFolders(entry);
    ledger.append([{ seq, event: "purged" }]);
    return { ...base, result: "finished", detail: "the purge had happened" };
  }
  ledger.append([{ seq, event: "in-trash", reason: "purge interrupted; still in the trash" }]);
  return { ...base, result: "rolled-back", detail: "the purge never happened; still in the trash" };
}

/** The agent an entry's store belongs to, by name. */
const agent = (entry: TrashEntry) => AGENT_LABELS[entry.storeKind];

/** The first part of an entry still in place that may not be moved away, with the fix; else undefined. */
function unmovable(entry: TrashEntry): string | undefined {
  for (const { from, to } of entry.sidecars) {
    const refusal = pathExists(from) && !pathExists(to) ? moveRefusalNow(from, to) : undefined;
    if (refusal) return `${refusal.problem}; run \`${refusal.fix}\` and try again`;
  }
  return undefined;
}
