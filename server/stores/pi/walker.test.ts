// The walk's turns for the event loop: a server's rescan walks 100,000 files, and requests must not
// wait for the whole walk.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { walkPiRoot } from "./walker.js";

function store() {
  const root = mkdtempSync(join(tmpdir(), "sr-walk-"));
  for (const folder of ["--a--", "--b--"]) {
    mkdirSync(join(root, folder));
    for (let i = 0; i < 5; i++) writeFileSync(join(root, folder, `s${i}.jsonl`), "{}\n");
    writeFileSync(join(root, folder, "notes.txt"), "not a session");
  }
  return root;
}

const pathsOf = (walk: Awaited<ReturnType<typeof walkPiRoot>>) => [...walk.files].map((f) => f.path).sort();

describe("walkPiRoot", () => {
  it("asks after every entry whether to pause, and waits for the event loop when told to", async () => {
    const root = store();
    let asked = 0;
    let otherWorkRan = false;
    setImmediate(() => (otherWorkRan = true));
    const walk = await walkPiRoot(root, {
      pause: () => {
        asked += 1;
        return otherWorkRan ? undefined : new Promise<void>((done) => setImmediate(done));
      },
    });
    expect(otherWorkRan).toBe(true);
    expect(asked).toBe(2 + 2 * 6); // two folders, and five sessions and a note in each
    expect(pathsOf(walk)).toHaveLength(10);
  });

  it("without a pause runs to the end in one go, and finds the same files", async () => {
    const root = store();
    let otherWorkRan = false;
    setImmediate(() => (otherWorkRan = true));
    const walk = await walkPiRoot(root);
    expect(otherWorkRan).toBe(false);
    expect(pathsOf(walk)).toEqual(pathsOf(await walkPiRoot(root, { pause: () => Promise.resolve() })));
  });
});
