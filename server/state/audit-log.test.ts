import { appendFileSync, mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { AuditEntry } from "../../shared/audit.js";
import { appendAudit, readAudit } from "./audit-log.js";

const logPath = () => join(mkdtempSync(join(tmpdir(), "sr-audit-")), "state", "audit.jsonl");
const entry = (n: number): AuditEntry => ({
  time: new Date(Date.UTC(2026, 0, n)).toISOString(),
  actor: "cli",
  action: "protect",
  items: [{ id: `id-${n}`, path: `/s/${n}.jsonl`, result: "protected" }],
  result: "ok",
});

describe("audit log", () => {
  it("appends one line per entry and reads newest first", () => {
    const file = logPath();
    appendAudit(file, entry(1));
    appendAudit(file, entry(2));
    expect(readAudit(file)).toEqual({ entries: [entry(2), entry(1)], unreadableLines: 0 });
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it("refuses an entry that does not fit the schema (nothing is written)", () => {
    const file = logPath();
    expect(() => appendAudit(file, { ...entry(1), result: "maybe" } as unknown as AuditEntry)).toThrow();
    expect(readAudit(file).entries).toEqual([]);
  });

  it("counts a torn or foreign line instead of failing, and keeps the rest", () => {
    const file = logPath();
    appendAudit(file, entry(1));
    appendFileSync(file, '{"time": "2026-0');
    appendFileSync(file, "\n");
    appendAudit(file, entry(3));
    expect(readAudit(file)).toEqual({ entries: [entry(3), entry(1)], unreadableLines: 1 });
  });

  it("a missing log is empty", () => {
    expect(readAudit(logPath())).toEqual({ entries: [], unreadableLines: 0 });
  });
});
