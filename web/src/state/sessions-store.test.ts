import { describe, expect, it } from "vitest";
import type { SessionRow } from "../../../shared/api.js";
import type { ApiClient, LookChange } from "../api/client.js";
import { createSessionsStore, FIRST_PAGE } from "./sessions-store.js";

type Table = Awaited<ReturnType<ApiClient["sessions"]>>;
const row = (i: number, more: Partial<SessionRow> = {}) =>
  ({ id: `s${i}`, path: `/s/${i}`, namespace: "/n", kept: undefined, sizeBytes: 100, ...more }) as SessionRow;
const table = (count: number, total: number, version?: number): Table => ({
  total,
  matching: total,
  roots: [],
  namespaces: ["/n"],
  rows: Array.from({ length: count }, (_, i) => row(i)),
  ...(version === undefined ? {} : { version }),
});
/** A look's change from look `from` to `from + 1` (or `to`). */
const change = (
  from: number,
  sessions: Partial<LookChange["sessions"]> & { total: number },
  to = from + 1,
): LookChange => ({
  version: to,
  from,
  summary: {} as LookChange["summary"],
  sessions: { namespaces: ["/n"], upserted: [], removed: [], ...sessions },
});

/** A fake API whose answers the test releases one at a time, recording what was asked. */
function fakeApi() {
  const asked: Array<Parameters<ApiClient["sessions"]>[0]> = [];
  const pending: Array<(t: Table) => void> = [];
  const api = {
    sessions: (query?: Parameters<ApiClient["sessions"]>[0]) => {
      asked.push(query);
      return new Promise<Table>((resolve) => pending.push(resolve));
    },
  };
  const answer = async (t: Table) => {
    pending.shift()!(t);
    await new Promise((r) => setTimeout(r, 0));
  };
  return { api, asked, answer };
}

describe("the sessions store's first load", () => {
  it("shows the first page at once, then the whole table; only the whole table is complete", async () => {
    const { api, asked, answer } = fakeApi();
    const store = createSessionsStore(api);
    const loading = store.load();
    await answer(table(FIRST_PAGE, 250));
    expect(asked[0]).toEqual({ sort: "lru", limit: FIRST_PAGE });
    expect(store.loaded.value).toBe(true);
    expect(store.complete.value).toBe(false);
    expect(store.rows.value).toHaveLength(FIRST_PAGE);
    expect(store.total.value).toBe(250);
    await answer(table(250, 250));
    await loading;
    expect(asked[1]).toBeUndefined(); // everything
    expect(store.complete.value).toBe(true);
    expect(store.rows.value).toHaveLength(250);
  });

  it("a small store is complete with its first answer, and a reload asks for everything", async () => {
    const { api, asked, answer } = fakeApi();
    const store = createSessionsStore(api);
    const first = store.load();
    await answer(table(3, 3));
    await first;
    expect(store.complete.value).toBe(true);
    expect(asked).toHaveLength(1);
    const again = store.load();
    await answer(table(4, 4));
    await again;
    expect(asked[1]).toBeUndefined();
    expect(store.rows.value).toHaveLength(4);
  });
});

/** A store that holds the complete table of look `version` (rows s0…s(count-1)). */
async function loadedStore(count: number, version: number) {
  const fake = fakeApi();
  const store = createSessionsStore(fake.api);
  const loading = store.load();
  await fake.answer(table(count, count, version));
  await loading;
  return { ...fake, store };
}

