// Crash recovery: every intent a crash (or a failure) left without an outcome is resolved from what
// is on disk, under the deletion lock, before any other operation — and when the dashboard starts.
// Both copies present is a conflict (reported, never guessed); no trashed copy at all is "gone from
// the trash" — a definite state that becomes restorable again if the copy ever comes back.
import { readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { parseEntryId, type Recovery, type TrashEntry } from "../../shared/trash.js";
import { appendAudit } from "../state/audit-log.js";
import { acquireLock } from "../fs/lock-file.js";
import { type EngineOptions, engineState } from "./engine.js";
import { deletedByCodex, putIndexBack, recoverCodexMove } from "./codex-move.js";
import { findInSystemTrash, homeTrashDir, pathExists } from "./movers.js";
import { identityAfterMove, moveSidecars, removeEmptiedFolders, removeSidecars } from "./trashed-copy.js";
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
    const ledger = Ledger.reopen(state.ledgerDir, operationId);
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
function whereIs(entry: TrashEntry, env: NodeJS.ProcessEnv) {
  const atOrigin = pathExists(entry.originalPath);
  if (entry.location) return { atOrigin, trashed: pathExists(entry.location) ? entry.location : undefined };
  // A system-trash move whose outcome was not written: the trash chose the name; find it by Path=.
  const found = findInSystemTrash(entry.originalPath, env).find((f) => f.fileExists);
  return { atOrigin, trashed: found?.location, trashInfo: found?.trashInfo };
}

/** How long the `trash` package may take between writing its .trashinfo and the move. */
const TRASHINFO_WINDOW_MS = 60_000;

/**
 * The `trash` package creates `<uuid>.trashinfo` and only then writes it and moves the file: a
 * kill in between leaves an empty one (no `Path=`, so no search finds it) or a full one without
 * its file. Ours are those of this entry's path, and the empty ones made while its operation ran.
 */
function removeOrphanTrashInfo(entry: TrashEntry, ledgerFile: string, env: NodeJS.ProcessEnv) {
  for (const orphan of findInSystemTrash(entry.originalPath, env).filter((f) => !f.fileExists))
    rmSync(orphan.trashInfo, { force: true });
  const trash = homeTrashDir(env);
  const from = Date.parse(entry.deletedAt) - 1000;
  const until = statSync(ledgerFile).mtimeMs + TRASHINFO_WINDOW_MS;
  let names: string[];
  try {
    names = readdirSync(join(trash, "info"));
  } catch {
    return;
  }
  for (const name of names) {
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.trashinfo$/.test(name)) continue;
    const info = join(trash, "info", name);
    const stat = statSync(info, { throwIfNoEntry: false });
    if (!stat?.isFile() || stat.size !== 0 || stat.mtimeMs < from || stat.mtimeMs > until) continue;
    if (!pathExists(join(trash, "files", name.slice(0, -".trashinfo".length)))) rmSync(info, { force: true });
  }
}

/**
 * What a crash left of one entry, made definite. Exported for a failed restore, which ends the same
 * way. `crash` is the crash harness's hook (a crash in recovery must lose nothing either).
 */
export function resolveOpen(
  entry: TrashEntry,
  ledger: Ledger,
  env: NodeJS.ProcessEnv,
  crash: (step: string) => void = () => {},
): Recovery {
  const { seq } = parseEntryId(entry.entryId)!;
  const { atOrigin, trashed, trashInfo } = whereIs(entry, env);
  const base = { entryId: entry.entryId, id: entry.id, path: entry.originalPath };
  const conflict = (detail: string): Recovery => {
    ledger.append([{ seq, event: "conflict", reason: detail }]);
    return { ...base, result: "conflict", detail };
  };
  const gone = (detail: string): Recovery => {
    ledger.append([{ seq, event: "gone", reason: detail }]);
    return { ...base, result: "gone", detail };
  };
  const byCodex = deletedByCodex({ store: { kind: entry.storeKind }, path: entry.originalPath });
  if (entry.state === "moving" && byCodex && entry.location) {
    // Our copy is a hard link taken while the rollout is still in the store: both being there is
    // the normal half-way state, judged by whether Codex had deleted anything yet.
    if (recoverCodexMove(entry, env) === "rolled-back") {
      ledger.append([
        { seq, event: "not-moved", reason: "interrupted before Codex deleted it; left in place" },
      ]);
      return { ...base, result: "rolled-back", detail: "Codex had not deleted it; the session is in place" };
    }
    if (!trashed) return gone("neither the original nor our copy was found");
    ledger.append([{ seq, event: "moved", location: trashed, ...identityAfterMove(trashed, entry) }]);
    return {
      ...base,
      result: "finished",
      detail: `Codex had deleted it; the session is in the trash at ${trashed}`,
    };
  }
  if (entry.state === "moving") {
    if (atOrigin && !trashed) {
      if (entry.target === "system-trash") removeOrphanTrashInfo(entry, ledger.file, env);
      moveSidecars(entry, "back", crash);
      // As after a whole operation: the quarantine folders its parts went through go once empty.
      removeEmptiedFolders(entry);
      ledger.append([{ seq, event: "not-moved", reason: "interrupted before the move; left in place" }]);
      return { ...base, result: "rolled-back", detail: "the move never happened; the session is in place" };
    }
    if (!atOrigin && trashed) {
      moveSidecars(entry, "away", crash);
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
