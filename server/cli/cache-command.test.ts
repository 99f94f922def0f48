// The scan cache per set of store roots, its bound, and `cache info|clear` — in the test's
// temporary home (never the real one), on stores written by pi's SessionManager.
import { existsSync, mkdtempSync, readFileSync, realpathSync, statSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeSession } from "../../test-support/pi-store.js";
import { cacheFileFor, settleCacheDir } from "../scan/scan-cache.js";
import { scanStores } from "../scan/scanner.js";
import { statePaths } from "../state/state-dir.js";
import type { CacheJson } from "./cache-command.js";
import { runCli } from "./main.js";
import { piStores } from "../../test-support/pi-stores.js";

async function run(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const status = await runCli(argv, { stdout: (t) => out.push(t), stderr: (t) => err.push(t) });
  return { status, stdout: out.join("\n"), stderr: err.join("\n") };
}

function store(sessions: number) {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "sr-cache-")));
  for (let i = 0; i < sessions; i++) writeSession(root, `/work/p${i % 3}`, 1);
  return root;
}

describe("the scan cache", () => {
  it("keeps one file per store, so a small store's warm scan loads none of a big store's entries", async () => {
    const dir = statePaths().scanCache;
    const big = store(40);
    const small = store(3);
    expect(await run("scan", "--root", big)).toMatchObject({ status: 0 });
    expect(await run("scan", "--root", small)).toMatchObject({ status: 0 });
    const smallFile = cacheFileFor(dir, [small]);
    const bigFile = cacheFileFor(dir, [big]);
    expect(readFileSync(smallFile, "utf8")).not.toContain(big);
    expect(readFileSync(bigFile, "utf8")).toContain(big);
    // Warm: every file of the small store is a cache hit, and only its own cache file was read.
    const warm = await scanStores({ stores: piStores(small), cacheDir: dir });
    expect(warm.stats).toMatchObject({ filesRead: 0, cacheHits: 3 });

    const info = JSON.parse((await run("cache", "info", "--json")).stdout) as CacheJson;
    expect(info.files.map((f) => f.roots)).toEqual(expect.arrayContaining([[big], [small]]));
    expect(info.files[0]!.roots).toEqual([small]); // the most recently used first
    expect(info.bytes).toBe(statSync(smallFile).size + statSync(bigFile).size + rest(info, [small, big]));
    const text = await run("cache", "info");
    expect(text.stdout).toMatch(/\d+ files?, [\d.]+ (B|KiB|MiB) in .*\(bound: 16 files, 256 MiB\)\.$/);
  });

  it("is bounded: beyond the limit the least recently used files go, never the one just used", async () => {
    const dir = join(mkdtempSync(join(tmpdir(), "sr-cache-lru-")), "cache");
    const files = ["a", "b", "c"].map((name) => cacheFileFor(dir, [`/stores/${name}`]));
    for (const [i, file] of files.entries()) {
      await scanStores({ stores: piStores(store(1)), cacheFile: file });
      const at = new Date(Date.now() - (3 - i) * 60_000); // a used longest ago, c last
      utimesSync(file, at, at);
    }
    // "a" is the oldest, but it is the one in use now: "b" goes instead.
    expect(settleCacheDir(dir, files[0]!, { files: 2, bytes: Number.MAX_SAFE_INTEGER })).toEqual([files[1]]);
    expect(files.map((f) => existsSync(f))).toEqual([true, false, true]);
    expect(settleCacheDir(dir, files[0]!, { files: 99, bytes: 0 })).toEqual([files[2]]);
  });

  it("cache clear removes every cache file (and an older version's single file); the next scan reads all again", async () => {
    const root = store(2);
    await run("scan", "--root", root);
    const cleared = await run("cache", "clear", "--json");
    expect(cleared.status).toBe(0);
    expect((JSON.parse(cleared.stdout) as CacheJson).files.length).toBeGreaterThan(0);
    expect(JSON.parse((await run("cache", "info", "--json")).stdout).files).toEqual([]);
    expect((await run("cache", "info")).stdout).toMatch(/^The scan cache is empty/);
    const cold = await scanStores({ stores: piStores(root), cacheDir: statePaths().scanCache });
    expect(cold.stats).toMatchObject({ filesRead: 2, cacheHits: 0 });
    expect(await run("cache", "frobnicate")).toMatchObject({ status: 2 });
  });
});

/** The bytes of the cache files of other tests' stores (the home is shared within this file). */
function rest(info: CacheJson, roots: string[]): number {
  return info.files.filter((f) => !roots.includes(f.roots[0] ?? "")).reduce((total, f) => total + f.bytes, 0);
}
