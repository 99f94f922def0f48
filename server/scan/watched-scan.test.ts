// A scan of only what changed (what the server does as a watcher reports paths) must equal a fresh
// scan of the whole store, after any sequence of what agents, users and other programs do to a
// store: appends (whole lines and half ones), new sessions and folders, renames, deletions (ours and
// others'), truncations, folder moves in and out, stray files and folders, symlinks, duplicates and
// pi's session index. Once with the paths each step touched (the ideal watcher), once with the real
// tree watcher's events.
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { normalized, settled } from "../../test-support/report-compare.js";
import { line, newStore, stepArb, type Step } from "../../test-support/store-steps.js";
import { watchTree } from "../fs/tree-watcher.js";
import type { CacheEntry } from "./scanner.js";
import { type ScanOptions, scanStores } from "./scanner.js";
import { piStores } from "../../test-support/pi-stores.js";

const work = mkdtempSync(join(tmpdir(), "sr-watched-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/**
 * Applies each batch of steps to a new store, scans what `changedBy` says changed, and checks the
 * result against a fresh scan after every batch.
 */
async function followBatches(
  store: ReturnType<typeof newStore>,
  batches: Step[][],
  changedBy: (batch: Step[]) => Promise<Set<string>>,
) {
  const memoryCache = new Map<string, CacheEntry>();
  const scanOf = (more: Partial<ScanOptions> = {}) =>
    scanStores({ stores: piStores(store.root), metaDir: store.metaDir, ...more });
  let look = await scanOf();
  for (const batch of batches) {
    look = await scanOf({ previous: look, changed: await changedBy(batch), memoryCache });
    expect(normalized(look)).toEqual(normalized(await scanOf()));
  }
}

const batchesArb = (most: number) =>
  fc.array(fc.array(stepArb, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: most });

describe("a scan of what changed, after any sequence of changes", () => {
  it("equals a fresh scan, given the paths each step touched", async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(batchesArb(6), async (batches) => {
        const store = newStore(work, `ideal-${run++}`);
        await followBatches(
          store,
          batches,
          async (batch) => new Set(batch.flatMap((step) => store.apply(step))),
        );
      }),
      { numRuns: 40, seed: 19 },
    );
  }, 120_000);

  it("equals a fresh scan, given what the real tree watcher reported", async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(batchesArb(5), async (batches) => {
        const store = newStore(work, `watched-${run++}`);
        const seen = new Set<string>();
        const failures: unknown[] = [];
        const watch = (root: string, depth: number) =>
          watchTree(root, { depth, onChange: (p) => seen.add(p), onFailure: (e) => failures.push(e) });
        const watches = [watch(store.root, 1), watch(store.metaDir, 0)];
        try {
          await followBatches(store, batches, async (batch) => {
            for (const step of batch) store.apply(step);
            await settled(seen);
            const changed = new Set(seen);
            seen.clear();
            return changed;
          });
          expect(failures).toEqual([]);
        } finally {
          for (const w of watches) w.close();
        }
      }),
      { numRuns: 25, seed: 19 },
    );
  }, 120_000);
});

describe("a name that is not valid UTF-8", () => {
  it("is found again through a listing: a change named lossily by a watcher lists the root and such folders", async () => {
    const store = newStore(work, "bytes");
    const folder = Buffer.concat([
      Buffer.from(`${store.root}/--caf`),
      Buffer.from([0xe9]),
      Buffer.from("--"),
    ]);
    mkdirSync(folder);
    const file = Buffer.concat([
      folder,
      Buffer.from("/2026-01-01T00-00-00-000Z_0badcafe-0000-4000-8000-000000000001.jsonl"),
    ]);
    writeFileSync(
      file,
      `${JSON.stringify({ type: "session", version: 3, id: "0badcafe-0000-4000-8000-000000000001", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/caf" })}\n`,
    );
    const memoryCache = new Map<string, CacheEntry>();
    const before = await scanStores({ stores: piStores(store.root), metaDir: store.metaDir });
    appendFileSync(file, line("in a folder named in Latin-1", 1) + "\n");
    // What a watcher says: the path as a (lossy) string.
    const changed = new Set([file.toString("utf8")]);
    const after = await scanStores({
      stores: piStores(store.root),
      metaDir: store.metaDir,
      previous: before,
      changed,
      memoryCache,
    });
    expect(normalized(after)).toEqual(
      normalized(await scanStores({ stores: piStores(store.root), metaDir: store.metaDir })),
    );
    expect(after.sessions.find((s) => s.id === "0badcafe-0000-4000-8000-000000000001")!.messageCount).toBe(1);
  });
});
