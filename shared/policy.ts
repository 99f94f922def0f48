// The policy engine: (sessions, policy, pins, active sessions, now) → plan. Pure and deterministic,
// so the CLI, the dashboard's live preview, the pi extension and the tests all get the same answer.
//
// Order of work: first decide what is exempt (active, pinned, protected, recent, last in its
// namespace) — those are never candidates, whatever the rules say. Then the rules, each over what
// is left: the age rule, the never-reopened rule, namespace quotas, agent quotas, the size quota, the
// count quota.
// Quotas remove sessions in the eviction order until usage is below the limit (at the limit is
// already "critical").
//
// The work is written as steps (./steps.ts): every long loop pauses now and then. The CLI and the
// extension run it to the end at once (`evaluatePolicy`); the dashboard's server lets other
// requests in at each pause (`evaluatePolicySteps`), so a plan of 100,000 sessions blocks nothing.
import type { Policy } from "./config.js";
import { formatBytes } from "./format.js";
import { compileGlob } from "./glob.js";
import {
  type Candidate,
  type CandidateRule,
  KEEP_REASONS,
  type KeepReason,
  type Kept,
  type Plan,
  type PlanWarning,
} from "./plan.js";
import { type QuotaState, quotaState } from "./quota.js";
import { STORE_KINDS, type SessionRecord, type StoreKind } from "./session-record.js";
import { sessionTitle } from "./session-title.js";
import { compareSessions, firstN, type SortOrder } from "./sort.js";
import { pacer, runSteps, sortAtOnce, type Sorter, sortSteps, type Steps } from "./steps.js";
import type { VerdictCode } from "./verdict.js";
import { familyMovesTogether } from "./store-kinds.js";

const DAY_MS = 24 * 3600 * 1000;
const MINUTE_MS = 60 * 1000;

/** The record fields the policy reads. */
export type PolicySession = Pick<
  SessionRecord,
  | "id"
  | "path"
  | "store"
  | "namespace"
  | "sizeBytes"
  | "createdAt"
  | "modifiedAt"
  | "lastUsedAt"
  | "messageCounts"
  | "name"
  | "neededBy"
> &
  Partial<Pick<SessionRecord, "firstMessage" | "lastPrompt">> &
  Partial<Pick<SessionRecord, "fingerprint" | "warnings">>;

export interface PolicyInput {
  sessions: readonly PolicySession[];
  policy: Policy;
  /** Manually pinned session ids (`session-retention protect`). */
  pinnedIds?: ReadonlySet<string>;
  /** Sessions a live process uses, by id → how we know ("pi process 123 (marker)"). */
  activeIds?: ReadonlyMap<string, string>;
  /** The quota mode, carried along for the UI and the extension. */
  mode?: Plan["mode"];
  /**
   * Ids chosen by hand (the dashboard's selection): they replace the rules — each one not exempt
   * becomes a `selected` candidate — so a selection is reviewed and executed like any plan.
   */
  selection?: ReadonlySet<string>;
  /**
   * Sessions that cannot be moved whole now, by id → why (server/plan/movable.ts): kept, so that
   * nothing is counted that will not move and a quota picks others in their place.
   */
  cannotMove?: ReadonlyMap<string, string>;
  now: Date;
}

const EVICTION_SORT: Record<Policy["retention"]["eviction"], SortOrder> = {
  lru: "lru",
  "largest-first": "size",
  "oldest-created": "created",
};

/** Most recently used first; the exact reverse of the LRU order, so ties break the same way. */
type Sortable = Parameters<ReturnType<typeof compareSessions>>[0];
const lru = compareSessions("lru");
const byRecency = (a: Sortable, b: Sortable) => lru(b, a);

/** A pair of limits as the config states them: null is "no limit". */
type Limits = { maxTotalSizeBytes: number | null; maxSessionCount: number | null };

const byString = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

