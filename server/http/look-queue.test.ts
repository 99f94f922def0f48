// The next look's merge rule and plan, without a disk or a timer: a table of requests and what the
// next look does after them, and when it is taken.
import { describe, expect, it } from "vitest";
import {
  BATCH_MS,
  type LookRequest,
  merge,
  MIN_UPDATE_INTERVAL_MS,
  type NextLook,
  NO_LOOK,
  type Pacing,
  plan,
  spend,
  UPDATE_BURST_MS,
  UPDATE_SHARE,
} from "./look-queue.js";

/** The next look after `requests`, in order, as plain data. */
const after = (...requests: LookRequest[]) => {
  const next = requests.reduce(merge, NO_LOOK);
  return { ...next, paths: [...next.paths].sort(), reread: [...next.reread].sort() };
};
const look = (part: Partial<ReturnType<typeof after>>) => ({
  walk: false,
  paths: [],
  reread: [],
  awaited: false,
  ...part,
});

describe("merging requests into the next look", () => {
  const cases: Array<[string, LookRequest[], ReturnType<typeof look>]> = [
    ["nothing asked", [], look({})],
    [
      "watched paths add up",
      [{ paths: ["/s/a"] }, { paths: ["/s/b", "/s/a"] }],
      look({ paths: ["/s/a", "/s/b"] }),
    ],
    [
      "a walk owed absorbs the paths seen after it",
      [{ walk: true }, { paths: ["/s/a"] }],
      look({ walk: true }),
    ],
    ["paths seen before a walk go into it", [{ paths: ["/s/a"] }, { walk: true }], look({ walk: true })],
    [
      "a change of ours: a walk the reads wait for, whatever came before",
      [{ paths: ["/s/a"] }, { reread: ["pins"], awaited: true }, { walk: true, awaited: true }],
      look({ walk: true, reread: ["pins"], awaited: true }),
    ],
    [
      "a pin after a walk owed keeps the walk (never overtaken)",
      [{ walk: true }, { reread: ["pins"], awaited: true }],
      look({ walk: true, reread: ["pins"], awaited: true }),
    ],
    [
      "a pin alone walks nothing, and takes the paths seen with it",
      [{ paths: ["/s/a"] }, { reread: ["pins"], awaited: true }],
      look({ paths: ["/s/a"], reread: ["pins"], awaited: true }),
    ],
    [
      "a watched update after a pin does not make it a mere update",
      [{ reread: ["pins"], awaited: true }, { paths: ["/s/a"] }],
      look({ paths: ["/s/a"], reread: ["pins"], awaited: true }),
    ],
    [
      "re-reads add up",
      [{ reread: ["config"] }, { reread: ["ledgers", "config"] }, { reread: ["live"] }],
      look({ reread: ["config", "ledgers", "live"] }),
    ],
    [
      "a rescan asked for while watched: a walk the reads need not wait for",
      [{ paths: ["/s/a"] }, { walk: true }],
      look({ walk: true }),
    ],
  ];
  it.each(cases)("%s", (_, requests, expected) => {
    expect(after(...requests)).toEqual(expected);
  });

  it("never narrows: whatever comes after, what a look was asked stays asked", () => {
    const requests: LookRequest[] = [
      { walk: true },
      { paths: ["/s/a"] },
      { reread: ["pins"] },
      { awaited: true },
      { paths: ["/s/b"] },
      {},
    ];
    // Every order of every pair: the merge holds at least what each side asked.
    for (const a of requests)
      for (const b of requests) {
        const both = merge(merge(NO_LOOK, a), b);
        for (const one of [a, b]) {
          if (one.walk) expect(both.walk).toBe(true);
          if (one.awaited) expect(both.awaited).toBe(true);
          for (const part of one.reread ?? []) expect(both.reread.has(part)).toBe(true);
          // A path is taken in by a walk, or scanned itself.
          for (const path of one.paths ?? []) expect(both.walk || both.paths.has(path)).toBe(true);
        }
      }
  });

  it("leaves the looks it merged unchanged", () => {
    const first = merge(NO_LOOK, { paths: ["/s/a"] });
    merge(first, { paths: ["/s/b"], reread: ["pins"] });
    expect([...first.paths]).toEqual(["/s/a"]);
    expect(first.reread.size).toBe(0);
    expect(NO_LOOK.paths.size + NO_LOOK.reread.size).toBe(0);
  });
});

