// The sub-commands of `/session-retention` and the settings `policy` takes, for pi's completion —
// here, without zod or the schema, because completion runs before any command module is loaded.
// A test keeps POLICY_KEYS equal to the config schema's settings.
export const SUBCOMMANDS = ["scan", "clean", "policy", "protect", "unprotect", "undo", "dashboard"] as const;

export const POLICY_KEYS = [
  "enabled",
  "mode",
  "sessionDir",
  "stores",
  "quota.maxTotalSizeBytes",
  "quota.maxSessionCount",
  "quota.warnRatio",
  "quota.infoRatio",
  "quota.namespaces",
  "retention.maxAgeDays",
  "retention.minKeepRecentCount",
  "retention.keepLastPerNamespace",
  "retention.eviction",
  "retention.neverReopened",
  "retention.allowEmptyStore",
  "retention.autoClean",
  "retention.autoCleanMaxDeletesPerRun",
  "retention.dryRun",
  "protection.protectedPatterns",
  "protection.neverDeleteActiveSession",
  "activity.graceMinutes",
  "deletion.target",
  "deletion.quarantineDir",
] as const;

/** pi replaces the whole argument text with an item's value; null when nothing fits. */
export function completions(argumentText: string): Array<{ value: string; label: string }> | null {
  const policy = /^policy\s+(\S*)$/.exec(argumentText);
  const items = policy
    ? POLICY_KEYS.filter((k) => k.startsWith(policy[1]!)).map((k) => ({ value: `policy ${k} `, label: k }))
    : /^\S*$/.test(argumentText)
      ? SUBCOMMANDS.filter((w) => w.startsWith(argumentText)).map((w) => ({ value: w, label: w }))
      : [];
  return items.length > 0 ? items : null;
}