const baseName = (path: string) => path.slice(path.lastIndexOf("/") + 1);

const days = (ms: number) => {
  const value = ms / DAY_MS;
  return `${value >= 10 ? Math.floor(value) : Math.floor(value * 10) / 10} day${value === 1 ? "" : "s"}`;
};

/** Usage that a quota measures, kept up to date as sessions are chosen. */
class Usage {
  bytes = 0;
  count = 0;
  add(session: PolicySession, sign: 1 | -1 = 1) {
    this.bytes += sign * session.sizeBytes;
    this.count += sign;
  }
  /** True while usage is at or above a limit (level critical). */
  over(limits: Limits) {
    return (
      (limits.maxTotalSizeBytes !== null && this.bytes >= limits.maxTotalSizeBytes) ||
      (limits.maxSessionCount !== null && this.count >= limits.maxSessionCount)
    );
  }
}

/** Why a session may not be removed, strongest reason first. */
export interface Exemption {
  reason: Exclude<KeepReason, "within-policy">;
  detail: string;
}

/**
 * The sessions no rule and no selection may remove — active, pinned, protected, the parent a fork
 * reads its history from, among the most recent, last in their namespace — each with the strongest
 * reason. The deletion engine asks this
 * again, on fresh data, just before it moves anything.
 */
export function exemptions(
  input: Omit<PolicyInput, "mode">,
  /** `sessions` most recently used first, when the caller has sorted them already. */
  byRecent?: readonly PolicySession[],
): Map<string, Exemption> {
  return runSteps(exemptionSteps(input, byRecent ?? [...input.sessions].sort(byRecency)));
}

/** `exemptions` as steps, of `sessions` sorted most recently used first (and so grouped, if known). */
function* exemptionSteps(
  input: Omit<PolicyInput, "mode">,
  byRecent: readonly PolicySession[],
  grouped?: Map<string, PolicySession[]>,
): Steps<Map<string, Exemption>> {
  const { sessions, now } = input;
  const pause = pacer();
  const { retention, protection, activity } = input.policy;
  const nowMs = now.getTime();
  const exempt = new Map<string, Exemption>();
  const keep = (session: PolicySession, reason: Exemption["reason"], detail: string) => {
    if (!exempt.has(session.id)) exempt.set(session.id, { reason, detail });
  };
  const patterns = protection.protectedPatterns.map((pattern) => ({ pattern, regex: compileGlob(pattern) }));
  const graceMs = activity.graceMinutes * MINUTE_MS;
  const keepForForks = (session: PolicySession) =>
    keep(
      session,
      "fork-parent",
      `${session.neededBy!.length} fork${session.neededBy!.length === 1 ? " reads its" : "s read their"} history from this session's file`,
    );
  for (const session of sessions) {
    const active = input.activeIds?.get(session.id);
    const sinceWrite = nowMs - Date.parse(session.modifiedAt);
    if (active !== undefined) keep(session, "active", active);
    else if (sinceWrite < graceMs)
      keep(
        session,
        "active",
        sinceWrite < 0
          ? "modified in the future (clock skew): treated as in use"
          : `modified ${Math.floor(sinceWrite / MINUTE_MS)} min ago (grace ${activity.graceMinutes} min)`,
      );
    else if (input.pinnedIds?.has(session.id)) keep(session, "pinned", "pinned by you");
    else {
      const match = protectedMatch(session, patterns);
      if (match) keep(session, "protected", `protected by pattern "${match.pattern}" (${match.field})`);
      else if (session.neededBy?.length && !forksChosenToo(session, input.selection)) keepForForks(session);
    }
    if (pause()) yield;
  }
  for (const session of byRecent.slice(0, retention.minKeepRecentCount))
    keep(session, "recent", `among the ${retention.minKeepRecentCount} most recently used`);
  const byNamespace = grouped ?? (yield* groupSteps(byRecent, (s) => s.namespace));
  if (retention.keepLastPerNamespace > 0)
    for (const [namespace, members] of byNamespace)
      for (const session of members.slice(0, retention.keepLastPerNamespace))
        keep(
          session,
          "last-in-namespace",
          retention.keepLastPerNamespace === 1
            ? `the most recently used of ${namespace}`
            : `among the ${retention.keepLastPerNamespace} most recently used of ${namespace}`,
        );

  if (input.cannotMove?.size)
    for (const session of sessions) {
      const why = input.cannotMove.get(session.id);
      if (why !== undefined) keep(session, "cannot-move", why);
    }

  // A session let go with its forks stays after all when one of them stays (down a chain of forks).
  const waiting = sessions.filter(
    (s) => s.neededBy?.length && !exempt.has(s.id) && forksChosenToo(s, input.selection),
  );
  for (let changed = true; changed;) {
    changed = false;
    for (const session of waiting)
      if (!exempt.has(session.id) && session.neededBy!.some((id) => exempt.has(id))) {
        keepForForks(session);
        changed = true;
      }
  }
  return exempt;
}

