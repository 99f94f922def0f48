// The tree watcher on real folders: one watch per folder as deep as asked, new folders watched from
// the moment they appear, a root that goes away and comes back (or is replaced), and nothing after
// close.
import { appendFileSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type TreeWatch, watchTree } from "./tree-watcher.js";

const open: TreeWatch[] = [];
afterEach(() => {
  for (const watch of open.splice(0)) watch.close();
});

function watched(root: string, depth: number) {
  const seen = new Set<string>();
  const failures: Error[] = [];
  const watch = watchTree(root, { depth, onChange: (p) => seen.add(p), onFailure: (e) => failures.push(e) });
  open.push(watch);
  return { watch, seen, failures };
}

const tree = () => {
  const root = join(mkdtempSync(join(tmpdir(), "sr-watch-")), "root");
  mkdirSync(join(root, "a", "deep", "deeper"), { recursive: true });
  mkdirSync(join(root, "b"));
  writeFileSync(join(root, "a", "one.jsonl"), "1\n");
  return root;
};

describe("watchTree", () => {
  it("watches each folder down to the depth asked, and reports a change deeper down at that depth", async () => {
    const root = tree();
    const { watch, seen } = watched(root, 1);
    expect(watch.folders).toBe(3); // root, a, b — not a/deep
    appendFileSync(join(root, "a", "one.jsonl"), "2\n");
    await expect.poll(() => seen.has(join(root, "a", "one.jsonl"))).toBe(true);
    writeFileSync(join(root, "a", "deep", "deeper", "x"), "x");
    writeFileSync(join(root, "a", "deep", "y"), "y");
    // A write it does see, after them: the kernel queues a process's watch events in order, so
    // once this one is here any event of the two above would be too.
    writeFileSync(join(root, "b", "after.jsonl"), "after");
    await expect.poll(() => seen.has(join(root, "b", "after.jsonl"))).toBe(true);
    expect([...seen].some((p) => p.startsWith(join(root, "a", "deep")))).toBe(false);
  });

  it("watches a folder made after it started, and forgets one removed", async () => {
    const root = tree();
    const { watch, seen } = watched(root, 1);
    mkdirSync(join(root, "c"));
    await expect.poll(() => watch.folders).toBe(4);
    writeFileSync(join(root, "c", "new.jsonl"), "{}\n");
    await expect.poll(() => seen.has(join(root, "c", "new.jsonl"))).toBe(true);
    rmSync(join(root, "b"), { recursive: true });
    await expect.poll(() => watch.folders).toBe(3);
    expect(seen.has(join(root, "b"))).toBe(true);
    // Moved out and back in: reported both times, and watched again.
    renameSync(join(root, "a"), join(root, "..", "a-away"));
    await expect.poll(() => watch.folders).toBe(2);
    renameSync(join(root, "..", "a-away"), join(root, "a"));
    await expect.poll(() => watch.folders).toBe(3);
    seen.clear();
    appendFileSync(join(root, "a", "one.jsonl"), "3\n");
    await expect.poll(() => seen.has(join(root, "a", "one.jsonl"))).toBe(true);
  });

  it("reports a root that goes away, and watches it again when it comes back", async () => {
    const root = tree();
    const { watch, seen, failures } = watched(root, 1);
    rmSync(root, { recursive: true });
    await expect.poll(() => watch.folders).toBe(0);
    expect(seen.has(root)).toBe(true);
    seen.clear();
    mkdirSync(join(root, "b"), { recursive: true });
    await expect.poll(() => seen.has(root), { timeout: 5000 }).toBe(true);
    await expect.poll(() => watch.folders, { timeout: 5000 }).toBe(2);
    writeFileSync(join(root, "b", "back.jsonl"), "{}\n");
    await expect.poll(() => seen.has(join(root, "b", "back.jsonl"))).toBe(true);
    expect(failures).toEqual([]);
  });

  it("notices a root replaced by another folder under the same name", async () => {
    const root = tree();
    const { seen } = watched(root, 1);
    const other = join(root, "..", "other");
    mkdirSync(join(other, "z"), { recursive: true });
    renameSync(root, join(root, "..", "old"));
    renameSync(other, root);
    await expect.poll(() => seen.has(root), { timeout: 5000 }).toBe(true);
    seen.clear();
    writeFileSync(join(root, "z", "in-the-new-root.jsonl"), "{}\n");
    await expect.poll(() => seen.has(join(root, "z", "in-the-new-root.jsonl")), { timeout: 5000 }).toBe(true);
  });

  it("reports nothing once closed", async () => {
    const root = tree();
    const { watch, seen } = watched(root, 1);
    watch.close();
    expect(watch.folders).toBe(0);
    // A second watch of the same folder, still open, says when the write's event has come.
    const second = watched(root, 1);
    writeFileSync(join(root, "a", "after.jsonl"), "{}\n");
    await expect.poll(() => second.seen.has(join(root, "a", "after.jsonl"))).toBe(true);
    expect(seen.size).toBe(0);
  });
});
