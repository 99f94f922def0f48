import { describe, expect, it } from "vitest";
import { clickRow, selectAll } from "./selection.js";

const rows = [{ id: "a" }, { id: "b" }, { id: "c", kept: "pinned" }, { id: "d" }, { id: "e" }];
const ids = (set: Set<string>) => [...set].sort();

describe("table selection", () => {
  it("a click toggles one row; a kept row never joins", () => {
    const one = clickRow(new Set(), rows, rows[1]!, undefined, false);
    expect(ids(one)).toEqual(["b"]);
    expect(ids(clickRow(one, rows, rows[1]!, "b", false))).toEqual([]);
    expect(ids(clickRow(one, rows, rows[2]!, "b", false))).toEqual(["b"]);
  });

  it("a kept row the drawer added with its family (a fork parent) is taken out by a click", () => {
    expect(ids(clickRow(new Set(["b", "c"]), rows, rows[2]!, "b", false))).toEqual(["b"]);
  });

  it("shift-click selects the range from the anchor in the shown order, skipping kept rows", () => {
    const start = clickRow(new Set(), rows, rows[0]!, undefined, false);
    expect(ids(clickRow(start, rows, rows[4]!, "a", true))).toEqual(["a", "b", "d", "e"]);
    // Backwards works too.
    const fromEnd = clickRow(new Set(["e"]), rows, rows[1]!, "e", true);
    expect(ids(fromEnd)).toEqual(["b", "d", "e"]);
  });

  it("shift-click from a deselected anchor clears the range", () => {
    const all = new Set(["a", "b", "d", "e"]);
    expect(ids(clickRow(all, rows, rows[3]!, "c", true))).toEqual(["a", "b", "e"]);
    // An anchor no longer shown (filtered away): a plain toggle.
    expect(ids(clickRow(new Set(["a", "b", "d"]), rows, rows[0]!, "x", true))).toEqual(["b", "d"]);
  });

  it("select all takes every selectable shown row", () => {
    expect(ids(selectAll(new Set(["z"]), rows))).toEqual(["a", "b", "d", "e", "z"]);
  });
});
