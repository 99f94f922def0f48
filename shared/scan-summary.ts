// Aggregates of a scan — totals, per-namespace and per-agent usage, top-N, oldest and newest, what
// each store holds that is not a session. Pure functions.
import type { AgentUsage, NamespaceUsage, ScanProblem, ScanReport, ScanSummary } from "./scan-report.js";
import type { SessionRecord, StoreKind, StoreRef } from "./session-record.js";
import { AGENT_LABELS } from "./store-kinds.js";
import { compareSessions, firstN } from "./sort.js";

const brief = (s: SessionRecord) => ({
  id: s.id,
  ...(s.name !== undefined ? { name: s.name } : {}),
  ...(s.lastPrompt !== undefined ? { lastPrompt: s.lastPrompt } : {}),
  ...(s.firstMessage !== undefined ? { firstMessage: s.firstMessage } : {}),
  path: s.path,
  namespace: s.namespace,
  sizeBytes: s.sizeBytes,
  createdAt: s.createdAt,
  lastUsedAt: s.lastUsedAt,
});

/** Namespaces biggest first, ties by name (so the order is stable). */
export const byUsage = (a: NamespaceUsage, b: NamespaceUsage) =>
  b.totalBytes - a.totalBytes || (a.namespace < b.namespace ? -1 : a.namespace > b.namespace ? 1 : 0);

/**
 * Per-namespace sums, one session at a time: of records (`summarizeNamespaces`), or of the columns
 * of the `scan` table's warm way, whose last uses are milliseconds (server/scan/overview.ts).
 */
export class NamespaceTally<T extends string | number> {
  private readonly byName = new Map<string, { sessionCount: number; totalBytes: number; lastUsed: T }>();

  add(namespace: string, bytes: number, lastUsed: T): void {
    const usage = this.byName.get(namespace);
    if (!usage) this.byName.set(namespace, { sessionCount: 1, totalBytes: bytes, lastUsed });
    else {
      usage.sessionCount += 1;
      usage.totalBytes += bytes;
      if (lastUsed > usage.lastUsed) usage.lastUsed = lastUsed;
    }
  }

  /** Biggest first; `iso` gives a last use as its ISO string. */
  usages(iso: (lastUsed: T) => string): NamespaceUsage[] {
    return [...this.byName]
      .map(([namespace, u]) => ({
        namespace,
        sessionCount: u.sessionCount,
        totalBytes: u.totalBytes,
        lastUsedAt: iso(u.lastUsed),
      }))
      .sort(byUsage);
  }
}

/** Per-namespace usage, biggest first (ties by name so the order is stable). */
export function summarizeNamespaces(sessions: readonly SessionRecord[]): NamespaceUsage[] {
  const tally = new NamespaceTally<string>();
  for (const s of sessions) tally.add(s.namespace, s.sizeBytes, s.lastUsedAt);
  return tally.usages((iso) => iso);
}

/**
 * Per agent (store kind): its sessions, bytes and namespaces, biggest first. Every kind of `stores`
 * is there, with no sessions if it has none, so a store that was found but is empty still shows.
 */
export function summarizeAgents(
  stores: readonly StoreRef[],
  sessions: readonly SessionRecord[],
): AgentUsage[] {
  const byKind = new Map<StoreKind, SessionRecord[]>(stores.map((s) => [s.kind, []]));
  for (const s of sessions) {
    const list = byKind.get(s.store.kind);
    if (list) list.push(s);
    else byKind.set(s.store.kind, [s]);
  }
  const agents = [...byKind].map(([kind, list]): AgentUsage => {
    const namespaces = summarizeNamespaces(list);
    let lastUsedAt: string | undefined;
    for (const n of namespaces)
      if (lastUsedAt === undefined || n.lastUsedAt > lastUsedAt) lastUsedAt = n.lastUsedAt;
    return {
      kind,
      sessionCount: list.length,
      totalBytes: namespaces.reduce((sum, n) => sum + n.totalBytes, 0),
      ...(lastUsedAt !== undefined ? { lastUsedAt } : {}),
      namespaces,
    };
  });
  return agents.sort(
    (a, b) => b.totalBytes - a.totalBytes || (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0),
  );
}

