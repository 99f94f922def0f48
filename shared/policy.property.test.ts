// Property-based tests of the policy engine: thousands of random stores and policies, and the
// safety promises that must hold for every one of them. The expected sets are computed here,
// independently of the engine, from the rules as docs/config.md ("How a plan is made") states them.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ConfigSchema, EVICTION_ORDERS, type Policy } from "./config.js";
import { CANDIDATE_RULES, KEEP_REASONS, type Plan, PlanSchema } from "./plan.js";
import { evaluatePolicy, type PolicySession, policyVerdicts, riskiest } from "./policy.js";
import { verdictsOf } from "./verdict.js";
import { quotaState } from "./quota.js";
import { compareSessions } from "./sort.js";

const NOW = new Date("2026-06-01T12:00:00.000Z");
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const RUNS = { numRuns: 400 };

const NAMESPACES = ["/work/app", "/work/lib", "/play", "/srv/data", "/tmp/x", "/home/me/important"];
const PATTERNS = ["*important*", "/work/*", "*/s1/*", "*[0-2].jsonl", "keep?*"];

/** A time as minutes before NOW: from a few minutes (inside any grace window) to two years. */
const minutesAgo = fc.oneof(
  fc.integer({ min: -30, max: 30 }), // around now, the future included (clock skew)
  fc.integer({ min: 0, max: 2 * 365 * 24 * 60 }),
  fc.constantFrom(60, 24 * 60, 200 * 24 * 60), // shared values, so ties happen
);

const sessionArb = fc.record({
  store: fc.constantFrom("/s1", "/s2", "/s3"),
  namespace: fc.constantFrom(...NAMESPACES),
  sizeBytes: fc.oneof(fc.integer({ min: 0, max: 10_000_000 }), fc.constantFrom(0, 1000, 5_000_000)),
  createdAgo: minutesAgo,
  usedAgo: minutesAgo,
  modifiedSameAsUsed: fc.boolean(),
  modifiedAgo: minutesAgo,
  user: fc.integer({ min: 0, max: 5 }),
  name: fc.option(fc.constantFrom("fix bug", "important notes", "keep this", ""), { nil: undefined }),
});

const storeArb = fc.array(sessionArb, { minLength: 0, maxLength: 60 }).map((raw) =>
  raw.map((r, i): PolicySession => {
    const at = (ago: number) => new Date(NOW.getTime() - ago * MINUTE).toISOString();
    return {
      id: `id-${i}`,
      path: `${r.store}/${r.namespace.replaceAll("/", "-")}/${i}.jsonl`,
      store: { kind: "pi", root: r.store },
      namespace: r.namespace,
      sizeBytes: r.sizeBytes,
      createdAt: at(r.createdAgo),
      lastUsedAt: at(r.usedAgo),
      modifiedAt: at(r.modifiedSameAsUsed ? r.usedAgo : r.modifiedAgo),
      messageCounts: { user: r.user, assistant: r.user, toolResult: 0, other: 0 },
      ...(r.name !== undefined ? { name: r.name } : {}),
    };
  }),
);

const limit = (max: number) => fc.option(fc.integer({ min: 1, max }), { nil: null });

