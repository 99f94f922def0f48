// --version and -V print the installed package's version, read from package.json when run.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { packageVersion } from "./version-command.js";

const repo = fileURLToPath(new URL("../..", import.meta.url));
const bin = join(repo, "bin", "session-retention.js");
const version = (JSON.parse(readFileSync(join(repo, "package.json"), "utf8")) as { version: string }).version;

describe("session-retention --version", () => {
  it("--version and -V print the package.json version alone and exit 0", () => {
    for (const flag of ["--version", "-V"])
      expect(execFileSync(process.execPath, [bin, flag], { encoding: "utf8" })).toBe(`${version}\n`);
  });

  it("is listed in --help", () => {
    expect(execFileSync(process.execPath, [bin, "--help"], { encoding: "utf8" })).toMatch(
      /^Options:\n {2}--version, -V /m,
    );
  });

  it("reads the nearest package.json when run, so a new version needs no rebuild", () => {
    const root = mkdtempSync(join(tmpdir(), "sr-version-"));
    writeFileSync(
      join(root, "package.json"),
      JSON.stringify({ name: "session-retention", version: "9.8.7" }),
    );
    const deep = join(root, "dist", "server", "cli");
    mkdirSync(deep, { recursive: true });
    expect(packageVersion(deep)).toBe("9.8.7");
  });
});
