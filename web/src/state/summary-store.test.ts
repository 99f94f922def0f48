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

  it("`settled` moves at once after a refresh, and at most every FOLLOW_MS while looks come", async () => {
    const { store, refreshWith } = storeOver();
    await refreshWith(summary(100, 1));
    expect(store.settled.value).toBe(1);
    // Looks four times a second for 10 s: `settled` moves at the end of each window, not 40 times.
    for (let i = 0; i < 40; i++) {
      store.applyLook(look(2 + i, 100 + i));
      await vi.advanceTimersByTimeAsync(250);
    }
    const moves = store.settled.value - 1;
    expect(moves).toBeGreaterThanOrEqual(3);
    expect(moves).toBeLessThanOrEqual(Math.ceil(10_000 / FOLLOW_MS));
    // The last look is followed too, once its window is over.
    const before = store.settled.value;
    await vi.advanceTimersByTimeAsync(FOLLOW_MS);
    expect(store.settled.value).toBe(before + 1);
    await vi.advanceTimersByTimeAsync(10 * FOLLOW_MS);
    expect(store.settled.value).toBe(before + 1);
    // A quiet while later, one look moves it at once.
    store.applyLook(look(100, 1));
    expect(store.settled.value).toBe(before + 2);
    // A refresh moves it at once, whatever the window.
    await refreshWith(summary(5, 101));
    expect(store.settled.value).toBe(before + 3);
  });

  it("`planSettled` does the same at most every PLAN_FOLLOW_MS: the plan is costly to make", async () => {
    const { store, refreshWith } = storeOver();
    await refreshWith(summary(100, 1));
    expect(store.planSettled.value).toBe(1);
    // Looks every second for two minutes: a handful of moves, not 120.
    for (let i = 0; i < 120; i++) {
      store.applyLook(look(2 + i, 100 + i));
      await vi.advanceTimersByTimeAsync(1000);
    }
    const moves = store.planSettled.value - 1;
    expect(moves).toBeGreaterThanOrEqual(3);
    expect(moves).toBeLessThanOrEqual(Math.ceil(120_000 / PLAN_FOLLOW_MS));
    expect(store.settled.value - 1).toBeGreaterThan(4 * moves); // the cheap ones follow more closely
    await refreshWith(summary(5, 500));
    expect(store.planSettled.value).toBe(moves + 2);
  });
});
