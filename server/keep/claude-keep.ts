// Keeping sessions from Claude Code's own sweep (server/stores/claude/claude-sweep.ts says what it
// will delete): a feature over the store, not a reader of it — it changes the transcripts' time
// under our deletion lock and records that in our audit log, as every change we make is.
import { lstatSync, lutimesSync } from "node:fs";
import type { AuditEntry } from "../../shared/audit.js";
import type { SessionRecord } from "../../shared/session-record.js";
import { UserError } from "../errors.js";
import { withLock } from "../fs/lock-file.js";
import { appendAudit } from "../state/audit-log.js";
import { statePaths } from "../state/state-dir.js";

/**
 * Keeps sessions from Claude Code's sweep: their transcript's time becomes now (its access time is
 * left as it was), under the deletion lock, audited with the time each had before.
 */
export function keepFromClaudeSweep(
  sessions: readonly SessionRecord[],
  actor: AuditEntry["actor"],
  env: NodeJS.ProcessEnv = process.env,
  now = new Date(),
): Array<{ id: string; path: string; before: string }> {
  const notClaude = sessions.find((s) => !s.id.startsWith("claude:"));
  if (notClaude)
    throw new UserError(`${notClaude.id} is not a Claude Code session: only Claude sweeps by file time`);
  const paths = statePaths(env);
  return withLock(paths.deletionLock, () => {
    const kept = sessions.map((s) => {
      // lutimes: the transcript itself, never what a link put in its place points to.
      const { atime, mtime } = lstatSync(s.path);
      lutimesSync(s.path, atime, now);
      return { id: s.id, path: s.path, before: mtime.toISOString() };
    });
    appendAudit(paths.auditLog, {
      time: now.toISOString(),
      actor,
      action: "keep",
      items: kept.map((k) => ({ id: k.id, path: k.path, result: "kept", reason: `time was ${k.before}` })),
      result: "ok",
      detail: "kept from Claude Code's cleanupPeriodDays sweep: transcript time refreshed",
    });
    return kept;
  });
}