const policyArb: fc.Arbitrary<Policy> = fc
  .record({
    maxTotalSizeBytes: limit(200_000_000),
    maxSessionCount: limit(60),
    info: fc.integer({ min: 1, max: 98 }),
    warnGap: fc.integer({ min: 1, max: 50 }),
    namespaces: fc.array(
      fc.record({
        pattern: fc.constantFrom("/work/*", "/play", "*", "/srv/*"),
        maxTotalSizeBytes: limit(50_000_000),
        maxSessionCount: limit(15),
      }),
      { maxLength: 2 },
    ),
    maxAgeDays: fc.option(fc.integer({ min: 1, max: 400 }), { nil: null }),
    minKeepRecentCount: fc.integer({ min: 0, max: 10 }),
    keepLastPerNamespace: fc.integer({ min: 0, max: 2 }),
    eviction: fc.constantFrom(...EVICTION_ORDERS),
    neverReopened: fc.option(
      fc.record({
        olderThanDays: fc.integer({ min: 1, max: 100 }),
        maxUserMessages: fc.integer({ min: 0, max: 3 }),
        activeMinutes: fc.integer({ min: 0, max: 120 }),
      }),
      { nil: null },
    ),
    allowEmptyStore: fc.boolean(),
    protectedPatterns: fc.subarray(PATTERNS),
    graceMinutes: fc.integer({ min: 0, max: 30 }),
  })
  .map((p) =>
    ConfigSchema.parse({
      quota: {
        maxTotalSizeBytes: p.maxTotalSizeBytes,
        maxSessionCount: p.maxSessionCount,
        infoRatio: p.info / 100,
        warnRatio: Math.min(1, (p.info + p.warnGap) / 100),
        namespaces: p.namespaces,
      },
      retention: {
        maxAgeDays: p.maxAgeDays,
        minKeepRecentCount: p.minKeepRecentCount,
        keepLastPerNamespace: p.keepLastPerNamespace,
        eviction: p.eviction,
        neverReopened: p.neverReopened,
        allowEmptyStore: p.allowEmptyStore,
      },
      protection: { protectedPatterns: p.protectedPatterns },
      activity: { graceMinutes: p.graceMinutes },
    }),
  );

/** A store, a policy, and random pins and active sessions among the store's ids. */
const caseArb = storeArb.chain((sessions) =>
  fc.record({
    sessions: fc.constant(sessions),
    policy: policyArb,
    pinned: fc.subarray(sessions.map((s) => s.id)),
    active: fc.subarray(sessions.map((s) => s.id)),
    shuffled: fc.shuffledSubarray(sessions, { minLength: sessions.length, maxLength: sessions.length }),
  }),
);

function evaluate(c: { sessions: PolicySession[]; policy: Policy; pinned: string[]; active: string[] }) {
  return evaluatePolicy({
    sessions: c.sessions,
    policy: c.policy,
    pinnedIds: new Set(c.pinned),
    activeIds: new Map(c.active.map((id) => [id, "test"])),
    now: NOW,
  });
}

// An independent reading of the glob syntax for the few patterns above.
function globRegex(pattern: string): RegExp {
  let source = "";
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (ch === "*") source += ".*";
    else if (ch === "?") source += ".";
    else if (ch === "[") {
      const end = pattern.indexOf("]", i);
      source += pattern.slice(i, end + 1);
      i = end;
    } else source += ch.replace(/[.+^${}()|\\/]/g, "\\$&");
  }
  return new RegExp(`^${source}$`, "s");
}

/** Every session the engine must never make a candidate, computed from the rules. */
function mustKeep(c: { sessions: PolicySession[]; policy: Policy; pinned: string[]; active: string[] }) {
  const keep = new Set<string>();
  const graceMs = c.policy.activity.graceMinutes * MINUTE;
  const patterns = c.policy.protection.protectedPatterns.map(globRegex);
  for (const s of c.sessions) {
    const fields = [s.path, s.path.slice(s.path.lastIndexOf("/") + 1), s.namespace, s.name].filter(
      (f): f is string => f !== undefined,
    );
    if (
      c.active.includes(s.id) ||
      NOW.getTime() - Date.parse(s.modifiedAt) < graceMs ||
      c.pinned.includes(s.id) ||
      patterns.some((re) => fields.some((f) => re.test(f)))
    )
      keep.add(s.id);
  }
  const recentFirst = [...c.sessions].sort((a, b) => compareSessions("lru")(b, a));
  for (const s of recentFirst.slice(0, c.policy.retention.minKeepRecentCount)) keep.add(s.id);
  const seen = new Map<string, number>();
  for (const s of recentFirst) {
    const n = seen.get(s.namespace) ?? 0;
    if (n < c.policy.retention.keepLastPerNamespace) keep.add(s.id);
    seen.set(s.namespace, n + 1);
  }
  return keep;
}

