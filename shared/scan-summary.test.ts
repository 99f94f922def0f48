import { describe, expect, it } from "vitest";
import { summarizeAgents } from "./scan-summary.js";
import type { SessionRecord, StoreKind } from "./session-record.js";

const PI = { kind: "pi", root: "/pi" } as const;
const CLAUDE = { kind: "claude", root: "/claude" } as const;
const AGENTSH = { kind: "agentsh", root: "/agentsh" } as const;

/** Only what the aggregate reads. */
const session = (kind: StoreKind, namespace: string, sizeBytes: number, lastUsedAt: string) =>
  ({ store: kind === "pi" ? PI : CLAUDE, namespace, sizeBytes, lastUsedAt }) as SessionRecord;

describe("summarizeAgents", () => {
  it("sums each agent's sessions and namespaces, biggest first; a store without sessions still shows", () => {
    const agents = summarizeAgents(
      [PI, CLAUDE, AGENTSH],
      [
        session("pi", "/work/a", 10, "2026-01-01T00:00:00.000Z"),
        session("claude", "/work/a", 30, "2026-01-03T00:00:00.000Z"),
        session("claude", "/work/b", 5, "2026-01-02T00:00:00.000Z"),
        session("pi", "/work/a", 15, "2026-01-04T00:00:00.000Z"),
      ],
    );
    expect(agents).toEqual([
      {
        kind: "claude",
        sessionCount: 2,
        totalBytes: 35,
        lastUsedAt: "2026-01-03T00:00:00.000Z",
        namespaces: [
          { namespace: "/work/a", sessionCount: 1, totalBytes: 30, lastUsedAt: "2026-01-03T00:00:00.000Z" },
          { namespace: "/work/b", sessionCount: 1, totalBytes: 5, lastUsedAt: "2026-01-02T00:00:00.000Z" },
        ],
      },
      {
        kind: "pi",
        sessionCount: 2,
        totalBytes: 25,
        lastUsedAt: "2026-01-04T00:00:00.000Z",
        namespaces: [
          { namespace: "/work/a", sessionCount: 2, totalBytes: 25, lastUsedAt: "2026-01-04T00:00:00.000Z" },
        ],
      },
      { kind: "agentsh", sessionCount: 0, totalBytes: 0, namespaces: [] },
    ]);
  });
});
