// Overview: what agents' own cleanup deletes next, totals, per-agent and per-namespace usage and the
// largest sessions of the last scan.
import type { ComponentChildren } from "preact";
import type { SummaryResponse } from "../../../shared/api.js";
import type { ApiClient } from "../api/client.js";
import { AgentUsageTable } from "../components/AgentUsageTable.js";
import { GrowthSection } from "../components/GrowthSection.js";
import { SpaceTreemap } from "../components/SpaceTreemap.js";
import { Bytes } from "../components/Bytes.js";
import { QuotaCard } from "../components/QuotaCard.js";
import { RelativeTime } from "../components/RelativeTime.js";
import { SweepBanners } from "../components/SweepBanners.js";

function shortPath(path: string) {
  return path.slice(path.lastIndexOf("/") + 1);
}

export function OverviewPage({
  api,
  data,
  actions,
  onChanged,
}: {
  api: Pick<ApiClient, "sessions" | "growth" | "keep" | "plan">;
  data: SummaryResponse;
  /** What can be done about it (the clean buttons), shown under the totals. */
  actions?: ComponentChildren;
  /** Sessions were kept from an agent's cleanup: the summary looks again. */
  onChanged: () => void;
}) {
  const { summary, namespaces } = data;
  const now = new Date(data.scannedAt);
  const biggest = namespaces[0]?.totalBytes ?? 0;
  return (
    <>
      {/* Always there: it says what a keep did after the last sweep's banner is gone. */}
      <SweepBanners api={api} sweeps={data.externalSweeps ?? []} onKept={onChanged} />
      <section class="cards" aria-label="Totals">
        <QuotaCard policy={data.policy} forecast={data.forecast} />
        <div class="card">
          <h2>Sessions</h2>
          <p class="big" data-testid="total-count">
            {summary.sessionCount.toLocaleString("en-US")}
          </p>
        </div>
        <div class="card">
          <h2>Disk used</h2>
          <p class="big" data-testid="total-bytes" data-bytes={summary.totalBytes}>
            <Bytes value={summary.totalBytes} />
          </p>
        </div>
        <div class="card">
          <h2>Namespaces</h2>
          <p class="big" data-testid="namespace-count">
            {summary.namespaceCount}
          </p>
        </div>
        <div class="card">
          <h2>Warnings</h2>
          <p class="big" data-testid="warning-count">
            {summary.sessionsWithWarnings + summary.problemCount}
          </p>
          <p class="hint">
            {summary.sessionsWithWarnings} sessions, {summary.problemCount} other
          </p>
        </div>
      </section>

      {actions}
      {/* One agent: its one line would repeat the totals above, unless it has a quota of its own. */}
      {(data.agents.length > 1 || data.policy.agentQuotas) && (
        <AgentUsageTable
          agents={data.agents}
          totalBytes={summary.totalBytes}
          quotas={data.policy.agentQuotas}
          now={now}
        />
      )}
      {namespaces.length > 0 && <SpaceTreemap api={api} data={data} />}
      <GrowthSection api={api} scannedAt={data.scannedAt} />

      <section aria-labelledby="namespaces-title">
        <h2 id="namespaces-title">Usage by namespace</h2>
        {namespaces.length === 0 ? (
          <p class="empty">No sessions in this store yet.</p>
        ) : (
          <table class="data" data-testid="namespace-table">
            <thead>
              <tr>
                <th scope="col">Namespace (working directory)</th>
                <th scope="col" class="num">
                  Sessions
                </th>
                <th scope="col" class="num">
                  Size
                </th>
                <th scope="col">Share</th>
                <th scope="col">Last used</th>
              </tr>
            </thead>
            <tbody>
              {namespaces.map((n) => (
                <tr key={n.namespace} data-testid="namespace-row" data-namespace={n.namespace}>
                  <td class="path">{n.namespace}</td>
                  <td class="num" data-testid="namespace-sessions">
                    {n.sessionCount}
                  </td>
                  <td class="num" data-testid="namespace-bytes" data-bytes={n.totalBytes}>
                    <Bytes value={n.totalBytes} />
                  </td>
                  <td>
                    <span class="bar" aria-hidden="true">
                      <span style={{ width: `${biggest ? (100 * n.totalBytes) / biggest : 0}%` }} />
                    </span>
                  </td>
                  <td>
                    <RelativeTime iso={n.lastUsedAt} now={now} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>

      {summary.largest.length > 0 && (
        <section aria-labelledby="largest-title">
          <h2 id="largest-title">Largest sessions</h2>
          <table class="data" data-testid="largest-table">
            <thead>
              <tr>
                <th scope="col">Session</th>
                <th scope="col">Namespace</th>
                <th scope="col" class="num">
                  Size
                </th>
                <th scope="col">Last used</th>
              </tr>
            </thead>
            <tbody>
              {summary.largest.map((s) => (
                <tr key={s.id}>
                  <td title={s.path}>{s.name ?? <span class="path">{shortPath(s.path)}</span>}</td>
                  <td class="path">{s.namespace}</td>
                  <td class="num">
                    <Bytes value={s.sizeBytes} />
                  </td>
                  <td>
                    <RelativeTime iso={s.lastUsedAt} now={now} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
    </>
  );
}