/**
 * Whether a hand selection takes every fork that reads from a session whose family moves together
 * (`familyMovesTogether`: Codex's) — its family chosen as one: then the session is no longer kept
 * for them. The deletion engine moves the forks first and the session only once they all moved
 * (server/delete/soft-delete.ts). Other kinds keep the rule as it is (a system-trash batch has no order).
 */
export const forksChosenToo = (session: PolicySession, selection: ReadonlySet<string> | undefined) =>
  selection !== undefined &&
  familyMovesTogether(session.store.kind) &&
  (session.neededBy ?? []).every((id) => selection.has(id));

/**
 * What the policy decides, before a plan is made of it: the exempt sessions, and each chosen one
 * as `candidate` makes it (the plan's `Candidate`, or only its rule). A rule's words for a session
 * (`detail`) are made only when asked for: 100,000 of them are a good part of the cost.
 */
function* decide<C>(
  input: PolicyInput,
  candidate: (session: PolicySession, rule: CandidateRule, detail: () => string) => C,
  sort: Sorter,
) {
  const { sessions, policy, now } = input;
  const { quota, retention } = policy;
  const nowMs = now.getTime();
  const evictionOrder = compareSessions(EVICTION_SORT[retention.eviction]);
  const pause = pacer();

  // 1. Exemptions: never candidates, whatever the rules say.
  const byRecent = yield* sort(sessions, byRecency);
  const byNamespace = yield* groupSteps(byRecent, (s) => s.namespace);
  const exempt = yield* exemptionSteps(input, byRecent, byNamespace);

  // 2. Rules, each over the sessions that are neither exempt nor already chosen.
  const chosen = new Map<string, C>();
  const choose = (session: PolicySession, rule: CandidateRule, detail: () => string) => {
    chosen.set(session.id, candidate(session, rule, detail));
  };
  const open = (session: PolicySession) => !exempt.has(session.id) && !chosen.has(session.id);
  // LRU eviction is the reverse of the recency order (ties break the same way): no second sort.
  const inEvictionOrder =
    retention.eviction === "lru" ? [...byRecent].reverse() : yield* sort(sessions, evictionOrder);
  const { selection } = input;
  const byRules = selection === undefined;
  if (selection)
    for (const session of inEvictionOrder) {
      if (selection.has(session.id) && open(session)) choose(session, "selected", () => "chosen by hand");
      if (pause()) yield;
    }

  if (byRules && retention.maxAgeDays !== null) {
    const cutoff = nowMs - retention.maxAgeDays * DAY_MS;
    for (const session of inEvictionOrder) {
      const lastUsed = Date.parse(session.lastUsedAt);
      if (open(session) && lastUsed < cutoff)
        choose(
          session,
          "maxAgeDays",
          () => `last used ${days(nowMs - lastUsed)} ago (limit ${retention.maxAgeDays} days)`,
        );
      if (pause()) yield;
    }
  }

  const rule = retention.neverReopened;
  if (byRules && rule) {
    const cutoff = nowMs - rule.olderThanDays * DAY_MS;
    for (const session of inEvictionOrder) {
      const created = Date.parse(session.createdAt);
      const usedFor = Date.parse(session.lastUsedAt) - created;
      if (
        open(session) &&
        created < cutoff &&
        session.messageCounts.user <= rule.maxUserMessages &&
        usedFor <= rule.activeMinutes * MINUTE_MS
      )
        choose(
          session,
          "neverReopened",
          () =>
            `created ${days(nowMs - created)} ago, ${session.messageCounts.user} user message${session.messageCounts.user === 1 ? "" : "s"}, not used after its first ${rule.activeMinutes} min`,
        );
      if (pause()) yield;
    }
  }

  // Quotas: remove open sessions in eviction order while usage is at or over a limit.
  const warnings: PlanWarning[] = [];
  function* usageOf(list: readonly PolicySession[]): Steps<Usage> {
    const usage = new Usage();
    for (const session of list) {
      if (!chosen.has(session.id)) usage.add(session);
      if (pause()) yield;
    }
    return usage;
  }
  function* evict(
    pool: readonly PolicySession[],
    usage: Usage,
    limits: Limits,
    rule: CandidateRule,
    detail: () => string,
  ): Steps<void> {
    for (const session of pool) {
      if (!usage.over(limits)) return;
      if (pause()) yield;
      if (!open(session)) continue;
      choose(session, rule, detail);
      usage.add(session, -1);
    }
  }

  /** A quota over a group of sessions (a namespace's, an agent's): evicts, or warns it cannot. */
  function* groupQuota(
    members: readonly PolicySession[],
    limits: Limits,
    rule: "namespaceQuota" | "agentQuota",
    who: string,
    why = "",
  ): Steps<void> {
    const usage = yield* usageOf(members);
    yield* evict(
      yield* sort(members, evictionOrder),
      usage,
      limits,
      rule,
      () => `${who} must stay ${describeLimits(limits)}${why}`,
    );
    if (usage.over(limits))
      warnings.push({
        code: rule === "namespaceQuota" ? "namespace-quota-unreachable" : "agent-quota-unreachable",
        message: `quota of ${who} cannot be met: ${describeKept(members, chosen, exempt)}; it must stay ${describeLimits(limits)}`,
      });
  }

  const namespaceQuotas = namespaceQuotasOf(quota.namespaces, [...byNamespace.keys()]);
  for (const { namespace, pattern, limits } of byRules ? namespaceQuotas : [])
    yield* groupQuota(
      byNamespace.get(namespace)!,
      limits,
      "namespaceQuota",
      namespace,
      ` (pattern "${pattern}")`,
    );

  const byAgent = yield* groupSteps(byRecent, (s) => s.store.kind);
  const agentQuotas = agentQuotasOf(quota.agents);
  for (const { agent, limits } of byRules ? agentQuotas : [])
    yield* groupQuota(byAgent.get(agent) ?? [], limits, "agentQuota", `the ${agent} sessions`);

  const remaining = yield* usageOf(sessions);
  if (byRules) {
    yield* evict(
      inEvictionOrder,
      remaining,
      { maxTotalSizeBytes: quota.maxTotalSizeBytes, maxSessionCount: null },
      "maxTotalSizeBytes",
      () => `the total must stay below ${formatBytes(quota.maxTotalSizeBytes ?? 0)}`,
    );
    yield* evict(
      inEvictionOrder,
      remaining,
      { maxTotalSizeBytes: null, maxSessionCount: quota.maxSessionCount },
      "maxSessionCount",
      () => `the count must stay below ${quota.maxSessionCount ?? 0} sessions`,
    );
    if (remaining.over(quota))
      warnings.push({
        code: "quota-unreachable",
        message: `quota cannot be met: ${describeKept(sessions, chosen, exempt)}; the store must stay ${describeLimits(quota)}`,
      });
  }

  return {
    exempt,
    chosen,
    byRecent,
    byNamespace,
    byAgent,
    namespaceQuotas,
    agentQuotas,
    remaining,
    warnings,
  };
}

