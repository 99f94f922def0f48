import { describe, expect, it } from "vitest";
import { counted, formatBytes, formatPercent, formatRelativeTime } from "./format.js";

describe("formatBytes", () => {
  it.each([
    [0, "0 B"],
    [1023, "1023 B"],
    [1024, "1.00 KiB"],
    [1536, "1.50 KiB"],
    [10 * 1024 + 512, "10.5 KiB"],
    [150 * 1024 * 1024, "150 MiB"],
    [2.5 * 1024 ** 3, "2.50 GiB"],
    [-1, "?"],
    [Number.NaN, "?"],
  ])("%s bytes → %s", (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text);
  });
});

describe("formatPercent", () => {
  it.each([
    [0, "0%"],
    [0.001, "<1%"],
    [0.034, "3%"],
    // The store that read 3 % in the CLI and pi (floored) and 4 % in the dashboard (rounded).
    [0.037, "4%"],
    [0.5, "50%"],
    [0.996, "99%"],
    [1, "100%"],
    [1.234, "123%"],
    [-1, "?"],
    [Number.NaN, "?"],
  ])("%s → %s", (ratio, text) => {
    expect(formatPercent(ratio)).toBe(text);
  });
});

describe("formatRelativeTime", () => {
  const now = new Date("2026-06-15T12:00:00.000Z");
  it.each([
    ["2026-06-15T11:59:30.000Z", "just now"],
    ["2026-06-15T11:55:00.000Z", "5min ago"],
    ["2026-06-15T09:00:00.000Z", "3h ago"],
    ["2026-06-12T12:00:00.000Z", "3d ago"],
    ["2026-05-15T12:00:00.000Z", "1mo ago"],
    ["2024-06-15T12:00:00.000Z", "2y ago"],
    ["2026-06-15T14:00:00.000Z", "in 2h"],
    ["not a date", "?"],
  ])("%s → %s", (iso, text) => {
    expect(formatRelativeTime(iso, now)).toBe(text);
  });
});

describe("counted", () => {
  it("names one in the singular, every other count in the plural", () => {
    expect(counted(1, "leaf", "leaves")).toBe("1 leaf");
    expect(counted(0, "branch point")).toBe("0 branch points");
    expect(counted(2, "leaf", "leaves")).toBe("2 leaves");
    expect(counted(1500, "compaction")).toBe("1,500 compactions");
  });
});