describe("when the next look is taken", () => {
  const now = 1_000_000;
  const rested: Pacing = { lastStarted: 0, budgetMs: UPDATE_BURST_MS, at: now };
  const facts = (pending: NextLook, more: Partial<Parameters<typeof plan>[0]> = {}) =>
    plan({ pending, running: false, demanded: false, seenAt: now, pacing: rested, now, ...more });
  const paths = merge(NO_LOOK, { paths: ["/s/a"] });

  it("nothing asked, or a look of this generation under way: nothing now", () => {
    expect(facts(NO_LOOK)).toBeUndefined();
    expect(facts(merge(NO_LOOK, { walk: true }), { running: true })).toBeUndefined();
    expect(
      facts(merge(NO_LOOK, { walk: true, awaited: true }), { running: true, demanded: true }),
    ).toBeUndefined();
  });

  it("a look reads wait for: when someone wants it (a read, a page), not before", () => {
    const ours = merge(NO_LOOK, { walk: true, awaited: true });
    expect(facts(ours)).toBeUndefined();
    expect(facts(ours, { demanded: true })).toEqual({ start: ours });
  });

  it("a walk nobody waits for: at once; a re-read: batched, never paced", () => {
    const walk = merge(NO_LOOK, { walk: true, reread: ["pins"] });
    expect(facts(walk)).toEqual({ start: walk });
    const reread = merge(NO_LOOK, { reread: ["config"], paths: ["/s/a"] });
    expect(facts(reread)).toEqual({ at: now + BATCH_MS });
    const spent = spend(rested, now, UPDATE_BURST_MS + 5000);
    expect(facts(reread, { now: now + BATCH_MS, pacing: { ...spent, lastStarted: now } })).toEqual({
      start: reread,
    });
  });

  it("watched paths alone: a batch after the first was seen, at most one update per interval", () => {
    expect(facts(paths)).toEqual({ at: now + BATCH_MS });
    expect(facts(paths, { now: now + BATCH_MS })).toEqual({ start: paths });
    const justUpdated = { ...rested, lastStarted: now };
    expect(facts(paths, { pacing: justUpdated, now: now + BATCH_MS })).toEqual({
      at: now + MIN_UPDATE_INTERVAL_MS,
    });
  });

  it("a stream of updates uses at most its share of the time: an overspent budget is earned back first", () => {
    // Updates of 1.5 s each, back to back: the burst is spent, then the budget is 1 s short.
    const spent = spend(rested, now, UPDATE_BURST_MS + 1000);
    expect(spent.budgetMs).toBe(-1000);
    const at = now + 1000 / UPDATE_SHARE;
    expect(facts(paths, { pacing: spent, seenAt: now })).toEqual({ at });
    // Asked again later, the time it names does not move.
    expect(facts(paths, { pacing: spent, seenAt: now, now: now + 700 })).toEqual({ at });
    expect(facts(paths, { pacing: spent, seenAt: now, now: at })).toEqual({ start: paths });
  });

  it("a quiet spell saves up no more than the burst", () => {
    expect(spend({ lastStarted: 0, budgetMs: 0, at: 0 }, 3_600_000, 0).budgetMs).toBe(UPDATE_BURST_MS);
    expect(spend({ lastStarted: 0, budgetMs: 0, at: 0 }, 1000, 100).budgetMs).toBe(1000 * UPDATE_SHARE - 100);
  });
});
