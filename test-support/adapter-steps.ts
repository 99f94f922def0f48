// Property tests for a watched adapter store (Claude Code, Codex, Gemini CLI): after any sequence of
// random steps, the scan the server makes of what changed must equal a fresh scan — once given the
// paths each step touched (an ideal watcher), once given what the real tree watcher reported,
// watching as deep as the server does. Each adapter's test brings its store and its steps.
import { lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { expect, it } from "vitest";
import type { StoreKind } from "../shared/session-record.js";
import type { StoreScan } from "../server/stores/adapter-types.js";
import { watchTree } from "../server/fs/tree-watcher.js";
import { adapterOf } from "../server/stores/store-adapter.js";
import { scanStores } from "../server/scan/scanner.js";
import { normalized, settled } from "./report-compare.js";

/** One random step: its kind, and numbers that pick what it acts on among what is there. */
export interface Step<K extends string> {
  kind: K;
  pick: number;
  other: number;
}

export const stepArbOf = <K extends string>(kinds: readonly K[]): fc.Arbitrary<Step<K>> =>
  fc.record({ kind: fc.constantFrom(...kinds), pick: fc.nat(1000), other: fc.nat(1000) });

/** A store written for a test, and its steps: each applied returns the paths it touched. */
export interface SteppedStore<S> {
  root: string;
  apply(step: S): string[];
}

/** Every file below `folder`, at any depth, sorted (none when it is not there, or not a folder). */
export const filesUnder = (folder: string): string[] =>
  lstatSync(folder, { throwIfNoEntry: false })?.isDirectory()
    ? readdirSync(folder, { withFileTypes: true, recursive: true })
        .filter((e) => e.isFile())
        .map((e) => join(e.parentPath, e.name))
        .sort()
    : [];

/** The entries of `folder` (none when it is not there, or not a folder). */
export const entriesOf = (folder: string) =>
  lstatSync(folder, { throwIfNoEntry: false })?.isDirectory()
    ? readdirSync(folder, { withFileTypes: true })
    : [];

/** The item `n` picks among `items` (undefined when there is none). */
export const pickOf = <T>(items: readonly T[], n: number) =>
  items.length === 0 ? undefined : items[n % items.length];

/** The adapter's two ways: its whole scan, and its scan of what changed. */
export interface AdapterWays {
  scan: (root: string) => StoreScan;
  rescanChanged: (root: string, previous: StoreScan, changed: Iterable<string>) => StoreScan | undefined;
}

/**
 * The two properties, as `it`s of the caller's `describe`. The first also counts how many batches
 * the adapter placed itself: a property that held because every change fell back to a whole scan
 * would prove nothing about the placing.
 */
export function itFollowsEveryChange<S>(
  kind: Exclude<StoreKind, "pi">,
  stepArb: fc.Arbitrary<S>,
  newStore: (name: string) => SteppedStore<S>,
  runs: { ideal: number; watched: number },
  adapter: AdapterWays,
) {
  const batchesArb = (most: number) =>
    fc.array(fc.array(stepArb, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: most });
  async function followBatches(
    store: SteppedStore<S>,
    batches: S[][],
    changedBy: (batch: S[]) => Promise<Set<string>>,
  ) {
    const scanOf = (more = {}) => scanStores({ stores: [{ kind, root: store.root }], ...more });
    let look = await scanOf();
    for (const batch of batches) {
      look = await scanOf({ previous: look, changed: await changedBy(batch) });
      expect(normalized(look)).toEqual(normalized(await scanOf()));
    }
  }

  it("equals a fresh scan after any sequence of changes, given the paths each step touched", async () => {
    let run = 0;
    const batches = { placed: 0, all: 0 };
    await fc.assert(
      fc.asyncProperty(batchesArb(6), async (steps) => {
        const store = newStore(`ideal-${run++}`);
        await followBatches(store, steps, async (batch) => {
          const before = adapter.scan(store.root);
          const changed = new Set(batch.flatMap((s) => store.apply(s)));
          batches.all += 1;
          if (adapter.rescanChanged(store.root, before, changed)) batches.placed += 1;
          return changed;
        });
      }),
      { numRuns: runs.ideal, seed: 1127 },
    );
    expect(batches.placed / batches.all).toBeGreaterThan(0.15);
  }, 180_000);

  it("equals a fresh scan after any sequence of changes, given what the real tree watcher reported", async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(batchesArb(4), async (batches) => {
        const store = newStore(`watched-${run++}`);
        const seen = new Set<string>();
        const failures: unknown[] = [];
        const watch = watchTree(store.root, {
          depth: adapterOf(kind).watchDepth,
          onChange: (p) => seen.add(p),
          onFailure: (e) => failures.push(e),
        });
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
          watch.close();
        }
      }),
      { numRuns: runs.watched, seed: 1127 },
    );
  }, 180_000);
}