/**
 * Each session's verdict as the plan would give it — the rule that chose it, or the strongest
 * reason it is kept — without making the plan: what the dashboard's rows need at every look.
 * `verdictsOf(evaluatePolicy(input))` for a plan made by the rules, at a fraction of the cost.
 */
export function policyVerdicts(input: Omit<PolicyInput, "selection">): Map<string, VerdictCode> {
  const { exempt, chosen } = runSteps(decide(input, (_, rule) => rule, sortAtOnce));
  const verdicts = new Map<string, VerdictCode>();
  for (const session of input.sessions) {
    const rule = chosen.get(session.id);
    verdicts.set(
      session.id,
      rule !== undefined ? (rule as VerdictCode) : (exempt.get(session.id)?.reason ?? "within-policy"),
    );
  }
  return verdicts;
}

export function evaluatePolicy(input: PolicyInput): Plan {
  return runSteps(evaluatePolicySteps(input, sortAtOnce));
}

/**
 * `evaluatePolicy` as steps: the same plan, with a pause every few thousand sessions of work —
 * sorts included, unless `sort` is `sortAtOnce` (for a run to the end at once: it is faster).
 */
export function* evaluatePolicySteps(input: PolicyInput, sort: Sorter = sortSteps): Steps<Plan> {
  const { sessions, policy, now } = input;
  const { quota, retention, protection, activity } = policy;
  const thresholds = { infoRatio: quota.infoRatio, warnRatio: quota.warnRatio };
  const {
    exempt,
    chosen,
    byRecent,
    byNamespace,
    byAgent,
    namespaceQuotas,
    agentQuotas,
    remaining,
    warnings,
  } = yield* decide(
    input,
    (session, rule, detail): Candidate => ({
      id: session.id,
      path: session.path,
      // Named as pi names it, for the wizard and the reports (kept sessions are many: not named here).
      title: sessionTitle(session).title,
      store: session.store,
      namespace: session.namespace,
      sizeBytes: session.sizeBytes,
      createdAt: session.createdAt,
      lastUsedAt: session.lastUsedAt,
      ...(session.fingerprint ? { fingerprint: session.fingerprint } : {}),
      rule,
      detail: detail(),
    }),
    sort,
  );

  // 3. The plan.
  const pause = pacer();
  const candidates = [...chosen.values()];
  const kept: Kept[] = [];
  for (const session of byRecent) {
    if (pause()) yield;
    if (chosen.has(session.id)) continue;
    const why = exempt.get(session.id) ?? { reason: "within-policy" as const, detail: "no rule applies" };
    kept.push({
      id: session.id,
      path: session.path,
      store: session.store,
      namespace: session.namespace,
      sizeBytes: session.sizeBytes,
      createdAt: session.createdAt,
      lastUsedAt: session.lastUsedAt,
      ...why,
    });
  }
  const before = totals(sessions);
  const after = { sessionCount: remaining.count, totalBytes: remaining.bytes };
  const refusal = yield* emptiesStoreSteps(sessions, chosen, retention.allowEmptyStore);
  const stateOf = (usage: { totalBytes: number; sessionCount: number }, limits: Limits): QuotaState =>
    quotaState(usage.totalBytes, usage.sessionCount, { ...limits, ...thresholds });
  return {
    evaluatedAt: now.toISOString(),
    mode: input.mode ?? "warn-only",
    eviction: retention.eviction,
    policy: { quota, retention, protection, activity },
    candidates,
    kept,
    riskiest: yield* riskiestSteps(candidates),
    before,
    after,
    bytesToFree: before.totalBytes - after.totalBytes,
    quotaBefore: stateOf(before, quota),
    quotaAfter: stateOf(after, quota),
    namespaceQuotas: namespaceQuotas.map(({ namespace, pattern, limits }) => {
      const members = byNamespace.get(namespace)!;
      return {
        namespace,
        pattern,
        before: stateOf(totals(members), limits),
        after: stateOf(totals(members.filter((s) => !chosen.has(s.id))), limits),
      };
    }),
    agentQuotas: agentQuotas.map(({ agent, limits }) => {
      const members = byAgent.get(agent) ?? [];
      return {
        agent,
        before: stateOf(totals(members), limits),
        after: stateOf(totals(members.filter((s) => !chosen.has(s.id))), limits),
      };
    }),
    warnings,
    ...(refusal ? { refusal } : {}),
  };
}

