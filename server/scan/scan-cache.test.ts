// The scan cache file: what is saved loads back, whatever it holds; another version's file is
// ignored; a damaged one gives back only entries that were saved (its other files are read again);
// the reader finds entries in any order, and a rewrite keeps what it should, where it was.
import { isAscii } from "node:buffer";
import { mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  type CacheEntry,
  loadScanCache,
  saveScanCache,
  type ScanCache,
  ScanCacheReader,
  ScanCacheWriter,
} from "./scan-cache.js";

const newFile = () => join(mkdtempSync(join(tmpdir(), "sr-cache-")), "cache");

/** An entry with a bit of everything, depending on `i`: no header, names set and cleared, problems, a resume state. */
function entry(i: number): CacheEntry {
  const facts: CacheEntry["facts"] = {
    offset: 100 + i,
    lines: 3 + (i % 5),
    headerSeen: true,
    header:
      i % 11 === 0
        ? null
        : {
            type: "session",
            id: `id-${i}`,
            timestamp: "2025-01-01T00:00:00.000Z",
            cwd: i % 13 === 0 ? `/wörk/🚀 ${i % 3}` : `/work/ü${i % 7}`,
            ...(i % 2 === 0 ? { version: 3 } : {}),
            ...(i % 17 === 0 ? { parentSession: `/store/parent ${i}.jsonl` } : {}),
          },
    entries: 2 + i,
    counts: { user: 1, assistant: i % 4, toolResult: i % 3, other: 0 },
    tail: i * 7919,
    truncatedLastLine: i % 9 === 0,
  };
  if (i % 3 === 0) facts.name = `name ${i} “quoted” \u0007`;
  if (i % 5 === 0) facts.name = null;
  if (i % 4 === 0) facts.lastEntryAt = "2025-01-02T03:04:05.678Z";
  if (i % 6 === 0) facts.corruptLines = { first: 2, count: i };
  if (i % 10 === 0) facts.longLines = { first: 3, count: 1 };
  if (i % 2 === 1) facts.firstMessage = `question ${i}: naïve résumé \ud800 "x"\n`;
  const e: CacheEntry = {
    dev: 2049,
    ino: 5_000_000_000 + i,
    size: 100 + i,
    mtimeNs: `17000000000${String(i).padStart(8, "0")}`,
    facts,
  };
  if (i % 8 === 0) {
    const { truncatedLastLine: _, ...state } = facts;
    e.resume = { ...state, offset: 50 + i, name: "resumed" };
  }
  return e;
}

/** Keys of several folders (one with 600 files: three blocks), a flat root's, and whole `bytes:` keys. */
function keyOf(i: number): string {
  if (i % 50 === 49)
    return `bytes:${Buffer.from(`/store/--x--/bad\xff${i}.jsonl`, "latin1").toString("base64")}/+`;
  if (i % 7 === 0) return `/store/${i}.jsonl`;
  return i < 600 ? `/store/--big--/${i}.jsonl` : `/store/--ü ${i % 4}--/${i}.jsonl`;
}

function sample(n = 1000): ScanCache {
  const cache: ScanCache = new Map();
  for (let i = 0; i < n; i++) cache.set(keyOf(i), entry(i));
  return cache;
}

