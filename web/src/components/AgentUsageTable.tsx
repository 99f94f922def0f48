// One line per agent: its sessions, its bytes and its share of the total, as text — the numbers
// the treemap's agent level draws — and, when the policy limits agents (`quota.agents`), where
// each stands against its own limit.
import { formatPercent } from "../../../shared/format.js";
import { describeQuota, type QuotaState } from "../../../shared/quota.js";
import type { AgentUsage } from "../../../shared/scan-report.js";
import { AGENT_LABELS, type StoreKind } from "../../../shared/session-record.js";
import { Bytes } from "./Bytes.js";
import { RelativeTime } from "./RelativeTime.js";

/** "62%", and "<1%" rather than a misleading "0%" for a small agent that has something. */
function percent(part: number, total: number) {
  return total === 0 ? "0%" : formatPercent(part / total);
}

export function AgentUsageTable({
  agents,
  totalBytes,
  quotas,
  now,
}: {
  agents: readonly AgentUsage[];
  totalBytes: number;
  /** Each limited agent's quota; the column shows only when there is one. */
  quotas?: Partial<Record<StoreKind, QuotaState>> | undefined;
  now: Date;
}) {
  const limited = quotas !== undefined && Object.keys(quotas).length > 0;
  return (
    <section aria-labelledby="agents-title">
      <h2 id="agents-title">Usage by agent</h2>
      <table class="data agent-table" data-testid="agent-table">
        <thead>
          <tr>
            <th scope="col">Agent</th>
            <th scope="col" class="num">
              Sessions
            </th>
            <th scope="col" class="num">
              Size
            </th>
            <th scope="col">Share of the total</th>
            <th scope="col">Last used</th>
            {limited && <th scope="col">Agent quota</th>}
          </tr>
        </thead>
        <tbody>
          {agents.map((a) => {
            const share = percent(a.totalBytes, totalBytes);
            return (
              <tr key={a.kind} data-testid="agent-row" data-agent={a.kind}>
                <th scope="row">{AGENT_LABELS[a.kind]}</th>
                <td class="num" data-testid="agent-sessions">
                  {a.sessionCount.toLocaleString("en-US")}
                </td>
                <td class="num" data-testid="agent-bytes" data-bytes={a.totalBytes}>
                  <Bytes value={a.totalBytes} />
                </td>
                <td>
                  <span class="share">
                    <span class="bar" aria-hidden="true">
                      <span style={{ width: totalBytes ? `${(100 * a.totalBytes) / totalBytes}%` : "0" }} />
                    </span>
                    <span data-testid="agent-share">{share}</span>
                  </span>
                </td>
                <td>{a.lastUsedAt ? <RelativeTime iso={a.lastUsedAt} now={now} /> : "—"}</td>
                {limited && <AgentQuota state={quotas[a.kind]} />}
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}

/** "warn · 9.2 GiB of 10.0 GiB (92%)", the level in its colour; "no limit" for an agent without one. */
function AgentQuota({ state }: { state: QuotaState | undefined }) {
  if (!state) return <td class="empty">no limit</td>;
  return (
    <td data-testid="agent-quota" data-level={state.level}>
      <span class={`level-text level-${state.level}`}>{state.level}</span> · {describeQuota(state)}
    </td>
  );
}
