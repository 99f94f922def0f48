// A private folder is 0700 whether it is new or was left looser by an older version or by hand.
// (The suite runs as root, for whom modes stop nothing: they are checked as numbers.)
import { chmodSync, lstatSync, mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ensurePrivateDir } from "./private-files.js";

describe("ensurePrivateDir", () => {
  it("creates a folder 0700, and tightens one that exists with group or other bits", () => {
    const base = mkdtempSync(join(tmpdir(), "sr-ensure-"));
    expect(lstatSync(ensurePrivateDir(join(base, "new", "inner"))).mode & 0o777).toBe(0o700);
    const loose = join(base, "loose");
    mkdirSync(loose, { mode: 0o777 });
    chmodSync(loose, 0o775);
    ensurePrivateDir(loose);
    expect(lstatSync(loose).mode & 0o777).toBe(0o700);
  });
});
