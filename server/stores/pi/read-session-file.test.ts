// Resuming a grown file: only the new bytes are read, and the result equals a read from scratch.
import { appendFileSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { mkfifo, neverBlockedBy } from "../../../test-support/fifo.js";
import { READ_CHUNK_BYTES, readSessionFile } from "./read-session-file.js";
import { TAIL_CHECK_BYTES } from "./session-parser.js";

const header = `${JSON.stringify({ type: "session", version: 3, id: "s-1", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/w" })}`;
const entry = (n: number, role = "user") =>
  JSON.stringify({
    type: "message",
    id: `e${n}`,
    parentId: null,
    timestamp: "2026-01-01T00:00:01.000Z",
    message: { role, content: "hi" },
  });

const buffer = Buffer.allocUnsafe(READ_CHUNK_BYTES);
const file = (text: string) => {
  const path = join(mkdtempSync(join(tmpdir(), "sr-read-")), "s.jsonl");
  writeFileSync(path, text);
  return path;
};
/** Facts without the fields that only describe where reading stopped. */
const comparable = (facts: ReturnType<typeof readSessionFile>["facts"]) => ({ ...facts, tail: 0 });

describe("readSessionFile resume", () => {
  it("reads only the appended bytes (plus the tail check) and agrees with a full read", () => {
    const path = file(`${header}\n${entry(1)}\n`);
    const first = readSessionFile(path, buffer);
    const appended = `${entry(2, "assistant")}\n${entry(3, "toolResult")}\n`;
    appendFileSync(path, appended);
    const resumed = readSessionFile(path, buffer, first.resume ?? first.facts);
    expect(resumed.resumed).toBe(true);
    expect(resumed.bytesRead).toBe(Buffer.byteLength(appended) + TAIL_CHECK_BYTES);
    expect(resumed.facts).toEqual(readSessionFile(path, buffer).facts);
    expect(resumed.facts.counts).toEqual({ user: 1, assistant: 1, toolResult: 1, other: 0 });
  });

  it("re-reads the whole file when the bytes before the old end changed (rewritten in place)", () => {
    const path = file(`${header}\n${entry(1)}\n`);
    const first = readSessionFile(path, buffer);
    writeFileSync(path, `${header}\n${entry(1, "assistant")}\n${entry(2)}\n`);
    const again = readSessionFile(path, buffer, first.facts);
    expect(again.resumed).toBe(false);
    expect(again.facts.counts).toEqual({ user: 1, assistant: 1, toolResult: 0, other: 0 });
  });

  it("resumes a file whose last line had no newline from that line's start", () => {
    // The unterminated last line is counted now, and read again once the file grows.
    const path = file(`${header}\n${entry(1)}`);
    const first = readSessionFile(path, buffer);
    expect(first.facts.entries).toBe(1);
    expect(first.resume?.entries).toBe(0);
    appendFileSync(path, `\n${entry(2)}\n`);
    const resumed = readSessionFile(path, buffer, first.resume ?? first.facts);
    expect(resumed.resumed).toBe(true);
    expect(comparable(resumed.facts)).toEqual(comparable(readSessionFile(path, buffer).facts));
    expect(resumed.facts.entries).toBe(2);
  });

  it("keeps a header written without its newline as the header after the file grows", () => {
    const path = file(header);
    const first = readSessionFile(path, buffer);
    expect(first.facts.header?.id).toBe("s-1");
    appendFileSync(path, `\n${entry(1)}\n`);
    const resumed = readSessionFile(path, buffer, first.resume ?? first.facts);
    expect(resumed.facts.header?.id).toBe("s-1");
    expect(resumed.facts.entries).toBe(1);
    expect(resumed.facts.corruptLines).toBeUndefined();
  });

  it("marks an incomplete last line as truncated and does not count it", () => {
    const path = file(`${header}\n${entry(1)}\n{"type":"message","id":"e2","par`);
    const { facts } = readSessionFile(path, buffer);
    expect(facts.truncatedLastLine).toBe(true);
    expect(facts.entries).toBe(1);
    expect(facts.corruptLines).toBeUndefined();
  });
});

describe("readSessionFile facts", () => {
  it("takes the last entry's own timestamp, not one nested in its payload", () => {
    // pi writes custom entries as type, customType, data, id, parentId, timestamp.
    const custom = JSON.stringify({
      type: "custom",
      customType: "reminder",
      data: { timestamp: "2001-01-01T00:00:00.000Z" },
      id: "c1",
      parentId: "e1",
      timestamp: "2026-01-02T00:00:00.000Z",
    });
    const toolCall = JSON.stringify({
      type: "message",
      id: "e2",
      parentId: "c1",
      timestamp: "2026-01-03T00:00:00.000Z",
      message: {
        role: "assistant",
        content: [{ type: "toolCall", arguments: { timestamp: "1999-01-01T00:00:00.000Z" } }],
      },
    });
    expect(readSessionFile(file(`${header}\n${entry(1)}\n${custom}\n`), buffer).facts.lastEntryAt).toBe(
      "2026-01-02T00:00:00.000Z",
    );
    expect(readSessionFile(file(`${header}\n${custom}\n${toolCall}\n`), buffer).facts.lastEntryAt).toBe(
      "2026-01-03T00:00:00.000Z",
    );
  });

  it("accepts an old header without cwd or timestamp, as pi does", () => {
    const old = JSON.stringify({ type: "session", id: "old-1" });
    const { facts } = readSessionFile(file(`${old}\n${entry(1)}\n`), buffer);
    expect(facts.header).toEqual({ type: "session", id: "old-1", timestamp: "", cwd: "" });
    expect(facts.entries).toBe(1);
  });
});

describe("readSessionFile opens only a regular file", () => {
  it("a FIFO put where the walk saw a session is an error that says what it is, never a wait", () => {
    const fifo = mkfifo(join(mkdtempSync(join(tmpdir(), "sr-read-")), "s.jsonl"));
    expect(() => neverBlockedBy(fifo, () => readSessionFile(fifo, buffer))).toThrow(
      /s\.jsonl is a named pipe \(FIFO\), not a regular file/,
    );
  });
});
