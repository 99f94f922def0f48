// The quota at a glance: the level (coloured), usage against each limit, the mode, and what the
// level means. Issue 7 turns this into gauges with a forecast.
import type { PolicyStatus } from "../../../shared/api.js";
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

export function QuotaCard({ policy }: { policy: PolicyStatus }) {
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
    </div>
  );
}
