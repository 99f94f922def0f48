// The growth file on disk: a file that is not ours to read as it is — corrupt, a FIFO, bad bytes —
// is set aside and a new history starts, never a hang and never an overwrite of what was there.
import { mkdtempSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { mkfifo, neverBlockedBy } from "../../test-support/fifo.js";
import { readGrowth, recordGrowth } from "./growth-store.js";

const growthDir = () => mkdtempSync(join(tmpdir(), "sr-growth-"));
const point = { t: "2026-01-01T00:00:00.000Z", bytes: 1, count: 1 };

describe("readGrowth", () => {
  it("a missing file has no points; a good one its points", () => {
    const dir = growthDir();
    expect(readGrowth(join(dir, "none.json"))).toEqual([]);
    writeFileSync(join(dir, "g.json"), JSON.stringify({ version: 1, points: [point] }));
    expect(readGrowth(join(dir, "g.json"))).toEqual([point]);
  });

  it.each<[string, (file: string) => void]>([
    ["not JSON", (file) => writeFileSync(file, "{ half")],
    ["a FIFO", (file) => mkfifo(file)],
    [
      "not UTF-8",
      (file) =>
        writeFileSync(
          file,
          Buffer.from([...Buffer.from('{"version":1,"points":["'), 0xff, 0x22, 0x5d, 0x7d]),
        ),
    ],
  ])("%s: no points, and the file is set aside as it was", (_what, make) => {
    const dir = growthDir();
    const file = join(dir, "g.json");
    make(file);
    expect(neverBlockedBy(file, () => readGrowth(file))).toEqual([]);
    expect(readdirSync(dir)).toEqual([expect.stringMatching(/^g\.json\.corrupt-\d+$/)]);
  });
});

describe("recordGrowth", () => {
  const report = (bytes: number) => ({
    sessions: [],
    summary: { totalBytes: bytes, sessionCount: 1 },
    namespaces: [{ namespace: "/work/a", totalBytes: bytes, sessionCount: 1 }],
  });

  it("writes a changed point, and leaves the file alone when the hour's point is the same again", () => {
    const file = join(growthDir(), "g.json");
    const now = new Date("2026-11-25T10:05:00Z");
    recordGrowth(file, report(100) as never, now);
    const first = statSync(file).ino;
    // A scrape a minute later on a quiet store: same hour, same numbers — no new file.
    recordGrowth(file, report(100) as never, new Date("2026-11-25T10:06:00Z"));
    expect(statSync(file).ino).toBe(first);
    // The store grew: the hour's point is replaced, so the file is written (atomically: a new inode).
    recordGrowth(file, report(250) as never, new Date("2026-11-25T10:07:00Z"));
    expect(statSync(file).ino).not.toBe(first);
    expect(readGrowth(file).at(-1)).toMatchObject({ bytes: 250, count: 1 });
  });
});
