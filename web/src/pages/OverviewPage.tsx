// Overview, built to answer in five seconds: one headline sentence (quota used, this week's growth and
// where, what the policy would move — urged only when space is short — with a button to review it),
// what agents' own cleanup deletes next in a line each, the look's notes folded into one line, and the
// growth chart with its quota line — all above the fold, on a laptop and on a phone. Below: the
// totals with the trash, per-agent and per-namespace usage and the largest sessions, whose rows open
// their sessions.
import type { ComponentChildren } from "preact";
import { useEffect, useState } from "preact/hooks";
import type { GrowthResponse, SummaryResponse } from "../../../shared/api.js";
import { QUOTA_MODE_KIND } from "../../../shared/store-kinds.js";
import { trashTotals } from "../../../shared/trash.js";
import type { ApiClient } from "../api/client.js";
import { headline, type HeadlineInput, planOf } from "../components/overview-headline.js";
import { AgentUsageTable } from "../components/AgentUsageTable.js";
import { GrowthSection } from "../components/GrowthSection.js";
import { SpaceTreemap } from "../components/SpaceTreemap.js";
import { Bytes } from "../components/Bytes.js";
import { QuotaCard } from "../components/QuotaCard.js";
import { RelativeTime } from "../components/RelativeTime.js";
import { SessionName } from "../components/SessionName.js";
import { SweepBanners } from "../components/SweepBanners.js";
import { Notices } from "../components/Notices.js";

export function OverviewPage({
  api,
  data,
  refreshKey,
  planKey,
  actions,
  onChanged,
  onReview,
  onOpenNamespace,
  onOpenSession,
  onOpenTrash,
}: {
  api: Pick<ApiClient, "sessions" | "growth" | "keep" | "deleteSessions" | "plan" | "planSummary" | "trash">;
  /** The latest look (it moves while agents write). */
  data: SummaryResponse;
  /**
   * Moves when what this page asks the server for besides the summary (the trash, growth) is to be
   * asked for again: after a refresh at once, while looks come at most every few seconds.
   */
  refreshKey: number;
  /** The same for the policy's plan, which costs the server more: while looks come, more rarely. */
  planKey: number;
  /** What can be done about it (the clean buttons), shown under the totals; `urgent`: space is short. */
  actions?: (urgent: boolean) => ComponentChildren;
  /** Sessions were kept from an agent's cleanup: the summary looks again. */
  onChanged: () => void;
  /** "Review the cleanup": the wizard on the policy's plan. */
  onReview: () => void;
  /** A namespace row: the Sessions page filtered to it. */
  onOpenNamespace: (namespace: string) => void;
  /** A largest-session row: its drawer. */
  onOpenSession: (id: string) => void;
  onOpenTrash: () => void;
}) {
  const { summary, namespaces } = data;
  const now = new Date(data.scannedAt);
  const biggest = namespaces[0]?.totalBytes ?? 0;
  const [growth, setGrowth] = useState<GrowthResponse | undefined>(undefined);
  const [plan, setPlan] = useState<HeadlineInput["plan"]>(undefined);
  /** "unknown": the trash could not be read (the card says so instead of waiting forever). */
  const [trash, setTrash] = useState<{ count: number; bytes: number } | "unknown" | undefined>(undefined);
  // Each part of the headline waits for its own answer; a failure leaves that part out.
  useEffect(() => {
    // Two numbers: the plan's summary, not its lists (~60 MB at 100,000 sessions).
    api.planSummary().then(
      (p) => setPlan(planOf(p)),
      () => setPlan(undefined),
    );
  }, [api, planKey]);
  useEffect(() => {
    api.trash().then(
      (t) => setTrash(trashTotals(t.entries)),
      () => setTrash("unknown"),
    );
  }, [api, refreshKey]);
  const said = headline({
    totalBytes: summary.totalBytes,
    sessionCount: summary.sessionCount,
    quota: data.policy.quota,
    configInvalid: data.policy.source === "invalid",
    growth,
    plan,
  });
  return (
    <>
      <section class="headline" aria-label="In short">
        <p data-testid="overview-headline" data-urgent={said.urgent}>
          {said.used} {said.grew} {said.policy}
        </p>
        {plan && plan.count > 0 && (
          // Primary only when space is short: a healthy store with a year of history is no emergency.
          <button
            type="button"
            class={said.urgent ? "primary" : undefined}
            data-testid="review-cleanup"
            disabled={data.policy.readOnly}
            onClick={onReview}
          >
            Review the cleanup
          </button>
        )}
      </section>
      {/* Always there: it says what a keep did after the last sweep's banner is gone. */}
      <SweepBanners api={api} sweeps={data.externalSweeps ?? []} onKept={onChanged} />
      <Notices look={data} />
      <GrowthSection
        api={api}
        look={data}
        refreshKey={refreshKey}
        quotaBytes={data.policy.quota?.size?.limit}
        onGrowth={(g) => g.days === 30 && setGrowth(g)}
      />
      <section class="cards" aria-label="Totals">
        <QuotaCard
          policy={data.policy}
          forecast={data.forecast}
          piFound={data.stores.some((s) => s.kind === QUOTA_MODE_KIND)}
        />
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
        <div class="card" data-testid="trash-card">
          <h2>Trash</h2>
          <p
            class="big"
            data-testid="trash-card-bytes"
            data-bytes={typeof trash === "object" ? trash.bytes : undefined}
          >
            {trash === "unknown" ? "unknown" : trash ? <Bytes value={trash.bytes} /> : "…"}
          </p>
          <p class="hint">
            {typeof trash === "object" && (
              <span data-testid="trash-card-count" data-count={trash.count}>
                {trash.count.toLocaleString("en-US")} session{trash.count === 1 ? "" : "s"}, still on disk
                ·{" "}
              </span>
            )}
            <a
              href="#/trash"
              data-testid="trash-card-link"
              onClick={(e) => {
                e.preventDefault();
                onOpenTrash();
              }}
            >
              Open the Trash
            </a>
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
      {actions?.(said.urgent)}
      {/* One agent: its one line would repeat the totals above, unless it has a quota of its own. */}
      {(data.agents.length > 1 || data.policy.agentQuotas) && (
        <AgentUsageTable
          agents={data.agents}
          totalBytes={summary.totalBytes}
          quotas={data.policy.agentQuotas}
          now={now}
        />
      )}
      {namespaces.length > 0 && (
        <SpaceTreemap api={api} data={data} refreshKey={refreshKey} planKey={planKey} />
      )}

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
                  <td class="path">
                    {/* A link, not a clickable row: reachable by Tab and read as what it does. */}
                    <a
                      href="#/sessions"
                      data-testid="namespace-open"
                      title={`Show the sessions of ${n.namespace}`}
                      onClick={(e) => {
                        e.preventDefault();
                        onOpenNamespace(n.namespace);
                      }}
                    >
                      {n.namespace}
                    </a>
                  </td>
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
          <table class="data largest" data-testid="largest-table">
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
                <tr key={s.id} data-testid="largest-row" data-id={s.id}>
                  <td title={s.path}>
                    <button
                      type="button"
                      class="link"
                      data-testid="largest-open"
                      onClick={() => onOpenSession(s.id)}
                    >
                      <SessionName session={s} file={false} />
                    </button>
                  </td>
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
