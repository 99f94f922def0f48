// The hand-made ISO time is `toISOString()`'s, to the character, wherever it does not just call it.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isoFromMs } from "./iso-time.js";

describe("isoFromMs", () => {
  it("is toISOString() for any whole millisecond of years 1970–9999", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 253_402_300_799_999 }), (ms) => {
        expect(isoFromMs(ms)).toBe(new Date(ms).toISOString());
      }),
      { numRuns: 20_000 },
    );
  });

  it.each([
    0, // the epoch
    951_782_399_999, // 2000-02-28T23:59:59.999Z
    951_868_800_000, // 2000-03-01: 2000 is a leap year
    4_107_542_400_000, // 2100-03-01: 2100 is not
    253_402_300_799_999, // the last four-digit year's last millisecond
    253_402_300_800_000, // +010000-01-01: toISOString's six-digit year
    -1, // before 1970
    1.5, // not a whole millisecond
  ])("is toISOString() at the edges: %d", (ms) => {
    expect(isoFromMs(ms)).toBe(new Date(ms).toISOString());
  });
});
