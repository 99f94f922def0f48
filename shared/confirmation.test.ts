import { describe, expect, it } from "vitest";
import { confirmationFor, formatShare } from "./confirmation.js";

describe("the confirmation a soft delete asks for", () => {
  it("is one click for a few sessions and a small share of the store", () => {
    expect(confirmationFor({ sessions: 2, bytes: 10, storeBytes: 1000 })).toEqual({
      typed: false,
      share: 0.01,
      summary: "removes 1.0 % of the store",
    });
    expect(confirmationFor({ sessions: 100, bytes: 250, storeBytes: 1000 }).typed).toBe(false);
  });

  it("asks to type for more than 100 sessions, however small", () => {
    expect(confirmationFor({ sessions: 101, bytes: 1, storeBytes: 1000 }).typed).toBe(true);
  });

  it("asks to type for more than a quarter of the store, even for one session", () => {
    const one = confirmationFor({ sessions: 1, bytes: 251, storeBytes: 1000 });
    expect(one.typed).toBe(true);
    expect(one.summary).toBe("removes 25.1 % of the store");
  });

  it("says 99.7 % when nearly everything goes, and never rounds a part up to 100 % or down to 0 %", () => {
    expect(confirmationFor({ sessions: 70, bytes: 997, storeBytes: 1000 }).summary).toBe(
      "removes 99.7 % of the store",
    );
    expect(formatShare(0.99999)).toBe("99.9 %");
    expect(formatShare(0.00001)).toBe("0.1 %");
    expect(formatShare(1)).toBe("100.0 %");
    expect(formatShare(0)).toBe("0.0 %");
  });

  it("treats an empty store as a share of 0 and never divides by it", () => {
    expect(confirmationFor({ sessions: 0, bytes: 0, storeBytes: 0 })).toMatchObject({
      typed: false,
      share: 0,
    });
  });
});
