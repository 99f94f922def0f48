// The scan cache file: what is saved loads back, across the loader's read chunks, in lines of any length.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type CacheEntry, loadScanCache, saveScanCache, type ScanCache } from "./scan-cache.js";

function entry(i: number): CacheEntry {
  return {
    dev: 2049,
    ino: 5_000_000_000 + i,
    size: 100 + i,
    mtimeNs: `17000000000${String(i).padStart(8, "0")}`,
    facts: {
      offset: 100 + i,
      lines: 3,
      headerSeen: true,
      header: {
        type: "session",
        id: `id-${i}`,
        timestamp: "2025-01-01T00:00:00.000Z",
        cwd: `/work/ü${i % 7}`,
      },
      entries: 2,
      counts: { user: 1, assistant: 1, toolResult: 0, other: 0 },
      ...(i % 3 === 0 ? { name: `name ${i}` } : {}),
      tail: i,
      truncatedLastLine: false,
    },
  };
}

describe("scan cache file", () => {
  it("loads what was saved, with lines crossing the loader's 1 MiB read chunks", () => {
    const cache: ScanCache = new Map();
    // Long keys: ~4 MB in all, so lines and chunk edges fall everywhere.
    for (let i = 0; i < 3000; i++) cache.set(`/store/${"x".repeat(1200)}/${i}.jsonl`, entry(i));
    const file = join(mkdtempSync(join(tmpdir(), "sr-cache-")), "cache.json");
    saveScanCache(file, cache);
    expect(readFileSync(file).length).toBeGreaterThan(3 << 20);
    expect(loadScanCache(file)).toEqual(cache);
  });

  it("loads a file written in the older layout of 1,000 entries per line", () => {
    const cache: ScanCache = new Map();
    for (let i = 0; i < 2500; i++) cache.set(`/store/${i}.jsonl`, entry(i));
    const dir = mkdtempSync(join(tmpdir(), "sr-cache-"));
    saveScanCache(join(dir, "new.json"), cache);
    const [header, ...lines] = readFileSync(join(dir, "new.json"), "utf8").trimEnd().split("\n");
    const entries = lines.flatMap((line) => JSON.parse(line) as unknown[]);
    const old = [header, ...[0, 1000, 2000].map((at) => JSON.stringify(entries.slice(at, at + 1000)))];
    writeFileSync(join(dir, "old.json"), `${old.join("\n")}\n`);
    expect(loadScanCache(join(dir, "old.json"))).toEqual(cache);
  });
});
