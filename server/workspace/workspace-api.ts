// The sandbox workspace pruning API, as a library: record a workspace's creation and activity
// in `.metadata.json`, repair it from file times, and prune workspaces idle for longer than a
// threshold — through the same guarded deletion as `clean` (soft delete, journal, audit).
import { lstatSync, readdirSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import type { Config } from "../../shared/config.js";
import { exemptions } from "../../shared/policy.js";
import { softDelete } from "../delete/deletion-engine.js";
import { UserError } from "../errors.js";
import { checkRoot } from "../scan/check-root.js";
import { gatherPlanInputs } from "../plan/plan-inputs.js";
import { writeFileAtomic } from "../fs/atomic-write.js";
import { describeInvalidConfig, type LoadConfigOptions } from "../config/config-file.js";
import { gateStoreWrites } from "../config/write-gate.js";
import { pinnedIds } from "../state/protection-list.js";
import {
  METADATA_FILE,
  readWorkspaceMetadata,
  type WorkspaceMetadata,
} from "../stores/workspace/workspace-store.js";
import { workspaceAdapter } from "../stores/workspace/adapter.js";

/** Where a metadata writer reads its config (read-only mode) from; default: the default config file. */
export interface MetadataWriteOptions {
  /** The config file and overrides: while it is invalid, nothing is written (ReadOnlyError). */
  config?: LoadConfigOptions;
  env?: NodeJS.ProcessEnv;
}

/**
 * The workspace folder `dir` names, through the write gate: the config is valid, and the folder is
 * a workspace — never `/`, home or above it, a system folder, a symlink, nor in a store root the
 * place gate refuses (home, the trash, another agent's store…). Its real path.
 */
function gatedWorkspace(dir: string, options: MetadataWriteOptions): string {
  const label = "workspace metadata";
  const [target] = gateStoreWrites(
    [{ kind: workspaceAdapter.kind, root: dirname(resolve(dir)), path: dir, label }],
    options,
  ).targets;
  return target!.path;
}

/** The metadata goes into an existing workspace, never into a folder made up on the way. */
function requireFolder(dir: string) {
  const stat = lstatSync(dir, { throwIfNoEntry: false });
  if (!stat?.isDirectory()) throw new UserError(`${dir} is not a workspace folder`);
}

function writeMetadata(dir: string, metadata: WorkspaceMetadata) {
  requireFolder(dir);
  writeFileAtomic(join(dir, METADATA_FILE), `${JSON.stringify(metadata, null, 2)}\n`, 0o644);
}

/**
 * Records a new workspace: `created_at` and `updated_at` = now. A workspace that already has valid
 * metadata keeps it (its creation time must not move). Refused, with nothing written, while the
 * config is invalid or when `dir` is no place for a workspace (RefusedPlaceError).
 */
export function createSessionMetadata(
  dir: string,
  now = new Date(),
  options: MetadataWriteOptions = {},
): WorkspaceMetadata {
  const workspace = gatedWorkspace(dir, options);
  const existing = readWorkspaceMetadata(workspace);
  if (existing.ok) return existing.metadata;
  const metadata = { created_at: now.toISOString(), updated_at: now.toISOString() };
  writeMetadata(workspace, metadata);
  return metadata;
}

/**
 * Marks activity: `updated_at` = now (a workspace without valid metadata gets it created). Refused
 * as `createSessionMetadata` is.
 */
export function touchSession(
  dir: string,
  now = new Date(),
  options: MetadataWriteOptions = {},
): WorkspaceMetadata {
  const workspace = gatedWorkspace(dir, options);
  const existing = readWorkspaceMetadata(workspace);
  const metadata = {
    created_at: existing.ok ? existing.metadata.created_at : now.toISOString(),
    updated_at: now.toISOString(),
  };
  writeMetadata(workspace, metadata);
  return metadata;
}

export interface RepairResult {
  /** "ok": the metadata was valid and is left alone; "repaired" / "would-repair": rebuilt from file times. */
  status: "ok" | "repaired" | "would-repair";
  metadata: WorkspaceMetadata;
  /** Why it needed repair. */
  problem?: string;
}

/**
 * Rebuilds missing or corrupt metadata from the files' times: `created_at` = the oldest mtime inside,
 * `updated_at` = the newest (the metadata file itself not counted). Valid metadata is left alone.
 * Refused as `createSessionMetadata` is — with `dryRun` too: it answers what a repair would write,
 * and a folder that is no workspace (`/`, home) is not even walked.
 */
export function repairSessionMetadata(
  dir: string,
  options: { dryRun?: boolean } & MetadataWriteOptions = {},
): RepairResult {
  const workspace = gatedWorkspace(dir, options);
  requireFolder(workspace);
  const existing = readWorkspaceMetadata(workspace);
  if (existing.ok) return { status: "ok", metadata: existing.metadata };
  let oldest = Number.POSITIVE_INFINITY;
  let newest = 0;
  const visit = (folder: string) => {
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      if (folder === workspace && name === METADATA_FILE) continue;
      const stat = lstatSync(path);
      if (stat.isSymbolicLink()) continue;
      if (stat.isDirectory()) visit(path);
      else if (stat.isFile()) {
        oldest = Math.min(oldest, stat.mtimeMs);
        newest = Math.max(newest, stat.mtimeMs);
      }
    }
  };
  visit(workspace);
  if (newest === 0) oldest = newest = lstatSync(workspace).mtimeMs; // an empty workspace: its folder's time
  const metadata = { created_at: new Date(oldest).toISOString(), updated_at: new Date(newest).toISOString() };
  if (!options.dryRun) writeMetadata(workspace, metadata);
  return { status: options.dryRun ? "would-repair" : "repaired", metadata, problem: existing.message };
}

