// The deletion engine: soft delete, restore, purge and crash recovery, all under one lock and the
// trash ledger. It executes selections of session ids against a fresh look at the disk — never
// paths from a client — and re-checks, just before each move, that the file is the one the preview
// showed and that nothing now protects it.
import { rmdirSync, rmSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { AuditEntry, AuditItem } from "../../shared/audit.js";
import type { Config } from "../../shared/config.js";
import { emptiesStore } from "../../shared/policy.js";
import { type Fingerprint, isFolderStore, type SessionRecord } from "../../shared/session-record.js";
import type {
  Recovery,
  SoftDeleteResult,
  TrashActionResult,
  TrashEntry,
  TrashItem,
} from "../../shared/trash.js";
import { resolveTrashRefs } from "../../shared/trash.js";
import { exemptionsOf, gatherPlanInputs } from "../plan/plan-inputs.js";
import type { FolderStore } from "../scan/resolve-roots.js";
import { UserError } from "../errors.js";
import { appendAudit } from "../state/audit-log.js";
import type { LoadConfigOptions } from "../state/config-file.js";
import { acquireLock } from "../state/lock-file.js";
import { statePaths } from "../state/state-dir.js";
import { expandTilde } from "../stores/pi/locations.js";
import {
  currentFingerprint,
  findInSystemTrash,
  moveFile,
  moveToSystemTrash,
  pathExists,
  unchanged,
} from "./movers.js";
import { Ledger, type LedgerWrite, newOperationId, parseEntryId, readLedgers } from "./trash-ledger.js";

/** What the engine needs to know about something it moves: a session, or an orphaned index file. */
type MoveTarget = Pick<SessionRecord, "id" | "path" | "namespace" | "store" | "sizeBytes" | "metaFile">;

/** How many intents are made durable with one fsync before their files move. */
const BATCH = 64;

export interface EngineOptions {
  /** Where the change comes from, for the audit log. */
  actor: AuditEntry["actor"];
  env?: NodeJS.ProcessEnv;
  now?: () => Date;
  /**
   * Test hook for the crash harness: called at each step where a crash must lose nothing
   * ("intent-written", "moved", "verified"…). Production code never sets it.
   */
  crashPoint?: (step: string) => void;
  /** Test hook: how the ledger writes (a full disk is injected here). */
  ledgerWrite?: LedgerWrite;
}

function engineState(options: EngineOptions) {
  const env = options.env ?? process.env;
  const paths = statePaths(env);
  const home = env.HOME ?? "";
  return {
    env,
    paths,
    ledgerDir: join(paths.dir, "trash"),
    lockFile: join(paths.dir, "deletion.lock"),
    now: options.now ?? (() => new Date()),
    crash: options.crashPoint ?? (() => {}),
    quarantineDirOf: (config: Config) =>
      config.deletion.quarantineDir ? expandTilde(config.deletion.quarantineDir, home) : paths.quarantine,
  };
}

/** Runs `work` holding the deletion lock, after recovering what a crash may have left. */
async function exclusive<T extends object>(
  options: EngineOptions,
  work: () => Promise<T>,
): Promise<T & { recovered: Recovery[] }> {
  const state = engineState(options);
  const release = acquireLock(state.lockFile);
  try {
    const recovered = recoverLocked(options);
    return { ...(await work()), recovered };
  } finally {
    release();
  }
}

// ───────────────────────────── recovery ─────────────────────────────

/** Resolves every intent a crash left open; conflicts (both copies, or neither) are reported, never guessed. */
export function recover(options: EngineOptions): Recovery[] {
  const state = engineState(options);
  const release = acquireLock(state.lockFile);
  try {
    return recoverLocked(options);
  } finally {
    release();
  }
}

function recoverLocked(options: EngineOptions): Recovery[] {
  const state = engineState(options);
  const open = readLedgers(state.ledgerDir).entries.filter(
    (e) => e.state === "moving" || e.state === "restoring" || e.state === "purging",
  );
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
      for (const entry of entries) results.push(resolve(entry, ledger, state.env));
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

function resolve(entry: TrashEntry, ledger: Ledger, env: NodeJS.ProcessEnv): Recovery {
  const { seq } = parseEntryId(entry.entryId)!;
  const { atOrigin, trashed, trashInfo } = whereIs(entry, env);
  const base = { entryId: entry.entryId, id: entry.id, path: entry.originalPath };
  const conflict = (detail: string): Recovery => {
    ledger.append([{ seq, event: "conflict", reason: detail }]);
    return { ...base, result: "conflict", detail };
  };
  if (entry.state === "moving") {
    if (atOrigin && !trashed) {
      // The `trash` package writes the .trashinfo before it moves: drop one left without a file.
      for (const orphan of findInSystemTrash(entry.originalPath, env).filter((f) => !f.fileExists))
        rmSync(orphan.trashInfo, { force: true });
      moveSidecars(entry, "back");
      ledger.append([{ seq, event: "not-moved", reason: "interrupted before the move; left in place" }]);
      return { ...base, result: "rolled-back", detail: "the move never happened; the session is in place" };
    }
    if (!atOrigin && trashed) {
      moveSidecars(entry, "away");
      ledger.append([
        {
          seq,
          event: "moved",
          location: trashed,
          ...((trashInfo ?? entry.trashInfo) ? { trashInfo: (trashInfo ?? entry.trashInfo)! } : {}),
        },
      ]);
      return {
        ...base,
        result: "finished",
        detail: `the move had happened; the session is in the trash at ${trashed}`,
      };
    }
    return conflict(
      atOrigin
        ? `both the original and a trashed copy (${trashed}) exist; kept both`
        : "neither the original nor a trashed copy was found",
    );
  }
  if (entry.state === "restoring") {
    if (atOrigin && !trashed) {
      moveSidecars(entry, "back");
      if (entry.trashInfo) rmSync(entry.trashInfo, { force: true });
      ledger.append([{ seq, event: "restored" }]);
      return { ...base, result: "finished", detail: "the restore had happened" };
    }
    if (!atOrigin && trashed) {
      ledger.append([
        { seq, event: "in-trash", reason: "restore interrupted before the move; still in the trash" },
      ]);
      return { ...base, result: "rolled-back", detail: "the restore never happened; still in the trash" };
    }
    return conflict(
      atOrigin ? "both the original and the trashed copy exist; kept both" : "neither copy was found",
    );
  }
  // purging
  if (!trashed) {
    removeSidecars(entry);
    if (entry.trashInfo) rmSync(entry.trashInfo, { force: true });
    ledger.append([{ seq, event: "purged" }]);
    return { ...base, result: "finished", detail: "the purge had happened" };
  }
  ledger.append([{ seq, event: "in-trash", reason: "purge interrupted; still in the trash" }]);
  return { ...base, result: "rolled-back", detail: "the purge never happened; still in the trash" };
}

function moveSidecars(item: TrashItem, direction: "away" | "back") {
  for (const sidecar of item.sidecars) {
    const [from, to] = direction === "away" ? [sidecar.from, sidecar.to] : [sidecar.to, sidecar.from];
    if (pathExists(from) && !pathExists(to)) moveFile(from, to);
  }
}

function removeSidecars(item: TrashItem) {
  for (const sidecar of item.sidecars) rmSync(sidecar.to, { force: true });
}

/**
 * After a restore or a purge: the quarantine folders that held only this item go (its sidecar
 * folder, then its operation's folder once it holds nothing else). rmdir removes only an empty
 * folder, so anything still there stays.
 */
function removeEmptiedFolders(item: TrashItem) {
  const sidecarFolders = item.sidecars.map((s) => dirname(s.to));
  const operationFolders = [
    ...(item.target === "quarantine" && item.location ? [dirname(item.location)] : []),
    ...sidecarFolders.map((folder) => dirname(folder)),
  ];
  for (const folder of new Set([...sidecarFolders, ...operationFolders])) {
    try {
      rmdirSync(folder);
    } catch {
      // Not empty (or gone already): nothing to tidy.
    }
  }
}

// ───────────────────────────── soft delete ─────────────────────────────

export interface SoftDeleteRequest {
  /** The sessions to move, each with the fingerprint its preview showed (when there was a preview). */
  items: ReadonlyArray<{ id: string; fingerprint?: Fingerprint }>;
  config: Config;
  configOptions?: LoadConfigOptions;
  /** The stores the ids were found in: pi roots, and stores whose sessions are folders. */
  roots: readonly string[];
  folderStores?: readonly FolderStore[];
  dryRun?: boolean;
  /** Orphaned pi session-index files (by path, as the plan listed them) to move as well. */
  orphanedMeta?: readonly string[];
  /** Recorded in the audit log: a policy's plan, a hand selection, an auto-clean. */
  via: "policy" | "selection" | "auto-clean";
}

export async function softDelete(
  request: SoftDeleteRequest,
  options: EngineOptions,
): Promise<SoftDeleteResult> {
  return exclusive(options, async () => {
    const state = engineState(options);
    const now = state.now();
    // A fresh look: the ids are resolved against this scan, never taken as paths.
    if (request.roots.length === 0 && (request.folderStores ?? []).length === 0)
      throw new UserError("no store to delete from");
    const inputs = await gatherPlanInputs({
      flagRoots: [...request.roots],
      flagStores: (request.folderStores ?? []).map((s) => `${s.kind}:${s.root}`),
      env: state.env,
      ...(request.configOptions ? { config: request.configOptions } : {}),
    });
    const sessions = inputs.report.sessions;
    const byId = new Map(sessions.map((s) => [s.id, s]));
    const exempt = exemptionsOf(inputs, request.config, now);
    const result: SoftDeleteResult = { dryRun: !!request.dryRun, moved: [], skipped: [], bytesFreed: 0 };
    const chosen: Array<{ record: MoveTarget; fingerprint: Fingerprint }> = [];
    for (const { id, fingerprint } of request.items) {
      const record = byId.get(id);
      const why = exempt.get(id);
      if (!record) result.skipped.push({ id, reason: "not found in the store (already gone?)" });
      else if (why) result.skipped.push({ id, path: record.path, reason: `${why.reason}: ${why.detail}` });
      else if (record.warnings.some((w) => w.code === "non-utf8-name"))
        result.skipped.push({
          id,
          path: record.path,
          reason: "its file name is not valid UTF-8; rename it first",
        });
      else if (fingerprint && !unchanged(fingerprint, record.fingerprint))
        result.skipped.push({ id, path: record.path, reason: "changed since preview" });
      else if (!chosen.some((c) => c.record.id === id))
        chosen.push({ record, fingerprint: fingerprint ?? record.fingerprint });
    }
    // Session-index files whose session is gone: only those the fresh scan still finds orphaned.
    const orphans = new Map((inputs.report.orphanedMeta ?? []).map((o) => [o.path, o]));
    for (const path of request.orphanedMeta ?? []) {
      const orphan = orphans.get(path);
      const fingerprint = currentFingerprint(path);
      if (!orphan || !fingerprint)
        result.skipped.push({
          id: `meta:${basename(path)}`,
          path,
          reason: "not an orphaned session-index file (any more)",
        });
      else
        chosen.push({
          record: {
            id: `meta:${orphan.sessionId}`,
            path,
            namespace: "(pi session index)",
            store: { kind: "pi", root: dirname(path) },
            sizeBytes: orphan.sizeBytes,
          },
          fingerprint,
        });
    }
    const refusal = emptiesStore(
      sessions,
      new Set(chosen.map((c) => c.record.id)),
      request.config.retention.allowEmptyStore,
    );
    if (refusal) {
      audit(state, options, request, result, "refused", refusal.message);
      return { ...result, refused: refusal.message };
    }
    if (request.dryRun || chosen.length === 0) {
      for (const { record } of chosen)
        result.moved.push({
          id: record.id,
          path: record.path,
          bytes: record.sizeBytes,
          destination: "(dry run)",
          target: "quarantine",
        });
      if (request.dryRun) audit(state, options, request, result, "dry-run");
      return result;
    }

    const operationId = newOperationId(now);
    result.operationId = operationId;
    const quarantine = join(state.quarantineDirOf(request.config), operationId);
    const ledger = Ledger.create(state.ledgerDir, operationId, options.ledgerWrite);
    try {
      for (let start = 0; start < chosen.length; start += BATCH) {
        const batch = chosen
          .slice(start, start + BATCH)
          .map(({ record, fingerprint }, i): TrashItem & { seq: number } => {
            const seq = start + i + 1;
            // The session's pi session-index file, found by the scan's join.
            const sidecar = record.metaFile;
            return {
              seq,
              id: record.id,
              originalPath: record.path,
              namespace: record.namespace,
              storeRoot: record.store.root,
              storeKind: record.store.kind,
              sizeBytes: record.sizeBytes,
              fingerprint,
              ...(request.config.deletion.target === "quarantine"
                ? {
                    target: "quarantine" as const,
                    location: join(quarantine, `${seq}-${basename(record.path)}`),
                  }
                : { target: "system-trash" as const }),
              sidecars:
                sidecar && pathExists(sidecar)
                  ? [{ from: sidecar, to: join(quarantine, `${seq}.sidecars`, basename(sidecar)) }]
                  : [],
              deletedAt: now.toISOString(),
            };
          });
        try {
          ledger.append(batch.map(({ seq, ...item }) => ({ seq, event: "intent" as const, item })));
          state.crash("intents-written");
          ledger.sync();
        } catch (error) {
          // No intent, no move. A ledger that never got a whole intent is removed, so nothing stray is left.
          if (start === 0) {
            ledger.close();
            rmSync(ledger.file, { force: true });
          }
          throw new UserError(
            `could not write the deletion journal (${(error as Error).message}); ${start === 0 ? "nothing was moved" : `${result.moved.length} sessions were moved before it`}`,
          );
        }
        state.crash("intents-synced");
        for (const item of batch) await moveOne(item, quarantine, ledger, result, state);
        ledger.sync();
      }
    } finally {
      if (pathExists(ledger.file)) ledger.close();
    }
    audit(state, options, request, result, result.skipped.length > 0 ? "partial" : "ok");
    return result;
  });
}

async function moveOne(
  item: TrashItem & { seq: number },
  quarantine: string,
  ledger: Ledger,
  result: SoftDeleteResult,
  state: ReturnType<typeof engineState>,
) {
  const { seq } = item;
  // The last look before the move: the same file (dev, inode, size, mtime ns), not a symlink.
  const folder = isFolderStore(item.storeKind);
  if (!unchanged(item.fingerprint, currentFingerprint(item.originalPath, folder))) {
    ledger.append([{ seq, event: "not-moved", reason: "changed since preview" }]);
    result.skipped.push({ id: item.id, path: item.originalPath, reason: "changed since preview" });
    return;
  }
  let location: string;
  let trashInfo: string | undefined;
  let target = item.target;
  try {
    if (item.target === "system-trash") {
      try {
        ({ location, trashInfo } = await moveToSystemTrash(
          item.originalPath,
          item.sizeBytes,
          state.env,
          folder,
        ));
      } catch (error) {
        if (!pathExists(item.originalPath)) throw error;
        // The system trash is not usable here (no home trash, a mount's top dir not writable, a
        // name it cannot encode): the quarantine takes the file instead, under a new intent.
        target = "quarantine";
        location = join(quarantine, `${seq}-${basename(item.originalPath)}`);
        ledger.append([{ seq, event: "intent", item: { ...withoutSeq(item), target, location } }]);
        ledger.sync();
        moveFile(item.originalPath, location);
      }
    } else {
      location = item.location!;
      moveFile(item.originalPath, location);
    }
    state.crash("moved");
    if (currentFingerprint(location, folder)?.size !== item.sizeBytes)
      throw new Error(`the moved copy at ${location} has the wrong size`);
    for (const sidecar of item.sidecars) moveFile(sidecar.from, sidecar.to);
    ledger.append([{ seq, event: "moved", location, ...(trashInfo ? { trashInfo } : {}) }]);
    state.crash("recorded");
  } catch (error) {
    // Whatever happened is left for recovery to resolve from the disk; the intent stays open.
    result.skipped.push({
      id: item.id,
      path: item.originalPath,
      reason: `move failed: ${(error as Error).message}`,
    });
    return;
  }
  result.moved.push({
    id: item.id,
    path: item.originalPath,
    bytes: item.sizeBytes,
    destination: location,
    target,
  });
  result.bytesFreed += item.sizeBytes;
}

const withoutSeq = ({ seq: _seq, ...item }: TrashItem & { seq: number }): TrashItem => item;

function audit(
  state: ReturnType<typeof engineState>,
  options: EngineOptions,
  request: SoftDeleteRequest,
  result: SoftDeleteResult,
  outcome: AuditEntry["result"],
  detail?: string,
) {
  const items: AuditItem[] = [
    ...result.moved.map((m) => ({
      id: m.id,
      path: m.path,
      bytes: m.bytes,
      destination: m.destination,
      result: request.dryRun ? "would-move" : "moved",
    })),
    ...result.skipped.map((s) => ({ id: s.id, path: s.path ?? "", result: "skipped", reason: s.reason })),
  ];
  appendAudit(state.paths.auditLog, {
    time: state.now().toISOString(),
    actor: options.actor,
    action: request.via === "auto-clean" ? "auto-clean" : "soft-delete",
    mode: request.dryRun
      ? "dry-run"
      : request.config.deletion.target === "trash"
        ? "system-trash"
        : "quarantine",
    ...(result.operationId ? { operationId: result.operationId } : {}),
    items,
    bytes: result.bytesFreed,
    result: outcome,
    detail: detail ?? `via ${request.via}`,
  });
}

// ───────────────────────────── the trash: list, restore, purge ─────────────────────────────

export function listTrash(options: EngineOptions) {
  return readLedgers(engineState(options).ledgerDir);
}

/** The one entry a ref names (see `resolveTrashRefs`); an operation of several is named entry by entry. */
function pick(entries: readonly TrashEntry[], ref: string): TrashEntry | string {
  const { entries: named, problems } = resolveTrashRefs(entries, [ref]);
  if (problems.length > 0) return problems[0]!;
  if (named.length === 1) return named[0]!;
  return `${ref} names ${named.length} entries; name them one by one (${named.map((e) => e.entryId).join(", ")})`;
}

export async function restore(refs: readonly string[], options: EngineOptions): Promise<TrashActionResult> {
  return exclusive(options, async () => {
    const state = engineState(options);
    const { entries } = readLedgers(state.ledgerDir);
    const result: TrashActionResult = { done: [], skipped: [] };
    for (const ref of refs) {
      const entry = pick(entries, ref);
      if (typeof entry === "string") result.skipped.push({ ref, reason: entry });
      else if (entry.state !== "in-trash")
        result.skipped.push({ ref, reason: `it is ${entry.state}, not in the trash` });
      else if (pathExists(entry.originalPath))
        result.skipped.push({
          ref,
          reason: `conflict: ${entry.originalPath} exists again; kept both (the trashed copy stays)`,
          pathTaken: true,
        });
      else {
        const { operationId, seq } = parseEntryId(entry.entryId)!;
        const ledger = Ledger.reopen(state.ledgerDir, operationId);
        try {
          ledger.append([{ seq, event: "restore-intent" }]);
          ledger.sync();
          state.crash("restore-intent-synced");
          moveFile(entry.location!, entry.originalPath);
          state.crash("restored");
          moveSidecars(entry, "back");
          if (entry.trashInfo) rmSync(entry.trashInfo, { force: true });
          ledger.append([{ seq, event: "restored" }]);
          ledger.sync();
          removeEmptiedFolders(entry);
          result.done.push({
            entryId: entry.entryId,
            id: entry.id,
            path: entry.originalPath,
            bytes: entry.sizeBytes,
          });
        } catch (error) {
          result.skipped.push({ ref, reason: `restore failed: ${(error as Error).message}` });
        } finally {
          ledger.close();
        }
      }
    }
    trashAudit(state, options, "restore", result);
    return result;
  });
}

/** What exactly a purge of these refs would remove, for the confirmation that must echo it. */
export function purgeSelection(refs: readonly string[], options: EngineOptions) {
  const named = resolveTrashRefs(readLedgers(engineState(options).ledgerDir).entries, refs);
  const selected = named.entries.filter((e) => e.state === "in-trash");
  const problems = [
    ...named.problems,
    ...named.entries
      .filter((e) => e.state !== "in-trash")
      .map((e) => `${e.entryId} is ${e.state}, not in the trash`),
  ];
  return { selected, problems, count: selected.length, bytes: selected.reduce((t, e) => t + e.sizeBytes, 0) };
}

/** Hard delete of soft-deleted items only, and only when `confirm` is exactly "COUNT:BYTES" of what goes. */
export async function purge(
  refs: readonly string[],
  confirm: string,
  options: EngineOptions,
): Promise<TrashActionResult> {
  return exclusive(options, async () => {
    const state = engineState(options);
    const { selected, problems, count, bytes } = purgeSelection(refs, options);
    if (problems.length > 0) return { done: [], skipped: [], refused: problems.join("; ") };
    if (confirm !== `${count}:${bytes}`)
      return {
        done: [],
        skipped: [],
        refused: `the confirmation must be ${count}:${bytes} (count:bytes of exactly what will be purged), got "${confirm}"`,
      };
    const result: TrashActionResult = { done: [], skipped: [] };
    for (const entry of selected) {
      const { operationId, seq } = parseEntryId(entry.entryId)!;
      const ledger = Ledger.reopen(state.ledgerDir, operationId);
      try {
        ledger.append([{ seq, event: "purge-intent" }]);
        ledger.sync();
        // Hard delete of what is already in the trash; a folder session goes as a whole.
        rmSync(entry.location!, { force: true, recursive: isFolderStore(entry.storeKind) });
        removeSidecars(entry);
        if (entry.trashInfo) rmSync(entry.trashInfo, { force: true });
        ledger.append([{ seq, event: "purged" }]);
        ledger.sync();
        removeEmptiedFolders(entry);
        result.done.push({
          entryId: entry.entryId,
          id: entry.id,
          path: entry.originalPath,
          bytes: entry.sizeBytes,
        });
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

function trashAudit(
  state: ReturnType<typeof engineState>,
  options: EngineOptions,
  action: "restore" | "purge",
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
        bytes: d.bytes,
        result: action === "restore" ? "restored" : "purged",
      })),
      ...result.skipped.map((s) => ({ id: s.ref, path: "", result: "skipped", reason: s.reason })),
    ],
    bytes: result.done.reduce((t, d) => t + d.bytes, 0),
    result: result.skipped.length > 0 ? (result.done.length > 0 ? "partial" : "failed") : "ok",
  });
}
