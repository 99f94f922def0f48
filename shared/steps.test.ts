// Computations in steps: the stepped sort gives exactly the native sort's order (ties included),
// so a plan made in steps is the plan the policy's tests check; and a large plan pauses all along.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ConfigSchema } from "./config.js";
import { evaluatePolicy, evaluatePolicySteps, type PolicySession } from "./policy.js";
import { sortSteps, type Steps } from "./steps.js";

/** Runs `steps` to the end, counting its pauses. */
function counted<T>(steps: Steps<T>): { value: T; pauses: number } {
  for (let pauses = 0; ; pauses++) {
    const next = steps.next();
    if (next.done) return { value: next.value, pauses };
  }
}

describe("sortSteps", () => {
  it("orders as Array.prototype.sort does, ties in their first order, whatever the run size", () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ key: fc.integer({ min: 0, max: 20 }), n: fc.nat() }), { maxLength: 300 }),
        fc.integer({ min: 1, max: 40 }),
        (items, run) => {
          const byKey = (a: { key: number }, b: { key: number }) => a.key - b.key;
          const { value, pauses } = counted(sortSteps(items, byKey, run));
          expect(value).toEqual([...items].sort(byKey));
          expect(value).not.toBe(items);
          // One pause per run sorted, and more while the runs merge.
          expect(pauses).toBeGreaterThanOrEqual(Math.ceil(items.length / run));
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("a plan in steps", () => {
  it("pauses every few thousand sessions of work, from the first sort to the last list", () => {
    const now = new Date("2026-06-01T00:00:00.000Z");
    const sessions: PolicySession[] = Array.from({ length: 20_000 }, (_, i) => {
      const at = new Date(now.getTime() - (i % 400) * 86_400_000 - i * 1000).toISOString();
      return {
        id: `s${i}`,
        path: `/store/--w${i % 30}--/${i}.jsonl`,
        store: { kind: "pi", root: "/store" },
        namespace: `/w${i % 30}`,
        sizeBytes: 1000 + ((i * 7919) % 50_000),
        createdAt: at,
        modifiedAt: at,
        lastUsedAt: at,
        messageCounts: { user: i % 3, assistant: 1, toolResult: 0, other: 0 },
      };
    });
    const policy = ConfigSchema.parse({
      retention: { maxAgeDays: 200 },
      quota: { maxTotalSizeBytes: 200_000_000, namespaces: [{ pattern: "/w1*", maxSessionCount: 100 }] },
    });
    const input = { sessions, policy, now };
    expect(evaluatePolicy(input).candidates.length).toBeGreaterThan(5_000);
    // A pause every 2,048 sessions of each pass over them: ten passes at least (two sorts, the
    // exemptions, two rules, the quotas' usage and evictions, the kept list, the refusal, the
    // riskiest) make 97 pauses; without them, none.
    const { pauses } = counted(evaluatePolicySteps(input));
    expect(pauses).toBeGreaterThan(100);
  });
});
