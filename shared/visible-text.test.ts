import { describe, expect, it } from "vitest";
import { visible, visibleLines } from "./visible-text.js";

describe("visible", () => {
  it.each([
    ["clear screen, cursor home", "a\u001b[2J\u001b[Hb", "a\\u001b[2J\\u001b[Hb"],
    ["carriage return", "safe\rEVIL", "safe\\u000dEVIL"],
    ["line feed", "name\nDELETE", "name\\u000aDELETE"],
    ["tab and backspace", "a\tb\bc", "a\\u0009b\\u0008c"],
    ["NUL and the last C0", "\u0000\u001f", "\\u0000\\u001f"],
    ["DEL", "a\u007fb", "a\\u007fb"],
    ["C1: CSI and the ends of the range", "\u0080\u009b2J\u009f", "\\u0080\\u009b2J\\u009f"],
    ["right-to-left override", "evil\u202etxt.exe", "evil\\u202etxt.exe"],
    ["embeddings and pop", "\u202a\u202b\u202c\u202d", "\\u202a\\u202b\\u202c\\u202d"],
    ["isolates", "\u2066\u2067\u2068\u2069", "\\u2066\\u2067\\u2068\\u2069"],
    ["marks: LRM, RLM, ALM", "\u200e\u200f\u061c", "\\u200e\\u200f\\u061c"],
    ["plain ASCII", "/home/me/code/app  “Fix the build”", "/home/me/code/app  “Fix the build”"],
    [
      "letters beyond ASCII",
      "Größe — café, Ελληνικά, 日本語, עברית",
      "Größe — café, Ελληνικά, 日本語, עברית",
    ],
    ["emoji (surrogate pairs, ZWJ sequences)", "🚀 👩‍💻 🇩🇪", "🚀 👩‍💻 🇩🇪"],
    ["a literal backslash-u stays as typed", "C:\\u001b", "C:\\u001b"],
    ["the character after C1 (NBSP)", "a\u00a0b", "a\u00a0b"],
    ["the empty string", "", ""],
  ])("%s", (_case, text, shown) => {
    expect(visible(text)).toBe(shown);
  });

  it("is idempotent: what it shows holds no control character to escape again", () => {
    const once = visible("x\u001b]0;title\u0007\r\n\u202e\u009b");
    expect(visible(once)).toBe(once);
  });
});

describe("visibleLines", () => {
  it("keeps line feeds as line breaks and makes everything else visible", () => {
    expect(visibleLines("line one\u001b[2K\nline two\r\n\u202eend")).toBe(
      "line one\\u001b[2K\nline two\\u000d\n\\u202eend",
    );
  });

  it("leaves a JSON document valid, with the same data, DEL, C1 and bidi controls included", () => {
    const data = { name: "a\u001b[2J\u007f\u0085\u009b\u202e\u2066b\nc", n: [1, "é🚀"] };
    const text = visibleLines(JSON.stringify(data, null, 2));
    expect(text).not.toMatch(/[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    expect(JSON.parse(text)).toEqual(data);
  });
});