describe("scan cache file", () => {
  it("loads what was saved: entries of every shape, in blocks of many folders, whole keys too", () => {
    const cache = sample();
    const file = newFile();
    saveScanCache(file, cache, ["/store"]);
    expect(loadScanCache(file)).toEqual(cache);
    // Filtered: only the entries wanted are decoded and kept.
    const wanted = [...cache.keys()].filter((_, i) => i % 3 === 0);
    expect([...loadScanCache(file, (key) => wanted.includes(key)).keys()]).toEqual(wanted);
  });

  it("loads a file of several MiB, its blocks crossing the reader's 1 MiB chunks anywhere", () => {
    const cache: ScanCache = new Map();
    // Long folder names: ~4 MB in all, so blocks and chunk edges fall everywhere, folders too.
    for (let i = 0; i < 3000; i++) cache.set(`/store/--${"x".repeat(1200 + (i % 7))}--/${i}.jsonl`, entry(i));
    const file = newFile();
    saveScanCache(file, cache);
    expect(readFileSync(file).length).toBeGreaterThan(3 << 20);
    expect(loadScanCache(file)).toEqual(cache);
  });

  it("is ASCII only, one block a line, each naming its folder once", () => {
    const file = newFile();
    saveScanCache(file, sample());
    const bytes = readFileSync(file);
    expect(isAscii(bytes)).toBe(true);
    const lines = bytes.toString("latin1").trimEnd().split("\n");
    expect(JSON.parse(lines[0]!)).toEqual({ version: 6, roots: [] });
    const blocks = lines.slice(1).map((line) => JSON.parse(line) as [string | null, string[], string[]]);
    for (const [folder, , names] of blocks) {
      expect(names.length).toBeLessThanOrEqual(250);
      if (folder !== null) for (const name of names) expect(name).not.toContain("/");
    }
    // One folder's 600 files in a row: three blocks.
    const one: ScanCache = new Map(
      Array.from({ length: 600 }, (_, i) => [`/store/--one--/${i}.jsonl`, entry(i)]),
    );
    saveScanCache(file, one);
    const sizes = readFileSync(file, "latin1")
      .trimEnd()
      .split("\n")
      .slice(1)
      .map((line) => (JSON.parse(line) as unknown[][])[2]!.length);
    expect(sizes).toEqual([250, 250, 100]);
  });

  it("ignores a file of another version: version 5's lines of entries are not misread", () => {
    const file = newFile();
    const v5Entry = [
      "/store/--a--/1.jsonl",
      2049,
      1,
      10,
      "1700000000000000000",
      [
        10,
        1,
        1,
        ["id", "2025-01-01T00:00:00.000Z", "/a", 3, null],
        0,
        0,
        0,
        0,
        0,
        false,
        null,
        null,
        null,
        0,
        0,
        null,
      ],
      null,
    ];
    writeFileSync(file, `${JSON.stringify({ version: 5, roots: [] })}\n${JSON.stringify([v5Entry])}\n`);
    expect(loadScanCache(file).size).toBe(0);
    expect(ScanCacheReader.open(file)).toBeUndefined();
    // Nor a file without a header, nor a missing one.
    writeFileSync(file, `${JSON.stringify([v5Entry])}\n`);
    expect(loadScanCache(file).size).toBe(0);
    expect(loadScanCache(`${file}.missing`).size).toBe(0);
  });

  it("cut short anywhere, or with bytes changed, gives back only entries that were saved, as saved", () => {
    const cache = sample(700);
    const file = newFile();
    saveScanCache(file, cache);
    const bytes = readFileSync(file);
    const damaged = newFile();
    const check = (content: Buffer) => {
      writeFileSync(damaged, content);
      const loaded = loadScanCache(damaged);
      for (const [key, value] of loaded) expect(value).toEqual(cache.get(key));
      return loaded.size;
    };
    let sizes = 0;
    for (let cut = 0; cut <= bytes.length; cut += Math.ceil(bytes.length / 60))
      sizes += check(bytes.subarray(0, cut));
    expect(sizes).toBeGreaterThan(0); // the early blocks of a cut file still load
    expect(check(bytes)).toBe(700);
    // A byte outside ASCII or a line break where a block's text was: that block is skipped. (An
    // ASCII byte changed in place into another inside a text cannot be told: no checksum guards a
    // block; SHA-1 over the blocks would cost ~20 ms per 100,000 entries.)
    for (const [at, byte] of [
      [bytes.length >> 1, 0xc3],
      [bytes.length >> 2, 10],
      [(bytes.length * 3) >> 2, 0],
    ] as const) {
      const changed = Buffer.from(bytes);
      changed[at] = byte;
      expect(check(changed)).toBeLessThan(700);
    }
    expect(check(Buffer.concat([bytes, bytes.subarray(0, 5000)]))).toBe(700); // a torn copy after the end
  });

  it("skips a block of the wrong shape and an entry with a value of the wrong type", () => {
    const cache = sample(30);
    const file = newFile();
    saveScanCache(file, cache);
    const [header, ...blocks] = readFileSync(file, "latin1").trimEnd().split("\n");
    const parsed = blocks.map((line) => JSON.parse(line) as [string | null, string[], string[], unknown[][]]);
    const [first, second] = parsed as [(typeof parsed)[number], (typeof parsed)[number]];
    first[3][2]!.pop(); // the sizes of the first block: one short
    second[3][13]![0] = "1"; // the first entry of the second block: a count as text
    const ascii = (json: string) =>
      json.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
    writeFileSync(file, [header, ...parsed.map((b) => ascii(JSON.stringify(b)))].join("\n"));
    const loaded = loadScanCache(file);
    for (const name of first[2])
      expect(loaded.has(first[0] === null ? name : `${first[0]}/${name}`)).toBe(false);
    expect(loaded.has(`${second[0]}/${second[2][0]}`)).toBe(false);
    expect(loaded.size).toBe(30 - first[2].length - 1);
    for (const [key, value] of loaded) expect(value).toEqual(cache.get(key));
  });
});