/** Totals, top-N largest, oldest and newest, warning counts. Pure: same input, same summary. */
export function summarizeSessions(
  sessions: readonly SessionRecord[],
  problems: readonly ScanProblem[],
  topN = 10,
): ScanSummary {
  const byCreated = compareSessions("created");
  let oldest: SessionRecord | undefined;
  let newest: SessionRecord | undefined;
  let totalBytes = 0;
  let sessionsWithWarnings = 0;
  let warningCount = 0;
  const namespaces = new Set<string>();
  for (const s of sessions) {
    totalBytes += s.sizeBytes;
    namespaces.add(s.namespace);
    if (s.warnings.length > 0) sessionsWithWarnings += 1;
    warningCount += s.warnings.length;
    if (!oldest || byCreated(s, oldest) < 0) oldest = s;
    if (!newest || byCreated(s, newest) > 0) newest = s;
  }
  return {
    sessionCount: sessions.length,
    totalBytes,
    namespaceCount: namespaces.size,
    sessionsWithWarnings,
    warningCount,
    problemCount: problems.length,
    largest: firstN(sessions, topN, compareSessions("size")).map(brief),
    ...(oldest ? { oldest: brief(oldest) } : {}),
    ...(newest ? { newest: brief(newest) } : {}),
  };
}

/** What a scan found in one store: its sessions, and what is there but is not one. */
export interface StoreFinding {
  store: StoreRef;
  sessions: number;
  /** Files, folders, links… in the store that are not sessions of it: left alone, never candidates. */
  notSessions: number;
  /** Their bytes, where known (files; folders that are not sessions are not walked into). */
  notSessionBytes: number;
}

/** Codes of problems that are things in a store other than its sessions. */
const NOT_SESSIONS = new Set<ScanProblem["code"]>(["not-a-session", "symlink", "not-regular"]);

/** Per store, its sessions and what is not one, so "nothing here is a session" can be said plainly. */
export function storeFindings(report: Pick<ScanReport, "stores" | "sessions" | "problems">): StoreFinding[] {
  const counts = report.stores.map(() => 0);
  // A linear search over a handful of stores: no string built per session (there may be 100,000).
  for (const s of report.sessions) {
    const at = report.stores.findIndex((f) => f.root === s.store.root && f.kind === s.store.kind);
    if (at !== -1) counts[at]! += 1;
  }
  return findingsOf(report.stores, counts, report.problems);
}

/** `storeFindings` of stores whose sessions are counted already (`sessions[i]`: of `stores[i]`). */
export function findingsOf(
  stores: readonly StoreRef[],
  sessions: readonly number[],
  problems: readonly ScanProblem[],
): StoreFinding[] {
  const findings = stores.map((store, i) => ({
    store,
    sessions: sessions[i]!,
    notSessions: 0,
    notSessionBytes: 0,
  }));
  for (const problem of problems) {
    if (!NOT_SESSIONS.has(problem.code)) continue;
    const finding = findings.find((f) => problem.path.startsWith(`${f.store.root}/`));
    if (!finding) continue;
    finding.notSessions += 1;
    finding.notSessionBytes += problem.bytes ?? 0;
  }
  return findings;
}

/** One plain sentence for a store holding things that are not its sessions, or undefined. */
export function describeFinding(
  finding: StoreFinding,
  formatSize: (bytes: number) => string,
): string | undefined {
  const { store, sessions, notSessions, notSessionBytes } = finding;
  if (notSessions === 0) return undefined;
  const items = `${notSessions} item${notSessions === 1 ? "" : "s"}${notSessionBytes > 0 ? ` (${formatSize(notSessionBytes)})` : ""}`;
  if (sessions === 0)
    return `Nothing in ${store.root} is a session of a ${AGENT_LABELS[store.kind]} store: ${items} there, all left alone. Is this the right folder?`;
  return `${items} in ${store.root} ${notSessions === 1 ? "is not a session" : "are not sessions"} of this ${AGENT_LABELS[store.kind]} store: left alone, never cleaned.`;
}
