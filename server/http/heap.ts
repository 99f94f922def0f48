// How the dashboard's server keeps V8's heap near what it holds: one look at the stores (at
// 100,000 sessions ~70 MB of records and ~16 MB of table bytes) and the garbage of the next scan.
//
// A dashboard left open takes a new look at the stores every few seconds. A scan makes garbage in
// bursts (the first one ~200 MB, a rescan tens of MB), and V8 lets the old generation grow to a
// limit it sets from what survived the last full collection — up to four times that on a machine
// with plenty of memory. So the heap floated between ~250 and ~450 MiB of mostly garbage.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/**
 * V8's old-generation limit after a full collection, as a percentage above what survived it. V8
 * chooses 10–300 % from how fast it collects; 50 % means a few more full collections during a scan.
 */
const HEAP_GROWING_PERCENT = 50;

/**
 * For the whole process: a long-running server that holds one large look. Not for one-shot
 * commands, which are done before the heap matters and would only be slowed.
 *
 * Both flags are read by V8 as it goes (the limit at each full collection, the growth factor each
 * time the young generation would grow), so setting them at run time works from then on. The
 * young generation keeps the size it has now (a few MB) instead of doubling to 32 MB under a
 * scan's allocations. Measured at 100,000 sessions (`npm run bench`): the peak RSS after a few
 * rescans went from 300–370 MB to 235–250 MB; a rescan takes ~0.3 s longer.
 */
export function limitHeapGrowth(): void {
  try {
    setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
    setFlagsFromString("--semi-space-growth-factor=1");
  } catch {
    // Only a memory optimization.
  }
}

let gc: (() => void) | undefined | null = null;

/**
 * Runs a full collection now; does nothing where V8 will not expose one. After each look (45–110 ms
 * at 100,000 sessions, once per look): what the scan left and the last look's records and table
 * are garbage then, and collecting them before the next scan keeps the heap near one look.
 */
export function collectGarbage(): void {
  if (gc === null) {
    gc = (globalThis as { gc?: () => void }).gc;
    if (!gc) {
      try {
        // Only contexts created after the flag see `gc`: a new one hands it over.
        setFlagsFromString("--expose-gc");
        const exposed: unknown = runInNewContext("gc");
        gc = typeof exposed === "function" ? (exposed as () => void) : undefined;
      } catch {
        gc = undefined;
      }
    }
  }
  gc?.();
}
