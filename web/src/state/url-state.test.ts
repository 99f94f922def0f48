import { describe, expect, it } from "vitest";
import { NO_FILTER } from "../../../shared/session-filter.js";
import { DEFAULT_SORTING, fromParams, toParams } from "./url-state.js";

describe("the Sessions page's address", () => {
  it("round-trips every filter and a multi-column sort", () => {
    const filters = {
      text: "fix the test",
      namespace: "/work/a b",
      store: "claude",
      status: "kept",
      warningsOnly: true,
      archivedOnly: true,
    } as const;
    const sorting = [
      { id: "sizeBytes", desc: true },
      { id: "path", desc: false },
    ];
    const params = toParams(filters, sorting);
    expect(params.get("sort")).toBe("-sizeBytes,path");
    expect(fromParams(new URLSearchParams(params.toString()))).toEqual({ filters, sorting });
  });

  it("writes nothing for the defaults, and reads the defaults from nothing", () => {
    expect(toParams(NO_FILTER, DEFAULT_SORTING).toString()).toBe("");
    expect(fromParams(new URLSearchParams(""))).toEqual({ filters: NO_FILTER, sorting: DEFAULT_SORTING });
  });

  it("drops values it does not know, keeping the rest", () => {
    const read = fromParams(
      new URLSearchParams("agent=emacs&status=gone&q=api&sort=-nope,-sizeBytes,sizeBytes"),
    );
    expect(read.filters).toEqual({ ...NO_FILTER, text: "api" });
    expect(read.sorting).toEqual([{ id: "sizeBytes", desc: true }]);
    expect(fromParams(new URLSearchParams("sort=bogus")).sorting).toEqual(DEFAULT_SORTING);
  });
});
