// Counting ids from one scan to the next: what went and came, never a pass over every id, and the
// same answer as counting them all again.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { duplicateHolders, IdCounts } from "./duplicate-ids.js";

describe("IdCounts", () => {
  it("follows ids as records go and come", () => {
    const first = IdCounts.of(["a", "b", "c"]);
    expect([...first.duplicated]).toEqual([]);
    const twin = first.after([], ["b"]); // a second file with b's id came
    expect([...twin.duplicated]).toEqual(["b"]);
    expect(twin.count("b")).toBe(2);
    const rewritten = twin.after(["a"], ["a"]); // a file written again: the same id went and came
    expect(rewritten.count("a")).toBe(1);
    expect([...rewritten.duplicated]).toEqual(["b"]);
    const gone = rewritten.after(["b"], []);
    expect([...gone.duplicated]).toEqual([]);
    expect(gone.count("b")).toBe(1);
    // Each is left as it was: a scan that is dropped does not change the counts of the one before.
    expect([...first.duplicated]).toEqual([]);
    expect(twin.count("b")).toBe(2);
  });

  it("answers as a count of every id, after any sequence of goings and comings", () => {
    const id = fc.constantFrom("a", "b", "c", "d", "e");
    fc.assert(
      fc.property(
        fc.array(id, { maxLength: 12 }),
        fc.array(
          fc.record({ went: fc.array(fc.nat(20), { maxLength: 4 }), came: fc.array(id, { maxLength: 4 }) }),
          {
            maxLength: 30,
          },
        ),
        (start, steps) => {
          let records = [...start];
          let counts = IdCounts.of(records);
          for (const step of steps) {
            // Only records that are there can go.
            const went = [...new Set(step.went.filter((i) => i < records.length))].map((i) => records[i]!);
            const left = [...records];
            for (const gone of went) left.splice(left.indexOf(gone), 1);
            records = [...left, ...step.came];
            counts = counts.after(went, step.came);
            const fresh = IdCounts.of(records);
            expect([...counts.duplicated].sort()).toEqual([...fresh.duplicated].sort());
            for (const one of ["a", "b", "c", "d", "e"]) expect(counts.count(one)).toBe(fresh.count(one));
          }
        },
      ),
      { numRuns: 300, seed: 29 },
    );
  });

  it("gives duplicateHolders what it would have found itself", () => {
    const ids = ["x", "y", "x", "z", "y", "x"];
    const paths = ["/6", "/5", "/4", "/3", "/2", "/1"];
    const found = duplicateHolders(
      ids.length,
      (i) => ids[i]!,
      (i) => paths[i]!,
    );
    const given = duplicateHolders(
      ids.length,
      (i) => ids[i]!,
      (i) => paths[i]!,
      IdCounts.of(ids).duplicated,
    );
    expect(given).toEqual(found);
    expect(found.get("x")).toEqual([5, 2, 0]);
  });
});
