import { describe, expect, it } from "vitest";
import { compileGlob, globProblem } from "./glob.js";

describe("compileGlob", () => {
  it.each([
    ["*important*", "/home/me/.pi/agent/sessions/--x--/very-important-one.jsonl", true],
    ["*important*", "/home/me/notes", false],
    ["*/work/*", "/home/me/work/api", true],
    ["/home/me/work/*", "/home/me/work/api/deep", true], // * crosses "/"
    ["/home/me/work/*", "/home/me/workshop", false],
    ["?at", "cat", true],
    ["?at", "at", false],
    ["[ch]at", "hat", true],
    ["[!ch]at", "hat", false],
    ["[!ch]at", "bat", true],
    ["[^ch]at", "bat", true],
    ["v[0-9]", "v7", true],
    ["v[0-9]", "vx", false],
    ["a[-]b", "a-b", true],
    ["[]]", "]", true],
    ["\\*", "*", true],
    ["\\*", "x", false],
    ["a.b", "axb", false], // regex characters are literal
    ["(x)+", "(x)+", true],
    ["Prod", "prod", false], // case-sensitive
    ["*prod-incident*", "2025 prod-incident review", true],
    ["café*", "café au lait", true],
    ["?", "😀", true], // one character, not one UTF-16 unit
  ])("%s on %s → %s", (pattern, value, expected) => {
    expect(compileGlob(pattern).test(value)).toBe(expected);
  });

  it.each([
    ["", "empty pattern"],
    ["a[b", "never closed"],
    ["[", "never closed"],
    ["abc\\", "lone"],
    ["[z-a]", "backwards range"],
  ])("rejects %j", (pattern, message) => {
    expect(globProblem(pattern)).toContain(message);
  });

  it("accepts what it can compile", () => {
    expect(globProblem("*important*")).toBeUndefined();
  });
});
