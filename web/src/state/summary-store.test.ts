import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { SummaryResponse } from "../../../shared/api.js";
import type { LookChange } from "../api/client.js";
import { createSummaryStore, FOLLOW_MS, PLAN_FOLLOW_MS } from "./summary-store.js";

const summary = (totalBytes: number, version?: number) =>
  ({ summary: { totalBytes }, ...(version === undefined ? {} : { version }) }) as unknown as SummaryResponse;
const look = (version: number, totalBytes: number) =>
  ({ version, from: version - 1, summary: summary(totalBytes, version) }) as LookChange;

/** A store whose summary answers the test releases one at a time. */
function storeOver() {
  const pending: Array<(s: SummaryResponse) => void> = [];
  const store = createSummaryStore({
    summary: () => new Promise<SummaryResponse>((resolve) => pending.push(resolve)),
    startScan: async () => true,
    followScan: async () => {},
  });
  const answer = async (s: SummaryResponse) => {
    pending.shift()!(s);
    await vi.advanceTimersByTimeAsync(0);
  };
  /** A refresh answered with `s`, to its end. */
  const refreshWith = async (s: SummaryResponse) => {
    const refreshing = store.refresh();
    await answer(s);
    await refreshing;
  };
  return { store, answer, refreshWith };
}

/** Looks `every` ms, `count` of them: how many times `counter` moved meanwhile. */
async function movesWhileLooking(
  store: ReturnType<typeof createSummaryStore>,
  counter: "settled" | "planSettled",
  every: number,
  count: number,
) {
  const before = store[counter].value;
  for (let i = 0; i < count; i++) {
    store.applyLook(look(1000 + i, 100 + i));
    await vi.advanceTimersByTimeAsync(every);
  }
  return store[counter].value - before;
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe("the summary store follows the live look", () => {
  it("each look's summary replaces the data; an older look does not", async () => {
    const { store, refreshWith } = storeOver();
    await refreshWith(summary(100, 3));
    store.applyLook(look(4, 150));
    expect(store.data.value?.summary.totalBytes).toBe(150);
    store.applyLook(look(3, 120));
    store.applyLook(look(4, 130));
    expect(store.data.value?.summary.totalBytes).toBe(150);
  });

  it("a refresh during which a look came keeps the look, not its own older answer", async () => {
    const { store, answer, refreshWith } = storeOver();
    const loading = store.refresh();
    store.applyLook(look(8, 800));
    await answer(summary(700, 7));
    await loading;
    expect(store.data.value?.summary.totalBytes).toBe(800);
    // Without a look meanwhile, the answer is taken.
    await refreshWith(summary(900, 9));
    expect(store.data.value?.summary.totalBytes).toBe(900);
  });

  it("after a cut the stream's looks are taken whatever their number (a restarted server counts anew)", async () => {
    const { store, refreshWith } = storeOver();
    await refreshWith(summary(100, 40));
    store.applyLook(look(2, 50));
    expect(store.data.value?.summary.totalBytes).toBe(100);
    store.forgetVersion();
    store.applyLook(look(2, 50));
    expect(store.data.value?.summary.totalBytes).toBe(50);
  });

  // The trash, growth and a namespace's sessions follow `settled`; the plan, costlier, `planSettled`.
  for (const [counter, ms] of [
    ["settled", FOLLOW_MS],
    ["planSettled", PLAN_FOLLOW_MS],
  ] as const)
    it(`\`${counter}\` moves at once after a refresh, and at most every ${ms} ms while looks come`, async () => {
      const { store, refreshWith } = storeOver();
      await refreshWith(summary(100, 1));
      expect(store[counter].value).toBe(1);
      // Looks four times per window for ten windows: it moves at the end of each, not 40 times.
      const moves = await movesWhileLooking(store, counter, ms / 4, 40);
      expect(moves).toBeGreaterThanOrEqual(9);
      expect(moves).toBeLessThanOrEqual(10);
      // The last look is followed too, once its window is over; then nothing more.
      const before = store[counter].value;
      await vi.advanceTimersByTimeAsync(ms);
      expect(store[counter].value).toBeLessThanOrEqual(before + 1);
      const after = store[counter].value;
      await vi.advanceTimersByTimeAsync(10 * ms);
      expect(store[counter].value).toBe(after);
      expect(after - 1).toBe(10); // one move per window, the last look's included
      // A quiet while later, one look moves it at once.
      store.applyLook(look(2000, 1));
      expect(store[counter].value).toBe(after + 1);
      // A refresh moves it at once, whatever the window.
      await refreshWith(summary(5, 2001));
      expect(store[counter].value).toBe(after + 2);
    });
});
