// Keeping sessions from Claude Code's own sweep (server/stores/claude/claude-sweep.ts says what it
// will delete): a feature over the store, not a reader of it — it changes the transcripts' time
// under our deletion lock, through the write gate (never while the config is invalid, never a file
// that is not where Claude keeps transcripts), and records that in our audit log, as every change
// we make is.
import { lstatSync, lutimesSync } from "node:fs";
import type { AuditEntry } from "../../shared/audit.js";
import type { SessionRecord } from "../../shared/session-record.js";
import type { LoadConfigOptions } from "../config/config-file.js";
import { gateStoreWrites } from "../config/write-gate.js";
import { UserError } from "../errors.js";
import { withLock } from "../fs/lock-file.js";
import { appendAudit } from "../state/audit-log.js";
import { statePaths } from "../state/state-dir.js";

export interface KeepOptions {
  actor: AuditEntry["actor"];
  /** The config file and overrides, read under the lock: while it is invalid nothing is kept (ReadOnlyError). */
  config?: LoadConfigOptions;
  env?: NodeJS.ProcessEnv;
  now?: Date;
}

/**
 * Keeps sessions from Claude Code's sweep: their transcript's time becomes now (its access time is
 * left as it was), under the deletion lock, audited with the time each had before. All or nothing:
 * while the config is invalid (ReadOnlyError), or when one transcript is not where its store keeps
 * transcripts any more (RefusedPlaceError: a folder swapped for a symlink since the scan), no time
 * is changed.
 */
export function keepFromClaudeSweep(
  sessions: readonly SessionRecord[],
  options: KeepOptions,
): Array<{ id: string; path: string; before: string }> {
  const env = options.env ?? process.env;
  const now = options.now ?? new Date();
  const notClaude = sessions.find((s) => !s.id.startsWith("claude:"));
  if (notClaude)
    throw new UserError(`${notClaude.id} is not a Claude Code session: only Claude sweeps by file time`);
  const paths = statePaths(env);
  return withLock(paths.deletionLock, () => {
    const { targets } = gateStoreWrites(
      sessions.map((s) => ({ kind: s.store.kind, root: s.store.root, path: s.path, label: `keep ${s.id}` })),
      { env, ...(options.config ? { config: options.config } : {}) },
    );
    const kept = sessions.map((s, i) => {
      const path = targets[i]!.path;
      // lutimes: the transcript itself, never what a link put in its place points to.
      const { atime, mtime } = lstatSync(path);
      lutimesSync(path, atime, now);
      return { id: s.id, path: s.path, before: mtime.toISOString() };
    });
    appendAudit(paths.auditLog, {
      time: now.toISOString(),
      actor: options.actor,
      action: "keep",
      items: kept.map((k) => ({ id: k.id, path: k.path, result: "kept", reason: `time was ${k.before}` })),
      result: "ok",
      detail: "kept from Claude Code's cleanupPeriodDays sweep: transcript time refreshed",
    });
    return kept;
  });
}