describe("the reader and a rewrite", () => {
  it("finds each entry in the order written and in any other order", () => {
    const cache = sample();
    const file = newFile();
    saveScanCache(file, cache);
    const keys = [...cache.keys()];
    for (const order of [keys, [...keys].reverse(), keys.filter((_, i) => i % 2 === 0)]) {
      const reader = ScanCacheReader.open(file)!;
      for (const key of order) expect(reader.get(key)).toEqual(cache.get(key));
      expect(reader.get("/store/--big--/not there.jsonl")).toBeUndefined();
      expect(reader.get("/elsewhere/1.jsonl")).toBeUndefined();
      reader.close();
    }
  });

  it("keeps the entries reused and other stores', drops the rest under the roots, and writes new ones in their place", () => {
    const file = newFile();
    const cache = sample(1000);
    saveScanCache(file, cache);
    const keys = [...cache.keys()];
    const roots = ["/store/--big--"];
    const under = (key: string) => key.startsWith("/store/--big--/");
    // A scan of /store/--big--: every third file unchanged, every fifth read again, the rest gone.
    const reader = ScanCacheReader.open(file)!;
    const writer = new ScanCacheWriter(file, roots);
    writer.inPlace();
    const expected = new Map<string, CacheEntry>();
    keys.forEach((key, i) => {
      if (!under(key)) return expected.set(key, cache.get(key)!) && undefined;
      if (!reader.get(key)) throw new Error(`no entry for ${key}`);
      if (i % 3 === 0) {
        reader.reuse(key);
        expected.set(key, cache.get(key)!);
      } else if (i % 5 === 0) {
        const changed = { ...entry(i), size: 99_999 };
        writer.add(key, changed);
        expected.set(key, changed);
      }
    });
    const added = { ...entry(5000), size: 1 };
    writer.add("/store/--big--/new.jsonl", added);
    expect(ScanCacheWriter.anyNotReused(reader, roots)).toBe(true);
    writer.copyReused(reader, roots);
    reader.close();
    writer.commit();
    const after = loadScanCache(file);
    expect(after).toEqual(new Map([...expected, ["/store/--big--/new.jsonl", added]]));
    // In the order the files were met: the reader's cursor finds them without a map.
    const order = [...after.keys()].filter(under);
    expect(order).toEqual([
      ...keys.filter((key) => expected.has(key) && under(key)),
      "/store/--big--/new.jsonl",
    ]);
  });

  it("says a rewrite would change nothing when every entry under the roots was reused", () => {
    const file = newFile();
    const cache = sample(1000);
    saveScanCache(file, cache);
    const roots = ["/store/--big--"];
    const reader = ScanCacheReader.open(file)!;
    for (const key of cache.keys()) {
      if (!key.startsWith("/store/--big--/")) continue;
      reader.get(key);
      reader.reuse(key);
    }
    expect(ScanCacheWriter.anyNotReused(reader, roots)).toBe(false);
    // The whole-key block (paths that are not UTF-8) is under /store: its entries were not reused.
    expect(ScanCacheWriter.anyNotReused(reader, ["/store"])).toBe(true);
    reader.close();
  });
});

