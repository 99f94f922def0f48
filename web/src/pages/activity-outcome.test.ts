import { describe, expect, it } from "vitest";
import type { AuditEntry } from "../../../shared/audit.js";
import { STOPPED_REASON } from "../../../shared/trash.js";
import { outcomeText } from "./activity-outcome.js";

const item = (result: string, reason?: string) => ({
  id: `s${Math.random()}`,
  path: "/s.jsonl",
  result,
  ...(reason ? { reason } : {}),
});
const entry = (items: AuditEntry["items"], over: Partial<AuditEntry> = {}) =>
  ({ action: "soft-delete", actor: "ui", result: "partial", items, ...over }) as const;

describe("an Activity row's outcome", () => {
  it("a stopped run: how many of how many moved, stopped by you — not 'partial'", () => {
    const items = [
      ...Array.from({ length: 128 }, () => item("moved")),
      ...Array.from({ length: 1300 }, () => item("skipped", STOPPED_REASON)),
    ];
    expect(outcomeText(entry(items))).toBe("128 of 1,428 moved · stopped by you");
    expect(outcomeText(entry(items, { actor: "auto", action: "auto-clean" }))).toBe(
      "128 of 1,428 moved · stopped",
    );
  });

  it("a whole run, and one with sessions skipped for their own reasons", () => {
    expect(outcomeText(entry([item("moved"), item("moved")], { result: "ok" }))).toBe("2 moved");
    expect(outcomeText(entry([item("moved"), item("skipped", "it changed since the preview")]))).toBe(
      "1 of 2 moved · 1 skipped",
    );
  });

  it("says a session lost outside the selection apart, and counts it in nothing", () => {
    expect(
      outcomeText(entry([item("moved"), item("lost", "gone after codex delete")], { result: "failed" })),
    ).toBe("1 moved · 1 LOST outside the selection");
  });

  it("other actions, a dry run and a refusal keep the audit's word", () => {
    expect(outcomeText(entry([item("restored")], { action: "restore", result: "ok" }))).toBe("ok");
    expect(outcomeText(entry([item("would-move")], { result: "dry-run" }))).toBe("dry-run");
    expect(outcomeText(entry([], { result: "refused" }))).toBe("refused");
  });
});
