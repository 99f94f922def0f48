import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { addPins, ProtectionListError, readPins, removePins } from "./protection-list.js";

const listPath = () => join(mkdtempSync(join(tmpdir(), "sr-pins-")), "state", "protected.json");
const a = { id: "aaaa-1111", path: "/s/a.jsonl" };
const b = { id: "bbbb-2222", path: "/s/b.jsonl" };

describe("protection list", () => {
  it("a missing list has no pins", () => {
    expect(readPins(listPath())).toEqual([]);
  });

  it("pins by id, once, and reports only what changed", () => {
    const file = listPath();
    const now = new Date("2026-01-01T00:00:00.000Z");
    expect(addPins(file, [a, b, a], now)).toEqual([a, b]);
    expect(addPins(file, [a], now)).toEqual([]);
    expect(readPins(file)).toEqual([
      { ...a, pinnedAt: now.toISOString() },
      { ...b, pinnedAt: now.toISOString() },
    ]);
    expect(removePins(file, [a.id, "unknown"])).toEqual([a.id]);
    expect(readPins(file).map((p) => p.id)).toEqual([b.id]);
  });

  it("writes atomically: private file, no temporary or lock files left", () => {
    const file = listPath();
    addPins(file, [a]);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(join(file, "..")).sort()).toEqual(["protected.json"]);
    expect(JSON.parse(readFileSync(file, "utf8"))).toMatchObject({ version: 1 });
  });

  it.each([
    ["not JSON", "{ pins: "],
    ["wrong shape", JSON.stringify({ version: 1, pins: [{ id: 5 }] })],
    ["unknown version", JSON.stringify({ version: 2, pins: [] })],
  ])("a corrupt list (%s) is an error, never 'no pins', and is left as it was", (_, content) => {
    const file = listPath();
    addPins(file, [a]);
    writeFileSync(file, content);
    expect(() => readPins(file)).toThrow(ProtectionListError);
    expect(() => addPins(file, [b])).toThrow(ProtectionListError);
    expect(readFileSync(file, "utf8")).toBe(content);
  });
});
