// The quota at a glance: the level (coloured), usage against each limit, the mode, and what the
// level means. Issue 7 turns this into gauges with a forecast.
import type { PolicyStatus } from "../../../shared/api.js";
import type { Forecast } from "../../../shared/growth.js";
import { describeQuota, type QuotaLevel } from "../../../shared/quota.js";

const MEANING: Record<QuotaLevel, string> = {
  ok: "below 70% of every limit",
  info: "past 70% of a limit",
  warn: "past 90% of a limit: time to clean up",
  critical: "at or over a limit",
};

const MODE: Record<NonNullable<PolicyStatus["mode"]>, string> = {
  off: "quota prompts are off",
  "warn-only": "pi warns, never blocks",
  "hard-block": "pi blocks input when critical",
};

/** "100% in 12 days at the 7-day rate", or why there is no such date. */
function describeForecast(forecast: Forecast | undefined): string | undefined {
  if (!forecast) return undefined;
  if (forecast.daysToFull === null)
    return forecast.ratePerDay > 0 ? undefined : "not growing over the last 7 days";
  if (forecast.daysToFull === 0) return "at or over the size limit now";
  // Beyond a year a day count is noise, not a forecast.
  if (forecast.daysToFull > 365) return "not within a year at the 7-day rate";
  const days = Math.ceil(forecast.daysToFull);
  return `100% in ${days} day${days === 1 ? "" : "s"} at the 7-day rate${forecast.estimated ? " (estimated from creation times)" : ""}`;
}

export function QuotaCard({ policy, forecast }: { policy: PolicyStatus; forecast?: Forecast | undefined }) {
  const ahead = describeForecast(forecast);
  if (!policy.quota || !policy.mode)
    return (
      <div class="card" data-testid="quota-card">
        <h2>Quota</h2>
        <p class="big">unknown</p>
        <p class="hint">the config file is invalid</p>
      </div>
    );
  const { level } = policy.quota;
  return (
    <div class={`card level-${level}`} data-testid="quota-card" data-level={level}>
      <h2>Quota</h2>
      <p class="big" data-testid="quota-level">
        {level}
      </p>
      <p class="hint">{describeQuota(policy.quota)}</p>
      <p class="hint">
        {MEANING[level]} · mode {policy.mode} ({MODE[policy.mode]})
      </p>
      {ahead && (
        <p class="hint" data-testid="forecast">
          {ahead}
        </p>
      )}
    </div>
  );
}