/**
 * The first protected pattern matching the session's path, file name, namespace or name. Exported
 * so the policy editor counts a pattern's matches exactly as the engine protects.
 */
export function protectedMatch(
  session: Pick<PolicySession, "path" | "namespace" | "name">,
  patterns: readonly { pattern: string; regex: RegExp }[],
): { pattern: string; field: string } | undefined {
  if (patterns.length === 0) return undefined; // the common case, for every session of every plan
  const fields: [string, string | undefined][] = [
    ["path", session.path],
    ["file name", baseName(session.path)],
    ["namespace", session.namespace],
    ["name", session.name],
  ];
  for (const { pattern, regex } of patterns)
    for (const [field, value] of fields)
      if (value !== undefined && regex.test(value)) return { pattern, field };
  return undefined;
}

function* groupSteps<T>(items: readonly T[], key: (item: T) => string): Steps<Map<string, T[]>> {
  const groups = new Map<string, T[]>();
  const pause = pacer();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
    if (pause()) yield;
  }
  return groups;
}

function totals(sessions: readonly PolicySession[]) {
  let totalBytes = 0;
  for (const s of sessions) totalBytes += s.sizeBytes;
  return { sessionCount: sessions.length, totalBytes };
}

function describeLimits(limits: Limits) {
  return [
    limits.maxTotalSizeBytes !== null ? `below ${formatBytes(limits.maxTotalSizeBytes)}` : undefined,
    limits.maxSessionCount !== null ? `below ${limits.maxSessionCount} sessions` : undefined,
  ]
    .filter(Boolean)
    .join(", ");
}