const EVICTION_SORT = { lru: "lru", "largest-first": "size", "oldest-created": "created" } as const;
const sum = (list: readonly { sizeBytes: number }[]) => list.reduce((t, s) => t + s.sizeBytes, 0);

describe("policy engine properties", () => {
  it("never makes an active, pinned, protected, recent or last-in-namespace session a candidate", () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const plan = evaluate(c);
        const keep = mustKeep(c);
        for (const candidate of plan.candidates) expect(keep.has(candidate.id)).toBe(false);
      }),
      RUNS,
    );
  });

  it("puts every session in exactly one of candidates and kept, and the totals add up", () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const plan = evaluate(c);
        const ids = [...plan.candidates, ...plan.kept].map((s) => s.id).sort();
        expect(ids).toEqual(c.sessions.map((s) => s.id).sort());
        expect(plan.bytesToFree).toBe(sum(plan.candidates));
        expect(plan.before).toEqual({ sessionCount: c.sessions.length, totalBytes: sum(c.sessions) });
        expect(plan.after).toEqual({ sessionCount: plan.kept.length, totalBytes: sum(plan.kept) });
      }),
      RUNS,
    );
  });

  it("gives every candidate a rule and every kept session a reason that is true", () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const plan = evaluate(c);
        const keep = mustKeep(c);
        for (const candidate of plan.candidates) {
          expect(CANDIDATE_RULES).toContain(candidate.rule);
          expect(candidate.detail).not.toBe("");
        }
        for (const kept of plan.kept) {
          expect(KEEP_REASONS).toContain(kept.reason);
          // A reason other than "within policy" is an exemption, and only exempt sessions get one.
          expect(kept.reason !== "within-policy").toBe(keep.has(kept.id));
          if (kept.reason === "pinned") expect(c.pinned).toContain(kept.id);
        }
      }),
      RUNS,
    );
  });

  it("is deterministic, whatever the order the sessions come in", () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const plan = evaluate(c);
        expect(evaluate(c)).toEqual(plan);
        expect(evaluate({ ...c, sessions: c.shuffled })).toEqual(plan);
      }),
      RUNS,
    );
  });

  it("leaves the store below every quota, or says why it cannot", () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const plan = evaluate(c);
        const { quota } = c.policy;
        const over =
          (quota.maxTotalSizeBytes !== null && plan.after.totalBytes >= quota.maxTotalSizeBytes) ||
          (quota.maxSessionCount !== null && plan.after.sessionCount >= quota.maxSessionCount);
        const warned = plan.warnings.some((w) => w.code === "quota-unreachable");
        expect(warned).toBe(over);
        // When it cannot, nothing that could have gone is left.
        if (over) expect(plan.kept.filter((k) => k.reason === "within-policy")).toEqual([]);
        for (const ns of plan.namespaceQuotas) {
          const nsOver = ns.after.level === "critical";
          const nsWarned = plan.warnings.some(
            (w) =>
              w.code === "namespace-quota-unreachable" && w.message.includes(`quota of ${ns.namespace} `),
          );
          expect(nsWarned).toBe(nsOver);
          if (nsOver)
            expect(
              plan.kept.filter((k) => k.namespace === ns.namespace && k.reason === "within-policy"),
            ).toEqual([]);
        }
      }),
      RUNS,
    );
  });

  it("removes by quota in eviction order, and no more than needed", () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const plan = evaluate(c);
        const order = compareSessions(EVICTION_SORT[c.policy.retention.eviction]);
        for (const rule of ["maxTotalSizeBytes", "maxSessionCount"] as const) {
          const chosen = plan.candidates.filter((x) => x.rule === rule);
          expect(chosen).toEqual([...chosen].sort(order));
        }
        // Namespace quotas work namespace by namespace, each in eviction order.
        for (const ns of plan.namespaceQuotas) {
          const chosen = plan.candidates.filter(
            (x) => x.rule === "namespaceQuota" && x.namespace === ns.namespace,
          );
          expect(chosen).toEqual([...chosen].sort(order));
        }
        // Without the last session the size rule chose, the total would still be at or over the limit.
        const bySize = plan.candidates.filter((x) => x.rule === "maxTotalSizeBytes");
        const last = bySize.at(-1);
        if (last)
          expect(plan.after.totalBytes + last.sizeBytes).toBeGreaterThanOrEqual(
            c.policy.quota.maxTotalSizeBytes!,
          );
        const byCount = plan.candidates.filter((x) => x.rule === "maxSessionCount");
        if (byCount.length > 0)
          expect(plan.after.sessionCount + 1).toBeGreaterThanOrEqual(c.policy.quota.maxSessionCount!);
      }),
      RUNS,
    );
  });

  it("chooses by age only what is older than maxAgeDays, and keeps none that is within policy", () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const plan = evaluate(c);
        const { maxAgeDays } = c.policy.retention;
        const isOld = (s: { lastUsedAt: string }) =>
          maxAgeDays !== null && Date.parse(s.lastUsedAt) < NOW.getTime() - maxAgeDays * DAY;
        for (const candidate of plan.candidates.filter((x) => x.rule === "maxAgeDays"))
          expect(isOld(candidate)).toBe(true);
        for (const kept of plan.kept.filter((k) => k.reason === "within-policy"))
          expect(isOld(kept)).toBe(false);
      }),
      RUNS,
    );
  });

  it("refuses exactly the plans that would empty a store", () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const plan = evaluate(c);
        const roots = new Set(c.sessions.map((s) => s.store.root));
        const keptRoots = new Set(plan.kept.map((k) => k.store.root));
        const empties = [...roots].some((root) => !keptRoots.has(root));
        expect(plan.refusal !== undefined).toBe(empties && !c.policy.retention.allowEmptyStore);
      }),
      RUNS,
    );
  });

  it("is valid against its schema, with quota levels as quotaState gives them", () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const plan: Plan = evaluate(c);
        expect(() => PlanSchema.parse(plan)).not.toThrow();
        const { quota } = c.policy;
        expect(plan.quotaBefore).toEqual(quotaState(plan.before.totalBytes, plan.before.sessionCount, quota));
        expect(plan.quotaAfter).toEqual(quotaState(plan.after.totalBytes, plan.after.sessionCount, quota));
        expect(plan.riskiest.length).toBe(Math.min(5, plan.candidates.length));
      }),
      RUNS,
    );
  });

  it("names as riskiest the candidates first by the better of their places among the largest and the most recent", () => {
    // The definition, by sorting: what riskiest() gives without sorting 100,000 candidates twice.
    const byDefinition = (candidates: readonly PolicySession[], n: number) => {
      const place = (order: (a: PolicySession, b: PolicySession) => number) =>
        new Map([...candidates].sort(order).map((c, i) => [c, i]));
      const bySize = place(compareSessions("size"));
      const byRecent = place((a, b) => compareSessions("lru")(b, a));
      return [...candidates]
        .map((c) => ({
          c,
          best: Math.min(bySize.get(c)!, byRecent.get(c)!),
          sum: bySize.get(c)! + byRecent.get(c)!,
        }))
        .sort((a, b) => a.best - b.best || a.sum - b.sum || (a.c.path < b.c.path ? -1 : 1))
        .slice(0, n)
        .map((x) => x.c.id);
    };
    fc.assert(
      fc.property(storeArb, fc.integer({ min: 0, max: 8 }), (sessions, n) => {
        expect(riskiest(sessions, n).map((c) => c.id)).toEqual(byDefinition(sessions, n));
      }),
      RUNS,
    );
  });

  it("gives each session the verdict its plan gives, without making the plan", () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const verdicts = policyVerdicts({
          sessions: c.sessions,
          policy: c.policy,
          pinnedIds: new Set(c.pinned),
          activeIds: new Map(c.active.map((id) => [id, "test"])),
          now: NOW,
        });
        expect(verdicts).toEqual(verdictsOf(evaluate(c)));
        expect(verdicts.size).toBe(c.sessions.length);
      }),
      RUNS,
    );
  });
});