/**
 * One scan of `roots` with the cache file: every file found is looked up, those in `changed` are
 * read again (their new entries given), those in `gone` were not found; the cache is then written.
 */
function scanWith(
  file: string,
  roots: string[],
  found: string[],
  changed: Map<string, CacheEntry>,
): { appended: boolean } {
  const reader = ScanCacheReader.open(file)!;
  const writer = new ScanCacheWriter(file, roots);
  writer.inPlace(reader);
  for (const key of found) {
    const cached = reader.get(key);
    const now = changed.get(key);
    if (now) writer.add(key, now);
    else if (cached) reader.reuse(key);
  }
  const inode = statSync(file).ino;
  writer.copyReused(reader, roots);
  reader.close();
  writer.commit();
  return { appended: statSync(file).ino === inode };
}

describe("the journal: entries of files read again, appended", () => {
  const roots = ["/store"];
  const allUnder = (n: number) => {
    const cache: ScanCache = new Map();
    for (let i = 0; i < n; i++) cache.set(`/store/--f${i % 4}--/${i}.jsonl`, entry(i));
    return cache;
  };

  it("a few files read again, none gone: their entries are appended, and stand for the earlier ones", () => {
    const file = newFile();
    const cache = allUnder(1000);
    saveScanCache(file, cache);
    const keys = [...cache.keys()];
    const expected = new Map(cache);
    for (const round of [1, 2, 3]) {
      const changed = new Map(
        keys.filter((_, i) => i % 97 === round).map((k) => [k, { ...entry(round), size: round }]),
      );
      const added = `/store/--f0--/new ${round}.jsonl`;
      changed.set(added, { ...entry(round), size: 7 });
      const before = readFileSync(file).length;
      expect(
        scanWith(
          file,
          roots,
          [...keys, ...[...expected.keys()].filter((k) => k.includes("new")), added],
          changed,
        ),
      ).toEqual({
        appended: true,
      });
      expect(readFileSync(file).length).toBeGreaterThan(before);
      for (const [key, value] of changed) expected.set(key, value);
      expect(loadScanCache(file)).toEqual(expected);
      // The reader finds the latest entry of each file, in the order of a scan or any other.
      const reader = ScanCacheReader.open(file)!;
      for (const key of [...expected.keys()].reverse()) expect(reader.get(key)).toEqual(expected.get(key));
      reader.close();
    }
    expect(
      readFileSync(file, "latin1")
        .split("\n")
        .filter((line) => line === '"journal"'),
    ).toHaveLength(3);

    // A file gone: the file is written anew, the journal's entries where their files' were.
    const found = [...expected.keys()].filter((k) => k !== keys[500]);
    expect(scanWith(file, roots, found, new Map())).toEqual({ appended: false });
    expected.delete(keys[500]!);
    expect(readFileSync(file, "latin1")).not.toContain('"journal"');
    expect(loadScanCache(file)).toEqual(expected);
    expect([...loadScanCache(file).keys()].slice(0, 50)).toEqual(found.slice(0, 50)); // the scan's order
  });

  it("a journal grown past an eighth of the file is not appended to: the file is written anew", () => {
    const file = newFile();
    const cache = allUnder(1000);
    saveScanCache(file, cache);
    const keys = [...cache.keys()];
    const changed = new Map(keys.filter((_, i) => i % 3 === 0).map((k) => [k, { ...entry(1), size: 1 }]));
    expect(scanWith(file, roots, keys, changed)).toEqual({ appended: false });
    expect(loadScanCache(file)).toEqual(new Map([...cache, ...changed]));
  });

  it("a file that could not be read, or a journal cut short: written anew, without them", () => {
    const file = newFile();
    const cache = allUnder(300);
    saveScanCache(file, cache);
    const keys = [...cache.keys()];
    const changed = new Map([[keys[1]!, { ...entry(1), size: 1 }]]);
    expect(scanWith(file, roots, keys, changed)).toEqual({ appended: true });
    // Looked up, then neither reused nor read again (its read failed): its entry goes.
    const reader = ScanCacheReader.open(file)!;
    const writer = new ScanCacheWriter(file, roots);
    writer.inPlace(reader);
    for (const key of keys) if (reader.get(key) && key !== keys[2]) reader.reuse(key);
    expect(ScanCacheWriter.anyNotReused(reader, roots)).toBe(true);
    writer.copyReused(reader, roots);
    reader.close();
    writer.commit();
    const expected = new Map([...cache, ...changed]);
    expected.delete(keys[2]!);
    expect(loadScanCache(file)).toEqual(expected);
    // An append cut short: that block's entries are not read; the next write drops it.
    expect(
      scanWith(file, roots, [...expected.keys()], new Map([[keys[3]!, { ...entry(3), size: 3 }]])),
    ).toEqual({
      appended: true,
    });
    writeFileSync(file, readFileSync(file).subarray(0, -20));
    expect(loadScanCache(file)).toEqual(expected);
    expect(scanWith(file, roots, [...expected.keys()], new Map())).toEqual({ appended: false });
    expect(loadScanCache(file)).toEqual(expected);
  });

  it("another store's journal stays a journal when this store's scan writes the file anew; copyFrom keeps only the latest entries", () => {
    const file = newFile();
    const cache = sample(1000); // /store/--big--/…, /store/--ü…--/…, /store/N.jsonl and whole keys
    saveScanCache(file, cache);
    const other = ["/store/--big--"];
    const otherKeys = [...cache.keys()].filter((k) => k.startsWith("/store/--big--/"));
    const changed = new Map([[otherKeys[7]!, { ...entry(7), size: 7 }]]);
    expect(scanWith(file, other, otherKeys, changed)).toEqual({ appended: true });
    const expected = new Map([...cache, ...changed]);
    // This store: the flat root's files, one of them gone.
    const mine = ["/store/--ü 1--"];
    const myKeys = [...cache.keys()].filter((k) => k.startsWith("/store/--ü 1--/"));
    expect(scanWith(file, mine, myKeys.slice(1), new Map())).toEqual({ appended: false });
    expected.delete(myKeys[0]!);
    expect(loadScanCache(file)).toEqual(expected);
    expect(readFileSync(file, "latin1")).toContain('\n"journal"\n');
    const reader = ScanCacheReader.open(file)!;
    expect(reader.get(otherKeys[7]!)).toEqual(changed.get(otherKeys[7]!));
    reader.close();
    // A server's rewrite (copyFrom) keeps each file's latest entry once, and no journal.
    const writer = new ScanCacheWriter(file);
    writer.copyFrom(file, () => true);
    writer.commit();
    expect(readFileSync(file, "latin1")).not.toContain('"journal"');
    expect(loadScanCache(file)).toEqual(expected);
    const keys = readFileSync(file, "latin1")
      .trimEnd()
      .split("\n")
      .slice(1)
      .flatMap((line) => {
        const [folder, , names] = JSON.parse(line) as [string | null, string[], string[]];
        return names.map((name) => (folder === null ? name : `${folder}/${name}`));
      });
    expect(new Set(keys).size).toBe(keys.length);
  });
});
