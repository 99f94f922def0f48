// The transcript reader against the same lines read the slow, obvious way (split on newlines,
// JSON.parse each): lines that start and end in one read chunk are decoded in place, and lines
// that cross a chunk's edge are gathered first — both must give the same facts.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Random } from "../../demo/seeded-random.js";
import { readClaudeTranscript } from "./transcript.js";

const CHUNK = 256 * 1024;
const ID = "0b6c3a3e-6f7d-4c1e-9a53-2f1d7c0e9b11";
const OTHER = "5d1e0f7a-2b3c-4d5e-8f90-a1b2c3d4e5f6";

/** Lines of every size up to ~100 kB (so many cross a 256 KiB chunk's edge), with non-ASCII text. */
function lines(count: number): Record<string, unknown>[] {
  const random = new Random(42);
  return Array.from({ length: count }, (_, i) => {
    const at = new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString();
    const text = "grüße → ✓ ".repeat(random.int(1, 10_000));
    if (i === 7) return { type: "custom-title", customTitle: "Renamed ✓", sessionId: ID };
    if (i % 50 === 3) return { type: "ai-title", aiTitle: `Title ${i}`, sessionId: ID };
    return {
      parentUuid: null,
      cwd: "/home/dev/ünïcode",
      sessionId: i > count - 5 ? OTHER : ID,
      type: i % 2 ? "assistant" : "user",
      message: { role: i % 2 ? "assistant" : "user", content: [{ type: "text", text, timestamp: "nested" }] },
      timestamp: at,
    };
  });
}

describe("readClaudeTranscript", () => {
  it("gives the same facts whether a line lies inside one read chunk or across two", () => {
    const objects = lines(400);
    const text = objects.map((o) => JSON.stringify(o)).join("\n") + "\n";
    const bytes = Buffer.from(text);
    // The test is only worth something if lines do cross chunk edges.
    let crossing = 0;
    for (let offset = 0, edge = CHUNK; offset < bytes.length;) {
      const end = bytes.indexOf(10, offset);
      if (offset < edge && end >= edge) crossing++;
      if (end >= edge) edge += CHUNK;
      offset = end + 1;
    }
    expect(crossing).toBeGreaterThan(5);

    const path = join(mkdtempSync(join(tmpdir(), "sr-transcript-")), `${ID}.jsonl`);
    writeFileSync(path, bytes);
    const { facts, identity } = readClaudeTranscript(path);
    expect(identity.size).toBe(bytes.length);
    const parsed = text
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const stamped = parsed.filter((o) => typeof o.timestamp === "string");
    expect(facts).toEqual({
      sessionId: ID,
      cwd: "/home/dev/ünïcode",
      firstAt: stamped[0]!.timestamp,
      lastAt: stamped.at(-1)!.timestamp,
      title: "Renamed ✓",
      otherSessionIds: [OTHER],
      lines: parsed.length,
      counts: {
        user: parsed.filter((o) => o.type === "user").length,
        assistant: parsed.filter((o) => o.type === "assistant").length,
        other: parsed.filter((o) => o.type !== "user" && o.type !== "assistant").length,
      },
      corruptLines: 0,
      longLines: 0,
    });
  });

  it("counts a cut last line and a non-object as corrupt, wherever they fall", () => {
    const good = JSON.stringify({ type: "user", sessionId: ID, timestamp: "2026-01-01T00:00:00.000Z" });
    const path = join(mkdtempSync(join(tmpdir(), "sr-transcript-")), `${ID}.jsonl`);
    writeFileSync(path, [good, "[1,2]", "", good, good.slice(0, 30)].join("\n"));
    const { facts } = readClaudeTranscript(path);
    expect(facts.lines).toBe(4); // the blank line is not a line
    expect(facts.corruptLines).toBe(2);
    expect(facts.counts).toEqual({ user: 2, assistant: 0, other: 0 });
  });
});
