// The per-process cache of what a file says: read once while unchanged, forgotten once gone.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { identityOf } from "../fs/file-identity.js";
import { FactsCache } from "./facts-cache.js";
import { lstatSync } from "node:fs";

function counting() {
  const reads: string[] = [];
  const cache = new FactsCache("test@1", (path) => {
    reads.push(path);
    return { facts: readFileSync(path, "utf8"), identity: identityOf(lstatSync(path, { bigint: true })) };
  });
  return { cache, reads };
}

describe("FactsCache", () => {
  it("reads a file once while it is unchanged, and again once it changed", () => {
    const root = mkdtempSync(join(tmpdir(), "sr-facts-"));
    const file = join(root, "a.jsonl");
    writeFileSync(file, "one\n");
    const { cache, reads } = counting();
    expect(cache.get(file).facts).toBe("one\n");
    expect(cache.get(file).facts).toBe("one\n");
    expect(reads).toHaveLength(1);
    writeFileSync(file, "one\ntwo\n");
    expect(cache.get(file).facts).toBe("one\ntwo\n");
    // Same size, another time: read again too.
    writeFileSync(file, "one\nTWO\n");
    utimesSync(file, new Date(2020, 0, 1), new Date(2020, 0, 1));
    expect(cache.get(file).facts).toBe("one\nTWO\n");
    expect(reads).toHaveLength(3);
  });

  it("forgets, at the end of a scan of a root, that root's files the scan did not ask for — not another root's", () => {
    const [a, b] = [mkdtempSync(join(tmpdir(), "sr-facts-a-")), mkdtempSync(join(tmpdir(), "sr-facts-b-"))];
    mkdirSync(join(a, "p"));
    const files = [join(a, "p", "1.jsonl"), join(a, "p", "2.jsonl"), join(b, "3.jsonl")];
    for (const file of files) writeFileSync(file, "x\n");
    const { cache, reads } = counting();
    for (const file of files) cache.get(file);
    cache.forgetUnasked(a);
    expect(cache.size).toBe(3);
    // The next scan of `a` finds only the first file: the second is forgotten, `b`'s is kept.
    rmSync(files[1]!);
    cache.get(files[0]!);
    cache.forgetUnasked(a);
    expect(cache.size).toBe(2);
    cache.get(files[2]!);
    expect(reads).toHaveLength(3);
  });
});
