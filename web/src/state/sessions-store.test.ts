import { describe, expect, it } from "vitest";
import type { SessionRow } from "../../../shared/api.js";
import type { ApiClient } from "../api/client.js";
import { createSessionsStore, FIRST_PAGE } from "./sessions-store.js";

type Table = Awaited<ReturnType<ApiClient["sessions"]>>;
const row = (i: number) =>
  ({ id: `s${i}`, path: `/s/${i}`, namespace: "/n", kept: undefined }) as unknown as SessionRow;
const table = (count: number, total: number): Table => ({
  total,
  matching: total,
  roots: [],
  namespaces: ["/n"],
  rows: Array.from({ length: count }, (_, i) => row(i)),
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
