import { describe, expect, it } from "vitest";
import type { SessionRow } from "../../../shared/api.js";
import { sortRows } from "./sort-rows.js";

const row = (id: string, patch: Partial<SessionRow>): SessionRow =>
  ({
    id,
    path: `/s/${id}`,
    store: "pi",
    namespace: "/n",
    sizeBytes: 0,
    createdSeconds: 0,
    modifiedSeconds: 0,
    lastUsedSeconds: 0,
    createdAt: "",
    modifiedAt: "",
    lastUsedAt: "",
    messageCount: 0,
    warnings: 0,
    ...patch,
  }) as SessionRow;

const ids = (rows: SessionRow[]) => rows.map((r) => r.id);

describe("sortRows", () => {
  const rows = [
    row("a", { sizeBytes: 30, lastUsedSeconds: 3, path: "/s/B", namespace: "/x" }),
    row("b", { sizeBytes: 10, lastUsedSeconds: 1, path: "/s/a", namespace: "/y" }),
    row("c", { sizeBytes: 30, lastUsedSeconds: 2, path: "/s/c", namespace: "/x" }),
  ];

  it("sorts numbers and times both ways; ties keep the rows' order", () => {
    expect(ids(sortRows(rows, [{ id: "sizeBytes", desc: false }]))).toEqual(["b", "a", "c"]);
    expect(ids(sortRows(rows, [{ id: "sizeBytes", desc: true }]))).toEqual(["a", "c", "b"]);
    expect(ids(sortRows(rows, [{ id: "lastUsedAt", desc: false }]))).toEqual(["b", "c", "a"]);
  });

  it("sorts text without regard to case", () => {
    expect(ids(sortRows(rows, [{ id: "path", desc: false }]))).toEqual(["b", "a", "c"]);
  });

  it("sorts the Session column by the title it shows: names and first messages, then the rest by path", () => {
    const titled = [
      row("t", { path: "/s/1" }),
      row("m", { path: "/s/2", firstMessage: "Why is the build red?" }),
      row("n", { path: "/s/3", name: "  add tests" }),
      row("s", { path: "/s/0" }),
    ];
    expect(ids(sortRows(titled, [{ id: "path", desc: false }]))).toEqual(["n", "m", "s", "t"]);
  });

  it("sorts agents by the name the column shows", () => {
    const agents = [
      row("w", { store: "workspace" }),
      row("p", { store: "pi" }),
      row("c", { store: "claude" }),
    ];
    expect(ids(sortRows(agents, [{ id: "store", desc: false }]))).toEqual(["c", "p", "w"]);
  });

  it("sorts by several columns, each in its own direction", () => {
    expect(
      ids(
        sortRows(rows, [
          { id: "namespace", desc: false },
          { id: "lastUsedAt", desc: true },
        ]),
      ),
    ).toEqual(["a", "c", "b"]);
  });

  it("returns the rows themselves when there is nothing to sort by", () => {
    expect(sortRows(rows, [])).toBe(rows);
    expect(sortRows(rows, [{ id: "unknown", desc: false }])).toBe(rows);
  });
});
