import { describe, expect, it } from "vitest";
import {
  type FilterableSession,
  filterSessions,
  isEmptyFilter,
  NO_FILTER,
  type SessionFilter,
  SessionFilterSchema,
  sessionMatcher,
} from "./session-filter.js";

const session = (patch: Partial<FilterableSession>): FilterableSession => ({
  path: "/home/u/.pi/agent/sessions/--work-app--/2026-01-01_a.jsonl",
  namespace: "/work/app",
  store: "pi",
  warnings: 0,
  ...patch,
});
const filter = (patch: Partial<SessionFilter>): SessionFilter => ({ ...NO_FILTER, ...patch });

describe("sessionMatcher", () => {
  it.each<[string, Partial<SessionFilter>, Partial<FilterableSession>, boolean]>([
    ["empty filter", {}, {}, true],
    ["text in the path, any case", { text: "2026-01-01_A" }, {}, true],
    ["text in the name", { text: "incident" }, { name: "Big Incident" }, true],
    ["text in the namespace", { text: "WORK/APP" }, {}, true],
    ["text in the first message", { text: "build RED" }, { firstMessage: "Why is the build red?" }, true],
    ["text not in the first message", { text: "green" }, { firstMessage: "Why is the build red?" }, false],
    ["text padded with spaces", { text: "  incident " }, { name: "incident" }, true],
    ["text nowhere", { text: "nope" }, { name: "something" }, false],
    ["namespace exact", { namespace: "/work/app" }, {}, true],
    ["namespace is not a prefix match", { namespace: "/work" }, {}, false],
    ["store", { store: "agentsh" }, {}, false],
    ["store matches", { store: "agentsh" }, { store: "agentsh" }, true],
    ["deletable: not kept", { status: "deletable" }, {}, true],
    ["deletable: kept is out", { status: "deletable" }, { kept: "pinned" }, false],
    ["kept: kept is in", { status: "kept" }, { kept: "active" }, true],
    ["kept: not kept is out", { status: "kept" }, {}, false],
    ["policy: what the policy would clean", { status: "policy" }, { verdict: "maxAgeDays" }, true],
    ["policy: not kept, yet the policy keeps it", { status: "policy" }, { verdict: "within-policy" }, false],
    ["policy: no verdict without a policy", { status: "policy" }, {}, false],
    ["warnings only: none", { warningsOnly: true }, {}, false],
    ["warnings only: some", { warningsOnly: true }, { warnings: 2 }, true],
    ["text in the last prompt", { text: "TAX line" }, { lastPrompt: "and the tax line" }, true],
    ["archived only: not archived", { archivedOnly: true }, {}, false],
    ["archived only: archived", { archivedOnly: true }, { archived: true }, true],
    [
      "every field at once",
      { text: "app", store: "pi", status: "kept", warningsOnly: true },
      { kept: "recent", warnings: 1 },
      true,
    ],
  ])("%s", (_, f, s, expected) => {
    expect(sessionMatcher(filter(f))(session(s))).toBe(expected);
  });
});

describe("filterSessions", () => {
  const rows = [
    session({ path: "/a/1", namespace: "/a" }),
    session({ path: "/b/2", namespace: "/b", kept: "pinned" }),
    session({ path: "/a/3", namespace: "/a", warnings: 1 }),
  ];
  it("an empty filter returns the same array (no copy at 100,000 rows)", () => {
    expect(filterSessions(rows, NO_FILTER)).toBe(rows);
    expect(isEmptyFilter(filter({ text: "   " }))).toBe(true);
    expect(isEmptyFilter(filter({ archivedOnly: true }))).toBe(false);
  });
  it("keeps the order of what it lets through", () => {
    expect(filterSessions(rows, filter({ namespace: "/a" })).map((r) => r.path)).toEqual(["/a/1", "/a/3"]);
  });
});

describe("SessionFilterSchema", () => {
  it("fills absent fields with 'any'", () => {
    expect(SessionFilterSchema.parse({ text: "x" })).toEqual(filter({ text: "x" }));
  });
  it("refuses unknown fields and values", () => {
    expect(SessionFilterSchema.safeParse({ path: "/" }).success).toBe(false);
    expect(SessionFilterSchema.safeParse({ store: "other" }).success).toBe(false);
    expect(SessionFilterSchema.safeParse({ status: "all" }).success).toBe(false);
    expect(SessionFilterSchema.safeParse({ text: "x".repeat(257) }).success).toBe(false);
  });
});