describe("the sessions store follows the live look", () => {
  it("applies a change of the look it holds: rows changed in place, new ones added, nothing asked", async () => {
    const { store, asked } = await loadedStore(3, 7);
    const before = store.rows.value;
    store.applyLook(
      change(7, {
        total: 4,
        namespaces: ["/n", "/m"],
        upserted: [row(1, { sizeBytes: 555 }), row(3, { namespace: "/m" })],
        verdicts: { "age:30": "would clean · older than 30 days" },
      }),
    );
    expect(asked).toHaveLength(1); // no reload
    expect(store.version()).toBe(8);
    const rows = store.rows.value;
    expect(rows).not.toBe(before); // a new array: the signal's readers see the change
    expect(rows.map((r) => [r.id, r.sizeBytes, r.namespace])).toEqual([
      ["s0", 100, "/n"],
      ["s1", 555, "/n"],
      ["s2", 100, "/n"],
      ["s3", 100, "/m"],
    ]);
    // The rows that did not change are the very same objects: nothing was decoded again.
    expect(rows[0]).toBe(before[0]);
    expect(rows[2]).toBe(before[2]);
    expect(store.total.value).toBe(4);
    expect(store.namespaces.value).toEqual(["/n", "/m"]);
    expect(store.verdicts.value).toEqual({ "age:30": "would clean · older than 30 days" });
    // And the next change of the chain, through the places the first one made.
    store.applyLook(change(8, { total: 4, upserted: [row(3, { sizeBytes: 9 })] }));
    expect(store.rows.value.map((r) => r.sizeBytes)).toEqual([100, 555, 100, 9]);
    expect(store.version()).toBe(9);
    expect(asked).toHaveLength(1);
  });

  it("removes the ids a change says are gone, keeping the order of the rest", async () => {
    const { store, asked } = await loadedStore(4, 1);
    store.applyLook(
      change(1, {
        total: 3,
        upserted: [row(2, { sizeBytes: 7 }), row(9), row(3, { sizeBytes: 1 })],
        removed: ["s0", "s3"], // s3 both changed and gone: gone
      }),
    );
    expect(store.rows.value.map((r) => `${r.id}:${r.sizeBytes}`)).toEqual(["s1:100", "s2:7", "s9:100"]);
    expect(asked).toHaveLength(1);
    // The places are made anew after a removal: the next change lands on the right rows.
    store.applyLook(change(2, { total: 3, upserted: [row(9, { sizeBytes: 42 })] }));
    expect(store.rows.value.map((r) => `${r.id}:${r.sizeBytes}`)).toEqual(["s1:100", "s2:7", "s9:42"]);
  });

  it("a look it already has is left alone", async () => {
    const { store, asked } = await loadedStore(2, 5);
    const before = store.rows.value;
    store.applyLook(change(4, { total: 2, upserted: [row(0, { sizeBytes: 1 })] }, 5));
    store.applyLook(change(3, { total: 2, removed: ["s0"] }, 4));
    expect(store.rows.value).toBe(before);
    expect(asked).toHaveLength(1);
  });

  it("a change from another look reloads the table once, and catches up with the looks that came meanwhile", async () => {
    const { store, asked, answer } = await loadedStore(2, 3);
    store.applyLook(change(5, { total: 3, upserted: [row(2)] })); // 5 → 6: the table is at 3
    expect(asked).toHaveLength(2);
    expect(asked[1]).toBeUndefined(); // the whole table
    // More looks while it loads: no second load.
    store.applyLook(change(6, { total: 3, upserted: [row(0, { sizeBytes: 1 })] })); // 6 → 7
    store.applyLook(change(7, { total: 3, upserted: [row(1, { sizeBytes: 2 })] })); // 7 → 8
    expect(asked).toHaveLength(2);
    expect(store.loading.value).toBe(true);
    // The table comes at look 7: 6 → 7 is in it already, 7 → 8 is applied to it.
    const seven = table(3, 3, 7);
    await answer(seven);
    expect(asked).toHaveLength(2);
    expect(store.version()).toBe(8);
    expect(store.rows.value.map((r) => r.sizeBytes)).toEqual([100, 2, 100]);
  });

  it("looks that come during the first load are applied to the table it brings, in order", async () => {
    const { api, asked, answer } = fakeApi();
    const store = createSessionsStore(api);
    const loading = store.load();
    store.applyLook(change(10, { total: 250, upserted: [row(0, { sizeBytes: 1 })] }));
    await answer(table(FIRST_PAGE, 250, 10));
    store.applyLook(change(11, { total: 251, upserted: [row(250, { sizeBytes: 3 })] }));
    expect(store.rows.value).toHaveLength(FIRST_PAGE); // the first page: not changed by looks
    await answer(table(250, 250, 10));
    await loading;
    expect(asked).toHaveLength(2);
    expect(store.version()).toBe(12);
    expect(store.rows.value).toHaveLength(251);
    expect(store.rows.value[0]!.sizeBytes).toBe(1);
    expect(store.rows.value.at(-1)!.id).toBe("s250");
  });

  it("a table never loaded is not loaded by a look (the Sessions page loads it when opened)", async () => {
    const { api, asked } = fakeApi();
    const store = createSessionsStore(api);
    store.applyLook(change(1, { total: 1, upserted: [row(0)] }));
    expect(asked).toHaveLength(0);
    expect(store.rows.value).toHaveLength(0);
  });

  it("keeps in the selection only rows that still exist and may still go", async () => {
    const { store } = await loadedStore(4, 1);
    store.selected.value = new Set(["s0", "s1", "s2"]);
    const selection = store.selected.value;
    store.applyLook(change(1, { total: 4, upserted: [row(3, { sizeBytes: 5 })] }));
    expect(store.selected.value).toBe(selection); // nothing of it changed: the same set
    store.applyLook(change(2, { total: 3, upserted: [row(1, { kept: "active" })], removed: ["s0"] }));
    expect([...store.selected.value]).toEqual(["s2"]);
    expect(store.selectedBytes.value).toBe(100);
  });

  it("a change that leaves another count than the look's total reloads the table", async () => {
    const { store, asked } = await loadedStore(2, 1);
    store.applyLook(change(1, { total: 5, upserted: [row(2)] }));
    expect(asked).toHaveLength(2);
  });

  it("asked to load while a load runs, it loads once more after it, however often asked", async () => {
    const { store, asked, answer } = await loadedStore(2, 1);
    const first = store.load();
    const second = store.load();
    const third = store.load();
    expect(second).toBe(third);
    expect(asked).toHaveLength(2);
    // A look comes too: the load after this one brings it, so it is not one more.
    store.applyLook(change(3, { total: 3, upserted: [row(2)] }));
    await answer(table(2, 2, 2));
    await first;
    expect(asked).toHaveLength(3);
    await answer(table(3, 3, 4));
    await second;
    expect(asked).toHaveLength(3);
    expect(store.rows.value).toHaveLength(3);
    expect(store.version()).toBe(4);
  });

  it("after the stream was cut it reloads; looks from before the cut are not applied to what it brings", async () => {
    const { store, asked, answer } = await loadedStore(2, 30);
    const loading = store.load();
    store.applyLook(change(30, { total: 3, upserted: [row(5)] })); // waits for that load
    store.resync();
    await answer(table(2, 2, 30));
    await loading;
    // A restarted server counts its looks anew: the table comes at its look 2.
    await answer(table(2, 2, 2));
    expect(asked).toHaveLength(3); // the load under way, and one after the cut; no more
    expect(store.version()).toBe(2);
    expect(store.rows.value.map((r) => r.id)).toEqual(["s0", "s1"]);
    // A table there was not reloads on no cut.
    const { api, asked: none } = fakeApi();
    createSessionsStore(api).resync();
    expect(none).toHaveLength(0);
  });
});