/** Each namespace with a quota, by the first `quota.namespaces` pattern it matches; sorted by name. */
function namespaceQuotasOf(
  quotas: Policy["quota"]["namespaces"],
  namespaces: readonly string[],
): { namespace: string; pattern: string; limits: Limits }[] {
  if (quotas.length === 0) return [];
  const compiled = quotas.map((q) => ({ ...q, regex: compileGlob(q.pattern) }));
  const result = [];
  for (const namespace of [...namespaces].sort(byString)) {
    const match = compiled.find((q) => q.regex.test(namespace));
    if (match) result.push({ namespace, pattern: match.pattern, limits: match });
  }
  return result;
}

/** Each agent with a limit in `quota.agents`, in the order of store kinds. */
function agentQuotasOf(quotas: Policy["quota"]["agents"]): { agent: StoreKind; limits: Limits }[] {
  return STORE_KINDS.flatMap((agent) => {
    const limits = quotas[agent];
    return limits && (limits.maxTotalSizeBytes !== null || limits.maxSessionCount !== null)
      ? [{ agent, limits }]
      : [];
  });
}

/** "sessions that must be kept alone use 23 GB in 40 sessions (active 1, recent 30, …)". */
function describeKept(
  sessions: readonly PolicySession[],
  chosen: Pick<ReadonlyMap<string, unknown>, "has">,
  exempt: ReadonlyMap<string, { reason: KeepReason }>,
): string {
  const left = sessions.filter((s) => !chosen.has(s.id));
  const { totalBytes, sessionCount } = totals(left);
  const byReason = new Map<KeepReason, number>();
  for (const s of left) {
    const reason = exempt.get(s.id)?.reason ?? "within-policy";
    byReason.set(reason, (byReason.get(reason) ?? 0) + 1);
  }
  // In the fixed order of reasons, not the order sessions came in: the plan must not depend on it.
  const parts = KEEP_REASONS.filter((reason) => byReason.has(reason))
    .map((reason) => `${reason} ${byReason.get(reason)}`)
    .join(", ");
  return `sessions that must be kept alone use ${formatBytes(totalBytes)} in ${sessionCount} session${sessionCount === 1 ? "" : "s"} (${parts})`;
}

