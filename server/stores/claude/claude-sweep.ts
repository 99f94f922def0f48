// Claude Code deletes transcripts itself: at start (and later in the background) it unlinks, for
// good, every transcript whose mtime is older than `cleanupPeriodDays` (default 30), with no trash.
// That is a retention policy too, and a harsher one than most users know: we show what it will
// delete next, and offer to keep those sessions by refreshing their time — the one thing the sweep
// looks at. Our own "last used" comes from inside the transcript, so a refreshed time does not
// make a session look recently used to our policy.
import { lstatSync } from "node:fs";
import { join } from "node:path";
import { formatBytes } from "../../../shared/format.js";
import type { ExternalSweep } from "../../../shared/plan.js";
import type { SessionRecord } from "../../../shared/session-record.js";
import type { TrashEntry } from "../../../shared/trash.js";
import type { SweptAgain } from "../adapter-types.js";
import { readSmallTextFile } from "../../fs/read-small-file.js";

const DEFAULT_DAYS = 30;
const DAY_MS = 86_400_000;

/** Where an administrator pins Claude Code's settings. */
const MANAGED_SETTINGS =
  process.platform === "darwin"
    ? "/Library/Application Support/ClaudeCode/managed-settings.json"
    : "/etc/claude-code/managed-settings.json";

/** `cleanupPeriodDays` of one settings file, if it sets a usable one. */
function periodIn(file: string): number | undefined {
  try {
    const value = (
      JSON.parse(readSmallTextFile(file, { maxBytes: 1024 * 1024, what: "Claude settings" })) as {
        cleanupPeriodDays?: unknown;
      }
    ).cleanupPeriodDays;
    return typeof value === "number" && Number.isInteger(value) && value >= 1 ? value : undefined;
  } catch {
    return undefined; // no file, or one we cannot read
  }
}

/**
 * Claude Code's `cleanupPeriodDays` as its sweep will use it, and where it comes from. Any settings
 * file may set it and the sweep covers every project, so the shortest wins: managed settings pin it;
 * else the user's settings (or the default, 30) and every project settings file of the folders its
 * sessions were in (a Claude started in that folder sweeps all projects with that value).
 */
export function claudeCleanupPeriod(
  root: string,
  cwds: Iterable<string> = [],
): { days: number; setting: string } {
  const managed = periodIn(MANAGED_SETTINGS);
  if (managed !== undefined)
    return { days: managed, setting: `cleanupPeriodDays = ${managed} (${MANAGED_SETTINGS})` };
  const userFile = join(root, "settings.json");
  const user = periodIn(userFile);
  let best =
    user !== undefined
      ? { days: user, setting: `cleanupPeriodDays = ${user} (${userFile})` }
      : { days: DEFAULT_DAYS, setting: `cleanupPeriodDays = ${DEFAULT_DAYS} (Claude Code's default)` };
  for (const cwd of new Set(cwds)) {
    if (!cwd.startsWith("/")) continue;
    for (const name of ["settings.json", "settings.local.json"]) {
      const file = join(cwd, ".claude", name);
      const days = periodIn(file);
      if (days !== undefined && days < best.days)
        best = {
          days,
          setting: `cleanupPeriodDays = ${days} (${file}, used for every project when Claude runs there)`,
        };
    }
  }
  return best;
}

/**
 * What Claude Code's own sweep will delete in the Claude store at `root`, if anything: transcripts
 * (not orphaned side files, which it does not look for) whose mtime is older than its period.
 */
export function claudeSweep(
  root: string,
  sessions: readonly SessionRecord[],
  now: Date,
): ExternalSweep | undefined {
  const transcripts = sessions.filter(
    (s) => s.store.kind === "claude" && s.store.root === root && s.id.startsWith("claude:"),
  );
  const { days, setting } = claudeCleanupPeriod(
    root,
    transcripts.map((s) => s.namespace),
  );
  const cutoff = now.getTime() - days * DAY_MS;
  // Per file, by the transcript's own time: a session's `modifiedAt` is its bundle's newest, and
  // a subagent still writing beside an old transcript does not save the transcript from the sweep.
  const swept = transcripts
    .flatMap((s) => {
      const mtimeMs = lstatSync(s.path, { throwIfNoEntry: false })?.mtimeMs;
      return mtimeMs !== undefined && mtimeMs < cutoff ? [{ s, mtimeMs }] : [];
    })
    .sort((a, b) => a.mtimeMs - b.mtimeMs)
    .map(({ s }) => s);
  if (swept.length === 0) return undefined;
  const bytes = swept.reduce((total, s) => total + s.sizeBytes, 0);
  const n = `${swept.length} session${swept.length === 1 ? "" : "s"}`;
  return {
    agent: "claude",
    storeRoot: root,
    setting,
    days,
    ids: swept.map((s) => s.id),
    bytes,
    keptByYou: 0,
    keepable: true,
    message: `Claude Code will permanently delete ${n} (${formatBytes(bytes)}) the next time it runs: ${setting}, by file time, with no trash.`,
  };
}

/** After a restore: why Claude Code's sweep would delete this transcript again, if it would. */
export function claudeSweptAgain(entry: TrashEntry, now: Date): SweptAgain | undefined {
  if (!entry.id.startsWith("claude:")) return undefined;
  const { days, setting } = claudeCleanupPeriod(entry.storeRoot, [entry.namespace]);
  const mtime = lstatSync(entry.originalPath, { throwIfNoEntry: false })?.mtimeMs;
  if (mtime === undefined || now.getTime() - mtime < days * DAY_MS) return undefined;
  return {
    message: `Claude Code will delete it again the next time it runs (${setting}): keep it with \`session-retention keep ${entry.id}\``,
    keepable: true,
  };
}
