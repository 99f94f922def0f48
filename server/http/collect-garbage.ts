// A full garbage collection, for a long-running server that has just dropped a large object graph.
//
// A dashboard left open takes a new look at the stores every few seconds. At 100,000 sessions a
// scan leaves tens of MB of garbage in V8's old generation (the first one ~200 MB), and a look
// replaced by the next leaves its table bytes (~20 MB) and the records it did not share. V8
// collects the old generation only when it reaches a limit it sets from what survived the last
// full collection, so over three rescans the heap (and RSS) grew from ~250 to ~450 MiB of mostly
// garbage. One full collection after each look (45–110 ms at 100,000 sessions, once per look)
// keeps the heap near what one look needs.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

let gc: (() => void) | undefined | null = null;

/** Runs a full collection now; does nothing where V8 will not expose one. */
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
