import { describe, expect, it } from "vitest";
import { collectGarbage } from "./collect-garbage.js";

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
