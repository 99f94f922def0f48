// What the extension says for each quota level and mode.
import { describe, expect, it } from "vitest";
import { quotaState } from "../shared/quota.js";
import type { Look } from "./look.js";
import { blockMessage, blocksInput, levelNotice, overviewText, statusText } from "./words.js";

const GB = 1024 ** 3;

function look(totalBytes: number, sessionCount: number, overrides: Partial<Look> = {}): Look {
  return {
    lookedAt: "2026-11-23T10:00:00.000Z",
    enabled: true,
    configPath: "/home/u/.pi/agent/session-retention.json",
    mode: "warn-only",
    quota: quotaState(totalBytes, sessionCount, { maxTotalSizeBytes: 20 * GB, maxSessionCount: 2000 }),
    totalBytes,
    sessionCount,
    candidates: { count: 0, bytes: 0, first: [] },
    removable: 10,
    warnings: [],
    notes: [],
    ...overrides,
  };
}

describe("statusText", () => {
  it("is silent at ok, shows the usage at info and warn, and what to do at critical", () => {
    expect(statusText(look(10 * GB, 100))).toBeUndefined();
    expect(statusText(look(15 * GB, 100))).toBe("sessions 75% of quota");
    expect(statusText(look(18.5 * GB, 100))).toBe("⚠ sessions 93% of quota · /session-retention clean");
    expect(statusText(look(21 * GB, 100))).toBe("⛔ sessions 105% of quota · /session-retention clean");
    expect(statusText(look(21 * GB, 100, { mode: "hard-block" }))).toBe(
      "⛔ sessions 105% of quota: input blocked · /session-retention clean",
    );
  });

  it("names the measure nearer its limit (the count, when it leads)", () => {
    expect(statusText(look(1 * GB, 1900))).toBe("⚠ sessions 95% of quota · /session-retention clean");
  });

  it("is silent in mode off and when the extension is disabled", () => {
    expect(statusText(look(21 * GB, 100, { mode: "off" }))).toBeUndefined();
    expect(statusText(look(21 * GB, 100, { enabled: false }))).toBeUndefined();
  });
});

describe("levelNotice", () => {
  it("prompts at warn and critical with the way to clean, and not below or in mode off", () => {
    expect(levelNotice(look(15 * GB, 100))).toBeUndefined();
    expect(levelNotice(look(18.5 * GB, 100, { candidates: { count: 2, bytes: GB, first: [] } }))).toBe(
      "Sessions are near their quota: 18.5 GiB of 20.0 GiB (93%) · 100 of 2000 sessions (5%).\nThe policy suggests 2 sessions (1.00 GiB) to move to the trash: /session-retention clean.",
    );
    expect(levelNotice(look(21 * GB, 100, { mode: "hard-block" }))?.split("\n")).toEqual([
      "Sessions are over their quota: 21.0 GiB of 20.0 GiB (105%) · 100 of 2000 sessions (5%).",
      "Pick sessions to move to the trash with /session-retention clean (the policy suggests none), or raise the quota with /session-retention policy.",
      "Until then, messages are not sent (mode hard-block); commands still work.",
    ]);
    expect(levelNotice(look(21 * GB, 100, { mode: "off" }))).toBeUndefined();
  });

  it("says plainly when nothing can be moved, with the plan's reason", () => {
    const stuck = look(1 * GB, 2100, {
      removable: 0,
      warnings: ["quota cannot be met: 30 recent sessions are kept"],
    });
    expect(levelNotice(stuck)?.split("\n")[1]).toBe(
      "Nothing can be moved: the policy keeps every session (quota cannot be met: 30 recent sessions are kept). Raise the quota or keep fewer recent sessions with /session-retention policy.",
    );
  });
});

describe("blocking", () => {
  it("blocks only at critical in hard-block mode with a valid config", () => {
    expect(blocksInput(look(21 * GB, 100, { mode: "hard-block" }))).toBe(true);
    expect(blocksInput(look(19 * GB, 100, { mode: "hard-block" }))).toBe(false);
    expect(blocksInput(look(21 * GB, 100, { mode: "warn-only" }))).toBe(false);
    expect(blocksInput(look(21 * GB, 100, { mode: "hard-block", invalidConfig: "bad" }))).toBe(false);
    expect(blocksInput(look(21 * GB, 100, { mode: "hard-block", enabled: false }))).toBe(false);
    expect(blocksInput(undefined)).toBe(false);
  });

  it("says how much is over and how to clean", () => {
    const message = blockMessage(
      look(21 * GB, 2100, { mode: "hard-block", candidates: { count: 3, bytes: 2 * GB, first: [] } }),
    );
    expect(message.split("\n")).toEqual([
      "Not sent: the sessions are over their quota — 21.0 GiB of 20.0 GiB (105%), 1.00 GiB over; 2100 of 2000 sessions (105%), 100 over — and the mode is hard-block.",
      "The policy suggests 3 sessions (2.00 GiB) to move to the trash: /session-retention clean.",
      "Commands still work; /session-retention policy mode warn-only turns blocking off.",
    ]);
  });
});

describe("overviewText", () => {
  it("gives totals, quota, forecast, the candidates and the dashboard", () => {
    const text = overviewText(
      look(15 * GB, 1234, {
        forecast: { ratePerDay: 0.5 * GB, daysToFull: 10 },
        candidates: {
          count: 7,
          bytes: 3 * GB,
          first: [
            {
              id: "a",
              path: "/s/a.jsonl",
              namespace: "--p--",
              store: { kind: "pi", root: "/s" },
              sizeBytes: 2 * GB,
              createdAt: "2026-01-01T00:00:00.000Z",
              lastUsedAt: "2026-01-01T00:00:00.000Z",
              rule: "maxAgeDays",
              detail: "last used 300 days ago (limit 180 days)",
            },
          ],
        },
      }),
      "http://127.0.0.1:5173/#token=t",
    );
    expect(text.split("\n")).toEqual([
      "1,234 sessions, 15.0 GiB",
      "Quota: 15.0 GiB of 20.0 GiB (75%) · 1234 of 2000 sessions (62%) — info (≥ 70% of a limit) · mode warn-only",
      "Forecast: 100% of the size quota in 10 days at the 7-day rate (512 MiB/day)",
      "The policy suggests 7 sessions (3.00 GiB) — /session-retention clean:",
      "  2.00 GiB  last used 300 days ago (limit 180 days)  /s/a.jsonl",
      "  …and 6 more",
      "Dashboard: http://127.0.0.1:5173/#token=t",
    ]);
  });
});
