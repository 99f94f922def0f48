// Where the space goes: a treemap of agents when there is more than one (picking one shows its
// namespaces), else of namespaces; picking a namespace drills into its largest sessions, and the
// breadcrumb leads back. Agents and namespaces come aggregated with the summary: only the last
// level asks for sessions, and only for the largest few hundred. "Highlight what the policy would
// clean" asks for the policy's plan and splits each tile into what it would clean (highlighted)
// and what it keeps. While agents write, the tiles move with each look and the level picked stays;
// a namespace's sessions and the plan are asked for again only now and then (summary-store.ts).
import { useCallback, useEffect, useMemo, useState } from "preact/hooks";
import type { SummaryResponse } from "../../../shared/api.js";
import type { Plan } from "../../../shared/plan.js";
import type { NamespaceUsage } from "../../../shared/scan-report.js";
import { AGENT_LABELS, type StoreKind } from "../../../shared/session-record.js";
import { sessionTitle } from "../../../shared/session-title.js";
import type { ApiClient } from "../api/client.js";
import { type Tile, Treemap } from "../charts/Treemap.js";

/** Sessions drawn in one namespace: the largest ones; the rest are too small to see. */
const DRILL_LIMIT = 300;

const namespaceTile = (n: NamespaceUsage): Tile => ({
  key: n.namespace,
  // The folder's own name fits in a tile; the tooltip and the table give the full path.
  label: n.namespace.slice(n.namespace.replace(/\/+$/, "").lastIndexOf("/") + 1) || n.namespace,
  title: n.namespace,
  bytes: n.totalBytes,
  count: n.sessionCount,
  lastUsedAt: n.lastUsedAt,
});

interface Crumb {
  label: string;
  testId?: string;
  /** Back to this level (the last crumb is the level shown: no link). */
  go?: () => void;
}

/** Per tile, the bytes and count of the policy's candidates in it. */
type Cleaned = Map<string, { bytes: number; count: number }>;

/**
 * Each tile split in two when the policy would clean part of it: the part that goes (highlighted,
 * "… (would clean)") and the part that stays.
 */
export function splitByPolicy(tiles: readonly Tile[], cleaned: Cleaned): Tile[] {
  return tiles.flatMap((tile) => {
    const gone = cleaned.get(tile.key);
    if (!gone || gone.bytes === 0) return [tile];
    const going: Tile = {
      ...tile,
      key: `${tile.key}\u0000clean`,
      label: `${tile.label} (would clean)`,
      bytes: Math.min(gone.bytes, tile.bytes),
      count: gone.count,
      highlight: true,
    };
    const rest = { ...tile, bytes: tile.bytes - going.bytes, count: tile.count - gone.count };
    return rest.bytes > 0 ? [going, rest] : [going];
  });
}

/** The agent or namespace a tile stands for, its "would clean" part too. */
const baseKey = (key: string) => key.split("\u0000")[0]!;

/** The plan's candidates summed per agent, per namespace and per session id. */
function cleanedBy(plan: Plan, key: (c: Plan["candidates"][number]) => string): Cleaned {
  const sums: Cleaned = new Map();
  for (const c of plan.candidates) {
    const sum = sums.get(key(c)) ?? { bytes: 0, count: 0 };
    sum.bytes += c.sizeBytes;
    sum.count += 1;
    sums.set(key(c), sum);
  }
  return sums;
}

