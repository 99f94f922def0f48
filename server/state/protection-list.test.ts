import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { mkfifo, neverBlockedBy } from "../../test-support/fifo.js";
import { acquireLock, LockedError } from "../fs/lock-file.js";
import { addPins, ProtectionListError, readPins, removePins, setProtection } from "./protection-list.js";

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

  it("a FIFO as the list is an error naming it, at once — never 'no pins', never a hang", () => {
    const file = listPath();
    addPins(file, [a]);
    rmSync(file);
    mkfifo(file);
    expect(() => neverBlockedBy(file, () => readPins(file))).toThrow(
      new ProtectionListError(
        `protection list ${file} is a named pipe (FIFO), not a regular file; only a regular file (or a symlink to one) is read; fix or remove it`,
      ),
    );
  });

  it("bytes that are not UTF-8 are an error naming the offset, never a pin with U+FFFD in its id", () => {
    const file = listPath();
    addPins(file, [a]);
    const bytes = readFileSync(file);
    const at = bytes.indexOf("aaaa");
    bytes[at] = 0xe1; // a lead byte whose continuation bytes are missing
    writeFileSync(file, bytes);
    expect(() => readPins(file)).toThrow(`is not valid UTF-8: byte 0xe1 at offset ${at} `);
  });
});

describe("setProtection", () => {
  it("waits its turn behind a deletion: while the deletion lock is held it changes nothing (LockedError)", () => {
    const dir = mkdtempSync(join(tmpdir(), "sr-pins-lock-"));
    const paths = {
      protectedList: join(dir, "protected.json"),
      auditLog: join(dir, "audit.jsonl"),
      deletionLock: join(dir, "deletion.lock"),
    };
    const release = acquireLock(paths.deletionLock); // a deletion is running
    try {
      expect(() => setProtection([{ id: "a", path: "/s/a.jsonl" }], true, "ui", paths)).toThrow(LockedError);
      expect(readPins(paths.protectedList)).toEqual([]);
    } finally {
      release();
    }
    expect(setProtection([{ id: "a", path: "/s/a.jsonl" }], true, "ui", paths).changed).toHaveLength(1);
  });
});
