import { describe, expect, it } from "vitest";
import { parseDuration } from "./duration.js";

const DAY = 86_400_000;

describe("parseDuration", () => {
  it.each([
    ["30d", 30 * DAY],
    ["12h", 12 * 3_600_000],
    ["2w", 14 * DAY],
    ["2mo", 60 * DAY],
    ["1y", 365 * DAY],
    ["90min", 90 * 60_000],
    [" 1.5d ", 1.5 * DAY],
  ])("%s → %s ms", (text, ms) => {
    expect(parseDuration(text)).toEqual({ ok: true, ms });
  });

  it("refuses a bare m (months for restic, minutes elsewhere) and offers both spellings", () => {
    expect(parseDuration("1m")).toEqual({
      ok: false,
      message: '"1m" is ambiguous: did you mean 1mo (month) or 1min?',
    });
    expect(parseDuration("90m")).toMatchObject({
      ok: false,
      message: expect.stringContaining("90mo (month) or 90min"),
    });
  });

  it.each(["", "d", "30", "30 days", "0d", "-1d", "1M", "3x"])("refuses %j", (text) => {
    expect(parseDuration(text)).toMatchObject({
      ok: false,
      message: expect.stringContaining("wants a duration like"),
    });
  });
});