export function SpaceTreemap({
  api,
  data,
  refreshKey,
  planKey,
}: {
  api: Pick<ApiClient, "sessions" | "plan">;
  /** The latest look: the agents' and namespaces' tiles follow it as it moves. */
  data: SummaryResponse;
  /** Moves when a namespace's sessions are to be asked for again (the summary store's `settled`). */
  refreshKey: number;
  /** Moves when the policy's plan is to be asked for again (`planSettled`). */
  planKey: number;
}) {
  const byAgent = data.agents.length > 1;
  const [picked, setPicked] = useState<StoreKind | undefined>(undefined);
  const [namespace, setNamespace] = useState<string | undefined>(undefined);
  const [sessionTiles, setSessionTiles] = useState<Tile[] | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [highlight, setHighlight] = useState(false);
  const [plan, setPlan] = useState<Plan | undefined>(undefined);
  useEffect(() => {
    if (!highlight) return setPlan(undefined);
    api.plan().then(setPlan, (e: Error) => setError(`The policy's plan: ${e.message}`));
  }, [api, highlight, planKey]);

  // The picked agent as the latest summary has it (gone after a rescan: back to every agent).
  const agent = byAgent ? data.agents.find((a) => a.kind === picked) : undefined;
  const atAgents = byAgent && !agent;
  const agentTiles = useMemo(
    () =>
      data.agents.map((a) => ({
        key: a.kind,
        label: AGENT_LABELS[a.kind],
        bytes: a.totalBytes,
        count: a.sessionCount,
        ...(a.lastUsedAt ? { lastUsedAt: a.lastUsedAt } : {}),
      })),
    [data],
  );
  const namespaces = agent ? agent.namespaces : data.namespaces;
  const namespaceTiles = useMemo(() => namespaces.map(namespaceTile), [namespaces]);

  const shownNamespace = atAgents ? undefined : namespace;
  const store = agent?.kind;
  useEffect(() => {
    if (shownNamespace === undefined) return setSessionTiles(undefined);
    api.sessions({ namespace: shownNamespace, store, sort: "size", limit: DRILL_LIMIT }).then(
      (table) =>
        setSessionTiles(
          table.rows.map((r) => ({
            key: r.id,
            // Named as pi names it; the tooltip adds the file's path.
            label: sessionTitle(r).title,
            title: `${sessionTitle(r).title} — ${r.path}`,
            bytes: r.sizeBytes,
            count: 1,
            lastUsedAt: r.lastUsedAt,
          })),
        ),
      (e: Error) => setError(e.message),
    );
  }, [api, shownNamespace, store, refreshKey]);
  // Stable, so a render with new tiles only is not a new handler too (the chart reads the latest one).
  const pickAgent = useCallback((tile: Tile) => {
    setPicked(baseKey(tile.key) as StoreKind);
    setNamespace(undefined);
  }, []);
  const pickNamespace = useCallback((tile: Tile) => setNamespace(baseKey(tile.key)), []);

  // With the toggle on, each level's tiles split by what the policy would clean.
  const split = (tiles: readonly Tile[], key: (c: Plan["candidates"][number]) => string) =>
    plan ? splitByPolicy(tiles, cleanedBy(plan, key)) : tiles;
  const inAgent = (c: Plan["candidates"][number]) => !agent || c.store.kind === agent.kind;

  const agentName = agent && AGENT_LABELS[agent.kind];
  const crumbs: Crumb[] = [
    {
      label: byAgent ? "All agents" : "All namespaces",
      testId: "treemap-back",
      go: () => {
        setPicked(undefined);
        setNamespace(undefined);
      },
    },
  ];
  if (agentName)
    crumbs.push({ label: agentName, testId: "treemap-agent", go: () => setNamespace(undefined) });
  if (shownNamespace !== undefined) crumbs.push({ label: shownNamespace });

  return (
    <section aria-labelledby="space-title">
      <h2 id="space-title">Where the space goes</h2>
      <label class="check">
        <input
          type="checkbox"
          data-testid="treemap-policy"
          checked={highlight}
          onChange={(e) => setHighlight(e.currentTarget.checked)}
        />
        highlight what the policy would clean
      </label>
      {plan && (
        <p class="hint" data-testid="treemap-policy-total">
          The policy would clean {plan.candidates.length.toLocaleString("en-US")} session
          {plan.candidates.length === 1 ? "" : "s"} (highlighted).
        </p>
      )}
      <nav class="breadcrumb" aria-label="Treemap level" data-testid="treemap-breadcrumb">
        {crumbs.map((crumb, i) => (
          <span key={i}>
            {i > 0 && " › "}
            {crumb.go && i < crumbs.length - 1 ? (
              <button type="button" class="link" data-testid={crumb.testId} onClick={crumb.go}>
                {crumb.label}
              </button>
            ) : (
              <span aria-current="location">{crumb.label}</span>
            )}
          </span>
        ))}
      </nav>
      {error && (
        <div class="banner error" role="alert">
          {error}
        </div>
      )}
      {atAgents ? (
        <Treemap
          tiles={split(agentTiles, (c) => c.store.kind)}
          label="Disk used per agent"
          onPick={pickAgent}
        />
      ) : shownNamespace === undefined ? (
        <Treemap
          tiles={split(namespaceTiles, (c) => (inAgent(c) ? c.namespace : ""))}
          label={agentName ? `Disk used per namespace of ${agentName}` : "Disk used per namespace"}
          onPick={pickNamespace}
        />
      ) : sessionTiles ? (
        <Treemap
          tiles={split(sessionTiles, (c) => c.id)}
          label={`Largest sessions of ${shownNamespace}${agentName ? ` (${agentName})` : ""}`}
        />
      ) : (
        <p class="empty">Loading…</p>
      )}
    </section>
  );
}
