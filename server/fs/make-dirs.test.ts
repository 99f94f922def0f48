import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { UserError } from "../errors.js";
import { makeDirs } from "./make-dirs.js";

const repo = fileURLToPath(new URL("../..", import.meta.url));

describe("makeDirs", () => {
  it("creates every missing folder, private, and does nothing when it exists", () => {
    const base = mkdtempSync(join(tmpdir(), "sr-make-dirs-"));
    const deep = join(base, "a", "b", "c");
    makeDirs(deep);
    expect(statSync(deep).isDirectory()).toBe(true);
    expect(statSync(join(base, "a")).mode & 0o777).toBe(0o700);
    makeDirs(deep);
    makeDirs(join(deep, "..", "b2"));
    expect(existsSync(join(base, "a", "b", "b2"))).toBe(true);
  });

  it("names the folder it could not make, with the system error as the cause", () => {
    const base = mkdtempSync(join(tmpdir(), "sr-make-dirs-"));
    writeFileSync(join(base, "file"), "");
    let thrown: unknown;
    try {
      makeDirs(join(base, "file", "sub"));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(UserError);
    expect((thrown as Error).message).toContain(`cannot create the folder ${join(base, "file", "sub")}`);
    expect(((thrown as Error).cause as NodeJS.ErrnoException).code).toBe("EEXIST"); // mkdir of the file itself;
  });

  // Node's recursive mkdir spins for ever here (procfs answers ENOENT for a child of a folder that
  // exists). In a child process with a time limit, so that a regression fails instead of hanging the
  // test run; it runs the compiled module, as `npm test` builds it (tsc -b) before the tests.
  it.skipIf(!existsSync("/proc/self"))("under /proc, fails at once instead of spinning", () => {
    const child = spawnSync(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `const { makeDirs } = await import(${JSON.stringify(join(repo, "dist/server/fs/make-dirs.js"))});
         try { makeDirs("/proc/self/not-here/state"); console.log("made"); } catch (e) { console.log(e.cause?.code); }`,
      ],
      { encoding: "utf8", timeout: 10_000 },
    );
    expect(child.signal).toBeNull(); // not killed by the time limit
    expect(child.stdout.trim()).toBe("ENOENT");
  });
});
