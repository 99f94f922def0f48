// The quota at a glance: the level (coloured), a gauge for each limit (size, count) with the 70%
// and 90% marks, the mode (what pi does about it, said so only where pi's store is found), what
// the level means, and the forecast.
import type { PolicyStatus } from "../../../shared/api.js";
import type { Forecast } from "../../../shared/growth.js";
import { formatBytes, formatPercent } from "../../../shared/format.js";
import type { QuotaLevel, QuotaState } from "../../../shared/quota.js";

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

export function QuotaCard({
  policy,
  forecast,
  piFound = true,
}: {
  policy: PolicyStatus;
  forecast?: Forecast | undefined;
  /** Whether pi's store is among those looked at: the mode is what pi's extension does, and only pi. */
  piFound?: boolean;
}) {
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
      {policy.quota.size && <Gauge name="size" measure={policy.quota.size} text={formatBytes} />}
      {policy.quota.count && (
        <Gauge
          name="count"
          measure={policy.quota.count}
          text={(n) => `${n.toLocaleString("en-US")} sessions`}
        />
      )}
      {!policy.quota.size && !policy.quota.count && <p class="hint">no limits set</p>}
      <p class="hint">
        {MEANING[level]} · mode {policy.mode} (
        {piFound ? MODE[policy.mode] : "for pi, whose store is not here"})
      </p>
      {ahead && (
        <p class="hint" data-testid="forecast">
          {ahead}
        </p>
      )}
    </div>
  );
}

type Measure = NonNullable<QuotaState["size"]>;

/** One limit as a bar: filled to the usage (capped at the end), coloured by its own level. */
function Gauge({ name, measure, text }: { name: string; measure: Measure; text: (n: number) => string }) {
  // The bar's numbers; the words use the percentage the CLI and pi show (formatPercent).
  const percent = Math.round(measure.ratio * 100);
  const shown = formatPercent(measure.ratio);
  return (
    <div class="gauge" data-testid={`gauge-${name}`} data-level={measure.level}>
      <div
        class="gauge-bar"
        role="meter"
        aria-label={`${name} quota`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.min(percent, 100)}
        aria-valuetext={`${shown}, ${measure.level}`}
      >
        <span class={`fill level-bg-${measure.level}`} style={{ width: `${Math.min(percent, 100)}%` }} />
        <i class="mark" style={{ left: "70%" }} aria-hidden="true" />
        <i class="mark" style={{ left: "90%" }} aria-hidden="true" />
      </div>
      <p class="hint">
        {name}: {text(measure.used)} of {text(measure.limit)} ({shown})
      </p>
    </div>
  );
}
