import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { collectGarbage } from "./heap.js";

describe("collectGarbage", () => {
  it("collects what nothing refers to any more, and can run again", async () => {
    let target: number[] | undefined = new Array<number>(100_000).fill(1);
    const ref = new WeakRef(target);
    target = undefined;
    await new Promise((done) => setImmediate(done)); // a WeakRef holds its target until the job ends
    collectGarbage();
    expect(ref.deref()).toBeUndefined();
    expect(() => collectGarbage()).not.toThrow();
  });
});

describe("limitHeapGrowth", () => {
  // A fresh process each (the flags are for the whole process), running the compiled module: ~30 MB
  // kept, then garbage the way a scan makes it — objects that live through a few young collections,
  // and arrays large enough to go straight to the old generation.
  const built = fileURLToPath(new URL("../../dist/server/http/heap.js", import.meta.url));
  const heapUnderLoad = (limited: boolean) => {
    const script = `
      import { getHeapSpaceStatistics, getHeapStatistics } from "node:v8";
      const { collectGarbage, limitHeapGrowth } = await import(${JSON.stringify(built)});
      if (${limited}) limitHeapGrowth();
      const kept = Array.from({ length: 400_000 }, (_, i) => ({ i, s: "x" + i }));
      collectGarbage();
      let young = 0;
      let heap = 0;
      for (let round = 0; round < 1000; round++) {
        globalThis.recent = Array.from({ length: 5_000 }, (_, i) => ({ i, s: "y" + i }));
        globalThis.large = new Array(64 * 1024).fill(round);
        const newSpace = getHeapSpaceStatistics().find((s) => s.space_name === "new_space");
        young = Math.max(young, newSpace.space_size);
        heap = Math.max(heap, getHeapStatistics().total_heap_size);
      }
      console.log(JSON.stringify({ young, heap, kept: kept.length }));`;
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
    return JSON.parse(out) as { young: number; heap: number };
  };

  it("keeps the young generation at its size and the heap nearer what is live", () => {
    const free = heapUnderLoad(false);
    const limited = heapUnderLoad(true);
    // V8 left alone doubles the young generation to 32 MB and lets the old one grow to ~4× what is live.
    expect(free.young).toBeGreaterThanOrEqual(16 * 2 ** 20);
    expect(limited.young).toBeLessThanOrEqual(8 * 2 ** 20);
    expect(limited.heap).toBeLessThan(free.heap * 0.75);
  });
});
