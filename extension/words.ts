// What the extension says, as pure functions of a look: the status line, the input block and the
// overview. Kept apart from pi's API so each sentence is tested for every quota level and mode.
import { formatBytes, formatPercent } from "../shared/format.js";
import { describeQuota, type QuotaState } from "../shared/quota.js";
import { visible } from "../shared/visible-text.js";
import type { Look } from "./look.js";

export const COMMAND = "session-retention";

/** The measure nearer its limit; size when tied (it is the primary limit). */
const leading = ({ size, count }: QuotaState) =>
  size && count ? (count.ratio > size.ratio ? count : size) : (size ?? count);

/** The limits a store is over, in words: "10 of 8 sessions (125%), 2 over". */
function overLimits({ size, count }: QuotaState): string {
  const parts: string[] = [];
  if (size && size.ratio >= 1)
    parts.push(
      `${formatBytes(size.used)} of ${formatBytes(size.limit)} (${formatPercent(size.ratio)}), ${formatBytes(size.used - size.limit)} over`,
    );
  if (count && count.ratio >= 1)
    parts.push(
      `${count.used} of ${count.limit} sessions (${formatPercent(count.ratio)}), ${count.used - count.limit} over`,
    );
  return parts.join("; ");
}

/** How to get under the quota again: clean what the policy suggests, pick by hand, or change it. */
function wayOut(look: Look): string {
  const { count, bytes } = look.candidates;
  if (count > 0)
    return `The policy suggests ${count} session${count === 1 ? "" : "s"} (${formatBytes(bytes)}) to move to the trash: /${COMMAND} clean.`;
  if (look.removable > 0)
    return `Pick sessions to move to the trash with /${COMMAND} clean (the policy suggests none), or raise the quota with /${COMMAND} policy.`;
  const why = look.warnings[0] ? ` (${visible(look.warnings[0])})` : "";
  return `Nothing can be moved: the policy keeps every session${why}. Raise the quota or keep fewer recent sessions with /${COMMAND} policy.`;
}

/**
 * The footer status: nothing while all is well (ok, mode off, or the extension disabled), the usage
 * at info and warn, and what to do at critical. An invalid config is said, since nothing is judged.
 */
export function statusText(look: Look): string | undefined {
  if (!look.enabled) return undefined;
  if (look.invalidConfig) return `sessions: invalid config, read-only (${COMMAND} policy)`;
  if (look.mode === "off" || look.quota.level === "ok") return undefined;
  const measure = leading(look.quota)!;
  const usage = `sessions ${formatPercent(measure.ratio)} of quota`;
  switch (look.quota.level) {
    case "info":
      return usage;
    case "warn":
      return `⚠ ${usage} · /${COMMAND} clean`;
    case "critical":
      return look.mode === "hard-block"
        ? `⛔ ${usage}: input blocked · /${COMMAND} clean`
        : `⛔ ${usage} · /${COMMAND} clean`;
  }
}

/**
 * The notice at a session start at warn and critical (a strong prompt and the way to
 * clean); info and ok have the status line only.
 */
export function levelNotice(look: Look): string | undefined {
  if (!look.enabled || look.invalidConfig || look.mode === "off") return undefined;
  if (look.quota.level !== "warn" && look.quota.level !== "critical") return undefined;
  return [
    `Sessions are ${look.quota.level === "critical" ? "over" : "near"} their quota: ${describeQuota(look.quota)}.`,
    wayOut(look),
    ...(look.quota.level === "critical" && look.mode === "hard-block"
      ? ["Until then, messages are not sent (mode hard-block); commands still work."]
      : []),
  ].join("\n");
}

/** Whether ordinary input must be blocked: only hard-block at critical, with a valid config. */
export function blocksInput(look: Look | undefined): boolean {
  return (
    !!look &&
    look.enabled &&
    !look.invalidConfig &&
    look.mode === "hard-block" &&
    look.quota.level === "critical"
  );
}

/** Why input was blocked, how much is over, and how to get going again. */
export function blockMessage(look: Look): string {
  return [
    `Not sent: the sessions are over their quota — ${overLimits(look.quota)} — and the mode is hard-block.`,
    wayOut(look),
    `Commands still work; /${COMMAND} policy mode warn-only turns blocking off.`,
  ].join("\n");
}

const LEVEL_WORDS = {
  ok: "ok",
  info: "info (≥ 70% of a limit)",
  warn: "warn (≥ 90% of a limit)",
  critical: "critical (over a limit)",
} as const;

/** `/session-retention`: the overview, in a few lines. */
export function overviewText(look: Look, dashboard: string | undefined): string {
  const lines = [`${look.sessionCount.toLocaleString("en-US")} sessions, ${formatBytes(look.totalBytes)}`];
  if (look.invalidConfig) lines.push(look.invalidConfig);
  else {
    lines.push(`Quota: ${describeQuota(look.quota)} — ${LEVEL_WORDS[look.quota.level]} · mode ${look.mode}`);
    const ahead = look.forecast;
    if (ahead?.daysToFull != null)
      lines.push(
        ahead.daysToFull > 365
          ? "Forecast: not full within a year at the 7-day rate"
          : `Forecast: 100% of the size quota in ${Math.round(ahead.daysToFull)} days at the 7-day rate (${formatBytes(ahead.ratePerDay)}/day${ahead.estimated ? ", estimated" : ""})`,
      );
    else if (ahead) lines.push("Forecast: not growing over the last 7 days");
    const { count, bytes, first } = look.candidates;
    if (count === 0) lines.push("The policy suggests no session to remove.");
    else {
      lines.push(
        `The policy suggests ${count} session${count === 1 ? "" : "s"} (${formatBytes(bytes)}) — /${COMMAND} clean:`,
      );
      for (const c of first)
        lines.push(
          `  ${formatBytes(c.sizeBytes).padStart(8)}  ${visible(c.detail)}  ${c.title !== undefined ? `${visible(c.title)} — ` : ""}${visible(c.path)}`,
        );
      if (count > first.length) lines.push(`  …and ${count - first.length} more`);
    }
  }
  for (const note of look.notes) lines.push(`note: ${visible(note)}`);
  lines.push(
    dashboard
      ? `Dashboard: ${dashboard}`
      : `Dashboard: /${COMMAND} dashboard (or \`session-retention serve\`)`,
  );
  if (!look.enabled)
    lines.push(`The extension is disabled ("enabled": false in ${visible(look.configPath)}).`);
  return lines.join("\n");
}
