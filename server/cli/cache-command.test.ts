// The scan cache (the facts store), its bound, and `cache info|clear` — in the test's temporary home
// (never the real one), on stores written by pi's SessionManager.
import { existsSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { factsPaths } from "../../test-support/facts-db.js";
import { writeSession } from "../../test-support/pi-store.js";
import { scanStores } from "../scan/scanner.js";
import { FACTS_LIMITS, factsFileIn } from "../state/facts-store.js";
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

afterEach(() => {
  vi.useRealTimers();
});

describe("the scan cache", () => {
  it("keeps each store's facts apart: scanning one store neither reads nor forgets another's", async () => {
    const dir = statePaths().scanCache;
    const big = store(40);
    const small = store(3);
    expect(await run("scan", "--root", big)).toMatchObject({ status: 0 });
    expect(await run("scan", "--root", small)).toMatchObject({ status: 0 });
    const kept = factsPaths(factsFileIn(dir));
    expect(kept.filter((p) => p.startsWith(`${big}/`))).toHaveLength(40);
    expect(kept.filter((p) => p.startsWith(`${small}/`))).toHaveLength(3);
    // Warm: every file of each store is a cache hit.
    expect((await scanStores({ stores: piStores(small), cacheDir: dir })).stats).toMatchObject({
      filesRead: 0,
      cacheHits: 3,
    });
    expect((await scanStores({ stores: piStores(big), cacheDir: dir })).stats).toMatchObject({
      filesRead: 0,
      cacheHits: 40,
    });

    const info = JSON.parse((await run("cache", "info", "--json")).stdout) as CacheJson;
    expect(info.file).toBe(factsFileIn(dir));
    expect(info.roots).toEqual(
      expect.arrayContaining([
        { reader: "pi@1", root: big, files: 40, lastUsed: expect.any(String) },
        { reader: "pi@1", root: small, files: 3, lastUsed: expect.any(String) },
      ]),
    );
    expect(info.bytes).toBeGreaterThan(0);
    const text = await run("cache", "info");
    expect(text.stdout).toContain(big);
    expect(text.stdout).toMatch(
      /\d+ store roots?, [\d.]+ (B|KiB|MiB) in .*facts\.db \(bound: 32 roots per kind\)\.$/,
    );
  });

  it("is bounded: beyond the limit the roots scanned least recently go, never the one just scanned", async () => {
    const cacheFile = join(mkdtempSync(join(tmpdir(), "sr-cache-lru-")), "facts.db");
    const [a, b, c] = [store(1), store(1), store(1)];
    const limit = FACTS_LIMITS.roots;
    FACTS_LIMITS.roots = 2;
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      let at = Date.parse("2026-01-01T00:00:00Z");
      const scanAt = async (root: string) => {
        vi.setSystemTime((at += 2 * 3_600_000));
        return (await scanStores({ stores: piStores(root), cacheFile })).stats;
      };
      await scanAt(a);
      await scanAt(b);
      await scanAt(a); // used again: b is now the least recent
      await scanAt(c); // three roots: b goes
      expect(await scanAt(a)).toMatchObject({ filesRead: 0 });
      expect(await scanAt(c)).toMatchObject({ filesRead: 0 });
      expect(await scanAt(b)).toMatchObject({ filesRead: 1 }); // forgotten: read again (and a goes)
      expect(factsPaths(cacheFile).some((p) => p.startsWith(`${a}/`))).toBe(false);
    } finally {
      FACTS_LIMITS.roots = limit;
    }
  });

  it("cache clear empties the store (and removes the caches of earlier versions); the next scan reads all again", async () => {
    const root = store(2);
    await run("scan", "--root", root);
    const old = join(statePaths().scanCache, "0123456789abcdef.cache");
    writeFileSync(old, "an earlier version's cache");
    writeFileSync(statePaths().legacyScanCache, "an even earlier one");
    const cleared = await run("cache", "clear", "--json");
    expect(cleared.status).toBe(0);
    expect((JSON.parse(cleared.stdout) as CacheJson).roots.length).toBeGreaterThan(0);
    expect([existsSync(old), existsSync(statePaths().legacyScanCache)]).toEqual([false, false]);
    expect(JSON.parse((await run("cache", "info", "--json")).stdout).roots).toEqual([]);
    expect((await run("cache", "info")).stdout).toMatch(/^The scan cache is empty/);
    const cold = await scanStores({ stores: piStores(root), cacheDir: statePaths().scanCache });
    expect(cold.stats).toMatchObject({ filesRead: 2, cacheHits: 0 });
    expect(await run("cache", "frobnicate")).toMatchObject({ status: 2 });
  });
});
