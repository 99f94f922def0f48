// The `scan` table's warm way (a row per unchanged file in the facts store, records only for the
// files that changed, sums and the sessions shown by queries) must show exactly what a full scan
// shows, after any sequence of what agents, users and other programs do to a store.
import {
  appendFileSync,
  lstatSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { SORT_ORDERS } from "../../shared/sort.js";
import { line, newStore, stepArb } from "../../test-support/store-steps.js";
import { lstatMs } from "../fs/file-identity.js";
import { overviewOf, type ScanOverview, scanOverview } from "./overview.js";
import { tableRows } from "../../test-support/facts-db.js";
import { FactsStore, factsFileIn } from "../state/facts-store.js";
import { growthFile, readGrowth } from "../state/growth-store.js";
import { scan } from "./scanner.js";
import { piStores } from "../../test-support/pi-stores.js";

const work = mkdtempSync(join(tmpdir(), "sr-overview-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** What the table shows (how long it took and how much was read aside). */
const shown = ({ stats: _, warm: __, ...rest }: ScanOverview) => rest;

const orderArb = fc.constantFrom(...SORT_ORDERS);

describe("the overview's warm way", () => {
  it("shows what a full scan shows, after any sequence of changes", async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(stepArb, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 5 }),
        fc.nat(30),
        orderArb,
        async (batches, top, order) => {
          const store = newStore(work, `steps-${run++}`);
          const state = mkdtempSync(join(work, "state-"));
          const stores = piStores(store.root);
          const options = { growth: { recordIn: state }, cacheDir: join(state, "cache"), top, order };
          // pi's index stays empty here: with files in it, the full scan is the way (tested below).
          // However much changed, the warm way: it is what is tested.
          const request = { ...options, mostChanged: 1 };
          await scanOverview(stores, request); // the full way, which writes the rows
          for (const batch of batches) {
            for (const step of batch) if (step.kind !== "meta") store.apply(step);
            const full = overviewOf(await scan(stores, { growth: "read-only", topN: top }), top, order);
            // Once after the changes, once more with nothing changed (the rows' own marks).
            for (let again = 0; again < 2; again++) {
              const warm = await scanOverview(stores, request);
              expect(warm.warm).toBe(true);
              expect(shown(warm)).toEqual(shown(full));
            }
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it("with no rows yet (cold), shows what a full scan shows and backfills the same growth, holding no record past its row", async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(stepArb, { maxLength: 8 }),
        fc.nat(30),
        orderArb,
        async (steps, top, order) => {
          const store = newStore(work, `cold-${run++}`);
          for (const step of steps) if (step.kind !== "meta") store.apply(step);
          const stores = piStores(store.root);
          const [coldState, fullState] = [
            mkdtempSync(join(work, "state-")),
            mkdtempSync(join(work, "state-")),
          ];
          const now = () => new Date("2026-11-28T12:00:00Z");
          const phases: string[] = [];
          const cold = await scanOverview(stores, {
            growth: { recordIn: coldState },
            cacheDir: join(coldState, "cache"),
            top,
            order,
            now,
            onProgress: (p) => phases.push(p.phase),
            progressIntervalMs: 0,
          });
          expect(cold.warm).toBe(false);
          // A first table of a large store reads for a while: it says how far it is, as a full scan does.
          if (cold.stats.filesRead > 0) expect(phases).toContain("reading");
          expect(phases.at(-1)).toBe("done");
          const report = await scan(stores, { growth: { recordIn: fullState }, topN: top, now });
          expect(shown(cold)).toEqual(shown(overviewOf(report, top, order)));
          const history = (dir: string) => readGrowth(growthFile(dir, stores));
          expect(history(coldState)).toEqual(history(fullState));
          // Its rows are the full way's: the next table takes them (a `.jsonl` file that is not a
          // session has no row, and is read each time: however many, the warm way is tested).
          const again = await scanOverview(stores, {
            growth: "read-only",
            cacheDir: join(coldState, "cache"),
            top,
            order,
            mostChanged: 1,
          });
          expect(again.warm).toBe(true);
          expect(shown(again)).toEqual(shown(cold));
        },
      ),
      { numRuns: 30 },
    );
  });

  it("takes the rows when nothing or little changed, and reads only what changed", async () => {
    const store = newStore(work, "warm");
    for (let i = 0; i < 12; i++) store.apply({ kind: "new-session", cwd: i % 3 });
    const state = mkdtempSync(join(work, "state-"));
    const stores = piStores(store.root);
    const request = {
      growth: { recordIn: state },
      cacheDir: join(state, "cache"),
      top: 3,
      order: "lru" as const,
    };
    expect((await scanOverview(stores, request)).warm).toBe(false); // no rows yet
    const again = await scanOverview(stores, request);
    expect(again.warm).toBe(true);
    expect(again.stats.filesRead).toBe(0);
    const [first] = store.sessions();
    store.apply({ kind: "append", pick: 0, half: false });
    const appended = await scanOverview(stores, request);
    expect(appended.warm).toBe(true);
    expect(appended.stats.filesRead).toBe(1);
    expect(appended.stats.cacheHits).toBe(appended.sessionCount - 1);
    // Read once: its row has it as it is now, and the next table reads nothing.
    const row = tableRows(factsFileIn(request.cacheDir)).get(first!)!;
    expect([row.size, row.mtime_ms]).toEqual([lstatSync(first!).size, lstatSync(first!).mtimeMs]);
    const after = await scanOverview(stores, request);
    expect(after.warm).toBe(true);
    expect(after.stats.filesRead).toBe(0);
  });

  it("tells a file that grew from the one it knew by its size alone (an mtime can stay within a clock tick)", async () => {
    const store = newStore(work, "same-mtime");
    const state = mkdtempSync(join(work, "state-"));
    const stores = piStores(store.root);
    const request = {
      growth: { recordIn: state },
      cacheDir: join(state, "cache"),
      top: 50,
      order: "size" as const,
      mostChanged: 1, // two sessions: one changed is half of them
    };
    const [file] = store.sessions();
    const tick = 1_700_000_000; // every write below leaves this very mtime
    utimesSync(file!, tick, tick);
    await scanOverview(stores, request); // the full way: the rows
    let pending = "";
    for (let grown = 0; grown < 3; grown++) {
      // Once against the row a full scan wrote, then against the rows the warm way wrote.
      // A half line first (a warning more), then its end, then a whole line.
      const text = `${line(`grown ${grown}`, grown)}\n`;
      appendFileSync(file!, grown === 0 ? text.slice(0, 20) : grown === 1 ? pending.slice(20) : text);
      pending = text;
      utimesSync(file!, tick, tick);
      const warm = await scanOverview(stores, request);
      expect(warm.warm).toBe(true);
      const full = overviewOf(await scan(stores, { growth: "read-only" }), 50, "size");
      expect(shown(warm)).toEqual(shown(full));
    }
  });

  it("takes the full way for --precise, for pi's index and for a damaged database (and makes a good one)", async () => {
    const store = newStore(work, "ways");
    const state = mkdtempSync(join(work, "state-"));
    const stores = piStores(store.root);
    const cacheDir = join(state, "cache");
    const request = { growth: { recordIn: state }, cacheDir, top: 5, order: "size" as const };
    await scanOverview(stores, request);
    expect((await scanOverview(stores, request)).warm).toBe(true);
    expect((await scanOverview(stores, { ...request, precise: true })).warm).toBe(false);

    writeFileSync(join(store.metaDir, "x.meta.json"), "{}");
    expect((await scanOverview(stores, { ...request, metaDir: store.metaDir })).warm).toBe(false);

    const file = factsFileIn(cacheDir);
    const bytes = readFileSync(file);
    writeFileSync(file, bytes.fill(0x55, 100)); // its pages garbage
    const damaged = await scanOverview(stores, request);
    expect(damaged.warm).toBe(false);
    const full = overviewOf(await scan(stores, { growth: "read-only" }), 5, "size");
    expect(shown(damaged)).toEqual(shown(full));
    expect((await scanOverview(stores, request)).warm).toBe(true);

    const facts = FactsStore.open(file)!;
    facts.clear(); // `cache clear`: the rows go with the facts
    facts.close();
    expect(tableRows(file).size).toBe(0);
    expect((await scanOverview(stores, request)).warm).toBe(false);
  });
});

describe("lstatMs", () => {
  it("is the mtime a plain lstat gives, from the nanoseconds", () => {
    const file = join(work, "times");
    writeFileSync(file, "x");
    const times = [0, 1.5, 1_700_000_000.123_456_7, 1_764_000_000.999_999, 4_102_444_800.25];
    for (const seconds of times) {
      utimesSync(file, seconds, seconds);
      const ns = lstatSync(file, { bigint: true }).mtimeNs.toString();
      expect(lstatMs(ns)).toBe(lstatSync(file).mtimeMs);
    }
  });
});