/** One structured log line per decision. */
export type PruneLogLine =
  | { event: "prune.candidate"; id: string; path: string; updatedAt: string; bytes: number }
  | { event: "prune.deleted"; id: string; path: string; bytes: number; destination: string }
  | { event: "prune.skipped"; id: string; path: string; reason: string }
  | {
      event: "prune.done";
      candidates: number;
      deleted: number;
      skipped: number;
      bytesReclaimed: number;
      dryRun: boolean;
    };

export interface PruneOptions {
  /** Workspaces whose `updated_at` is more than this many hours ago are pruned. */
  olderThanHours: number;
  /** The folder holding `<session_id>/` workspaces. */
  workspaceRoot: string;
  /** List the candidates, delete nothing. Default false. */
  dryRun?: boolean;
  /** Receives one object per decision; default: one JSON line each on stderr. */
  log?: (line: PruneLogLine) => void;
  /** The config file (deletion target, protected patterns) — the same one `clean` uses. */
  config?: LoadConfigOptions;
  /** Recorded in the audit log. Default "auto". */
  actor?: "cli" | "ui" | "extension" | "auto";
  now?: Date;
}

export interface PruneResult {
  candidates: Array<{ id: string; path: string; updatedAt: string; bytes: number }>;
  /** Soft-deleted (to the trash or the quarantine): `session-retention trash restore` brings them back. */
  deleted: Array<{ id: string; path: string; bytes: number; destination: string }>;
  skipped: Array<{ id: string; reason: string }>;
  bytesReclaimed: number;
}

const defaultLog = (line: PruneLogLine) => process.stderr.write(`${JSON.stringify(line)}\n`);

/**
 * Prunes workspaces idle for longer than `olderThanHours` (by `updated_at`). Never one without valid
 * metadata (its age is unknown), nor an active, pinned or protected one.
 */
export async function pruneSessions(options: PruneOptions): Promise<PruneResult> {
  if (!(options.olderThanHours > 0))
    throw new UserError(`olderThanHours must be a number of hours > 0, got ${options.olderThanHours}`);
  const log = options.log ?? defaultLog;
  const now = options.now ?? new Date();
  const root = checkRoot(options.workspaceRoot);
  const stores = [{ kind: workspaceAdapter.kind, root }];
  const inputs = await gatherPlanInputs({
    ...(options.config ? { config: options.config } : {}),
    flagStores: stores,
  });
  if (!inputs.config.ok) throw new UserError(describeInvalidConfig(inputs.config));
  // Pruning is by age alone: the retention policy's "keep the N most recent" does not apply, but
  // every safety exemption does.
  const config: Config = {
    ...inputs.config.config,
    retention: {
      ...inputs.config.config.retention,
      minKeepRecentCount: 0,
      keepLastPerNamespace: 0,
      allowEmptyStore: true,
    },
  };
  const sessions = inputs.report.sessions;
  const exempt = exemptions({
    sessions,
    policy: config,
    pinnedIds: pinnedIds(inputs.pins),
    activeIds: inputs.activeIds,
    now,
  });
  const cutoff = now.getTime() - options.olderThanHours * 3_600_000;
  const result: PruneResult = { candidates: [], deleted: [], skipped: [], bytesReclaimed: 0 };
  // Folders without valid metadata are not workspaces the scan recognises: their age is unknown,
  // so they are never pruned, and every run says so.
  for (const problem of inputs.report.problems)
    if (problem.code === "not-a-session" && problem.path.startsWith(`${root}/`)) {
      result.skipped.push({ id: basename(problem.path), reason: problem.message });
      log({
        event: "prune.skipped",
        id: basename(problem.path),
        path: problem.path,
        reason: problem.message,
      });
    }
  const chosen = [];
  for (const s of sessions) {
    const skip = (reason: string) => {
      result.skipped.push({ id: basename(s.path), reason });
      log({ event: "prune.skipped", id: basename(s.path), path: s.path, reason });
    };
    const why = exempt.get(s.id);
    if (Date.parse(s.lastUsedAt) >= cutoff) continue; // recent enough: no decision to log
    if (why) skip(`${why.reason}: ${why.detail}`);
    else {
      result.candidates.push({
        id: basename(s.path),
        path: s.path,
        updatedAt: s.lastUsedAt,
        bytes: s.sizeBytes,
      });
      log({
        event: "prune.candidate",
        id: basename(s.path),
        path: s.path,
        updatedAt: s.lastUsedAt,
        bytes: s.sizeBytes,
      });
      chosen.push(s);
    }
  }
  if (!options.dryRun && chosen.length > 0) {
    const moved = await softDelete(
      {
        items: chosen.map((s) => ({ id: s.id, fingerprint: s.fingerprint })),
        stores,
        via: "prune",
        previous: inputs.report,
      },
      {
        actor: options.actor ?? "auto",
        now: () => now,
        ...(options.config ? { config: options.config } : {}),
      },
    );
    for (const m of moved.moved) {
      const entry = {
        id: m.id.replace(/^workspace:/, ""),
        path: m.path,
        bytes: m.bytes,
        destination: m.destination,
      };
      result.deleted.push(entry);
      result.bytesReclaimed += m.bytes;
      log({ event: "prune.deleted", ...entry });
    }
    for (const s of moved.skipped) {
      const id = s.id.replace(/^workspace:/, "");
      result.skipped.push({ id, reason: s.reason });
      log({ event: "prune.skipped", id, path: s.path ?? "", reason: s.reason });
    }
  }
  log({
    event: "prune.done",
    candidates: result.candidates.length,
    deleted: result.deleted.length,
    skipped: result.skipped.length,
    bytesReclaimed: result.bytesReclaimed,
    dryRun: !!options.dryRun,
  });
  return result;
}
