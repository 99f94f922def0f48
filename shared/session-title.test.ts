import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  FIRST_MESSAGE_CHARS,
  fileName,
  namespaceBase,
  oneLine,
  sessionTitle,
  titleLine,
} from "./session-title.js";

describe("oneLine", () => {
  it("gives what its definition gives, for a string already one line as for any other", () => {
    // The definition: white space and control characters as one space, trimmed, cut with an ellipsis.
    const byDefinition = (text: string, max: number) => {
      const line = text
        .slice(0, max * 4 + 64)
        .replace(/[\s\p{Cc}]+/gu, " ")
        .trim();
      if (line === "") return undefined;
      const chars = Array.from(line);
      return chars.length <= max && text.length <= max * 4 + 64
        ? line
        : `${chars
            .slice(0, max - 1)
            .join("")
            .trimEnd()}…`;
    };
    const textArb = fc.oneof(
      fc.string({ unit: fc.constantFrom("a", "b", " ", "  ", "\t", "\n", "\u00a0", "\u0007", "😀", "é") }),
      fc.string({ unit: "grapheme" }),
    );
    fc.assert(
      fc.property(textArb, fc.integer({ min: 1, max: 40 }), (text, max) => {
        expect(oneLine(text, max)).toBe(byDefinition(text, max));
        const once = oneLine(text, max);
        if (once !== undefined && Array.from(once).length <= max) expect(oneLine(once, max)).toBe(once);
      }),
      { numRuns: 2000 },
    );
  });

  it("makes one trimmed line of any white space and control characters", () => {
    expect(oneLine("\n  fix\tthe\r\nbuild \u0007 now  ")).toBe("fix the build now");
    expect(oneLine(" \n\t ")).toBeUndefined();
  });

  it("cuts a long message at the limit with an ellipsis, never inside a surrogate pair", () => {
    const cut = oneLine("😀".repeat(200))!;
    expect(Array.from(cut)).toHaveLength(FIRST_MESSAGE_CHARS);
    expect(cut.endsWith("…")).toBe(true);
    expect(cut).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
    expect(oneLine("a".repeat(FIRST_MESSAGE_CHARS))).toBe("a".repeat(FIRST_MESSAGE_CHARS));
  });

  it("does not walk a huge paste to its end, and still says it was cut", () => {
    const line = oneLine(`short ${" ".repeat(5_000_000)}`);
    expect(line).toBe("short…");
  });
});

describe("sessionTitle", () => {
  const createdAt = "2026-01-05T14:03:59.000Z";
  it("is the name, else the first message, else the time (UTC), else the file name", () => {
    expect(sessionTitle({ name: " release ", firstMessage: "hi", createdAt })).toEqual({
      title: "release",
      source: "name",
    });
    expect(sessionTitle({ name: "  ", firstMessage: "why\nred?", createdAt })).toEqual({
      title: "why red?",
      source: "message",
    });
    expect(sessionTitle({ createdAt })).toEqual({ title: "2026-01-05 14:03", source: "time" });
    expect(sessionTitle({ createdAt: "not a date", path: "/s/--p--/x_1.jsonl" })).toEqual({
      title: "x_1.jsonl",
      source: "time",
    });
    expect(sessionTitle({})).toEqual({ title: "(unnamed)", source: "time" });
  });

  it("is a name before the last prompt, and the last prompt (Claude Code's title of a continued session) before the first message", () => {
    expect(
      sessionTitle({ name: "Release", lastPrompt: "and the tax line", firstMessage: "fix the cart" }),
    ).toEqual({ title: "Release", source: "name" });
    expect(sessionTitle({ lastPrompt: "and the\ttax line", firstMessage: "fix the cart" })).toEqual({
      title: "and the tax line",
      source: "message",
    });
    expect(sessionTitle({ lastPrompt: " ", firstMessage: "fix the cart" }).title).toBe("fix the cart");
  });

  it("gives a listing line with the namespace's folder name beside the title", () => {
    expect(titleLine({ firstMessage: "add tests", namespace: "/home/dev/app/" })).toBe("add tests · app");
    expect(namespaceBase("/")).toBe("/");
    expect(fileName("/a/b/2026_x.jsonl")).toBe("2026_x.jsonl");
  });
});
