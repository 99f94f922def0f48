// What one request carries: a body's bytes as sent, and how many ids of a hand-picked selection fit.
import { describe, expect, it } from "vitest";
import { idsThatFit, REQUEST_BODY_LIMIT_BYTES, requestBytes } from "./request-limits.js";

const uuid = (i: number) => `6f1c2a4e-0000-4000-8000-${String(i).padStart(12, "0")}`;

describe("requestBytes", () => {
  it("counts the JSON's UTF-8 bytes, not its characters", () => {
    expect(requestBytes({ ids: ["a"] })).toBe('{"ids":["a"]}'.length);
    expect(requestBytes("é")).toBe(4); // two quotes and two bytes
    expect(requestBytes("😀")).toBe(6);
  });
});

describe("idsThatFit", () => {
  it("takes every id while the body stays within the limit, and stops at the first that would pass it", () => {
    for (const ids of [
      Array.from({ length: 3000 }, (_, i) => uuid(i)), // pi's ids
      Array.from({ length: 3000 }, (_, i) => `claude:${uuid(i)}`),
    ]) {
      const fit = idsThatFit(ids);
      expect(requestBytes({ ids: ids.slice(0, fit) })).toBeLessThanOrEqual(REQUEST_BODY_LIMIT_BYTES);
      expect(requestBytes({ ids: ids.slice(0, fit + 1) })).toBeGreaterThan(REQUEST_BODY_LIMIT_BYTES);
    }
    expect(idsThatFit(Array.from({ length: 3000 }, (_, i) => uuid(i)))).toBe(1680);
    expect(idsThatFit(Array.from({ length: 3000 }, (_, i) => `claude:${uuid(i)}`))).toBe(1424);
  });

  it("a selection that fits is taken whole", () => {
    expect(idsThatFit([])).toBe(0);
    expect(idsThatFit(["a", "b"])).toBe(2);
  });
});