/**
 * A plan — or a hand-made selection — that would leave a store with no session at all is refused
 * unless the policy allows it.
 */
export function emptiesStore(
  sessions: readonly Pick<PolicySession, "id" | "store">[],
  chosen: Pick<ReadonlySet<string>, "has" | "size">,
  allowEmptyStore: boolean,
): Plan["refusal"] {
  return runSteps(emptiesStoreSteps(sessions, chosen, allowEmptyStore));
}

function* emptiesStoreSteps(
  sessions: readonly Pick<PolicySession, "id" | "store">[],
  chosen: Pick<ReadonlySet<string>, "has" | "size">,
  allowEmptyStore: boolean,
): Steps<Plan["refusal"]> {
  if (allowEmptyStore || chosen.size === 0) return undefined;
  const left = new Map<string, number>();
  const pause = pacer();
  for (const s of sessions) {
    left.set(s.store.root, (left.get(s.store.root) ?? 0) + (chosen.has(s.id) ? 0 : 1));
    if (pause()) yield;
  }
  // Sorted: the message must not depend on the order the sessions came in.
  const emptied = [...left]
    .filter(([, n]) => n === 0)
    .map(([root]) => root)
    .sort();
  if (emptied.length === 0) return undefined;
  return {
    code: "empties-store",
    message: `refused: the plan would remove every session of ${emptied.join(", ")}; keep some (minKeepRecentCount, keepLastPerNamespace) or set retention.allowEmptyStore`,
  };
}

/**
 * The 5 candidates whose loss would hurt most: ranked by the better of their place among the
 * largest and among the most recently used, so the largest and the most recent both lead.
 */
export function riskiest<T extends Parameters<typeof byRecency>[0]>(candidates: readonly T[], n = 5): T[] {
  return runSteps(riskiestSteps(candidates, n));
}

function* riskiestSteps<T extends Parameters<typeof byRecency>[0]>(
  candidates: readonly T[],
  n = 5,
): Steps<T[]> {
  const bySize = compareSessions("size");
  // Only the n first of either order can be among them: their places are counted, nothing is
  // sorted (a plan of 100,000 candidates sorted them twice for five names).
  const finalists = new Set([...firstN(candidates, n, bySize), ...firstN(candidates, n, byRecency)]);
  yield;
  const pause = pacer();
  function* placeIn(candidate: T, compare: (a: T, b: T) => number): Steps<number> {
    let place = 0;
    for (const other of candidates) {
      if (compare(other, candidate) < 0) place += 1;
      if (pause()) yield;
    }
    return place;
  }
  const ranked = [];
  for (const c of finalists) {
    const size = yield* placeIn(c, bySize);
    const recent = yield* placeIn(c, byRecency);
    ranked.push({ c, best: Math.min(size, recent), sum: size + recent });
  }
  return ranked
    .filter((x) => x.best < n)
    .sort((a, b) => a.best - b.best || a.sum - b.sum || byString(a.c.path, b.c.path))
    .slice(0, n)
    .map((x) => x.c);
}
