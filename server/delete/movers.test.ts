// The `trash` package's traps (docs/safety.md G6) and the cross-file-system move, on real files.
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeConfigFile } from "../../test-support/config-file.js";
import { describe, expect, it } from "vitest";
import { setModified, writeSession } from "../../test-support/pi-store.js";
import { scanStores } from "../scan/scanner.js";
import { softDelete } from "./deletion-engine.js";
import { homeTrashDir, moveFile, moveToSystemTrash } from "./movers.js";
import { piStores } from "../../test-support/pi-stores.js";

const dir = () => realpathSync(mkdtempSync(join(tmpdir(), "sr-move-")));

describe("moveToSystemTrash", () => {
  it("treats a name with glob characters literally: sess[1].jsonl goes, sess1.jsonl stays", async () => {
    const folder = dir();
    writeFileSync(join(folder, "sess[1].jsonl"), "bracketed\n");
    writeFileSync(join(folder, "sess1.jsonl"), "the one a glob would match\n");
    const [moved] = await moveToSystemTrash([
      { path: join(folder, "sess[1].jsonl"), sizeBytes: "bracketed\n".length, folder: false },
    ]);
    if (!moved || "error" in moved) throw new Error("not moved");
    expect(readFileSync(moved.location, "utf8")).toBe("bracketed\n");
    expect(readFileSync(join(folder, "sess1.jsonl"), "utf8")).toBe("the one a glob would match\n");
    expect(existsSync(join(folder, "sess[1].jsonl"))).toBe(false);
  });

  it("does not believe the package's success for a path that does not exist, and judges each path of a batch on its own", async () => {
    const folder = dir();
    writeFileSync(join(folder, "real.jsonl"), "here\n");
    const outcomes = await moveToSystemTrash([
      { path: join(folder, "never-there.jsonl"), sizeBytes: 10, folder: false },
      { path: join(folder, "real.jsonl"), sizeBytes: 5, folder: false },
    ]);
    expect(outcomes[0]).toEqual({
      error: expect.objectContaining({
        message: expect.stringContaining("no verified copy is in the trash"),
      }),
    });
    expect(outcomes[1]).toMatchObject({ location: expect.stringContaining("/Trash/files/") });
    expect(existsSync(join(folder, "real.jsonl"))).toBe(false);
  });
});

describe("our own move into the home trash (a name journaled before it)", () => {
  it("goes under that name, with a .trashinfo naming the path; a name taken moves nothing", async () => {
    const folder = dir();
    const path = join(folder, "sess[1] é.jsonl");
    writeFileSync(path, "bracketed\n");
    const [moved] = await moveToSystemTrash([{ path, sizeBytes: 10, folder: false, name: "n-1" }]);
    expect(moved).toEqual({
      location: join(homeTrashDir(), "files", "n-1"),
      trashInfo: join(homeTrashDir(), "info", "n-1.trashinfo"),
    });
    expect(readFileSync(join(homeTrashDir(), "files", "n-1"), "utf8")).toBe("bracketed\n");
    expect(readFileSync(join(homeTrashDir(), "info", "n-1.trashinfo"), "utf8")).toMatch(
      new RegExp(
        `^\\[Trash Info\\]\\nPath=${escape(encodeURI(path))}\\nDeletionDate=\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\n$`,
      ),
    );
    // The same name again: its .trashinfo exists, so nothing is overwritten and the file stays.
    const again = join(folder, "again.jsonl");
    writeFileSync(again, "again\n");
    const [refused] = await moveToSystemTrash([{ path: again, sizeBytes: 6, folder: false, name: "n-1" }]);
    expect(refused).toEqual({
      error: expect.objectContaining({ message: expect.stringContaining("EEXIST") }),
    });
    expect(readFileSync(again, "utf8")).toBe("again\n");
    expect(readFileSync(join(homeTrashDir(), "files", "n-1"), "utf8")).toBe("bracketed\n");
  });
});

/** `text` for a RegExp, literally. */
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

describe("when the system trash is unusable", () => {
  it("the session goes to the quarantine instead, and the result says so", async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), "sr-store-")));
    for (const cwd of ["/a", "/b"])
      setModified(writeSession(root, cwd, 1).getSessionFile()!, new Date("2025-01-01T00:00:00Z"));
    const { sessions } = await scanStores({ stores: piStores(root) });
    // A file where the trash folder should be: the package cannot create Trash/files.
    const trash = homeTrashDir();
    rmSync(trash, { recursive: true, force: true });
    mkdirSync(join(trash, ".."), { recursive: true });
    writeFileSync(trash, "not a folder");
    try {
      writeConfigFile({
        retention: { minKeepRecentCount: 0, keepLastPerNamespace: 0 },
        deletion: { target: "trash" },
      });
      const result = await softDelete(
        {
          items: [{ id: sessions[0]!.id, fingerprint: sessions[0]!.fingerprint }],
          stores: piStores(root),
          via: "selection",
        },
        { actor: "cli" },
      );
      expect(result.skipped).toEqual([]);
      expect(result.moved).toMatchObject([{ id: sessions[0]!.id, target: "quarantine" }]);
      expect(existsSync(result.moved[0]!.destination)).toBe(true);
    } finally {
      rmSync(trash, { force: true });
    }
  });
});

const deviceOf = (path: string) => statSync(path).dev;
const otherFs =
  existsSync("/dev/shm") && deviceOf("/dev/shm") !== deviceOf(tmpdir()) ? "/dev/shm" : undefined;

describe.runIf(otherFs)("moveFile across file systems", () => {
  it("copies, verifies, keeps the mtime, then removes the source", () => {
    const source = join(dir(), "s.jsonl");
    writeFileSync(source, "x".repeat(100_000));
    const when = new Date("2025-03-04T05:06:07Z");
    utimesSync(source, when, when);
    const destination = join(mkdtempSync(join(otherFs!, "sr-xdev-")), "q", "s.jsonl");
    try {
      moveFile(source, destination);
      expect(existsSync(source)).toBe(false);
      expect(readFileSync(destination, "utf8")).toBe("x".repeat(100_000));
      expect(lstatSync(destination).mtime.getTime()).toBe(when.getTime());
    } finally {
      rmSync(join(destination, "..", ".."), { recursive: true, force: true });
    }
  });
});

describe("moveFile", () => {
  it("never overwrites: an existing destination leaves the source in place", () => {
    const folder = dir();
    writeFileSync(join(folder, "a"), "source");
    writeFileSync(join(folder, "b"), "already here");
    expect(() => moveFile(join(folder, "a"), join(folder, "b"))).toThrow("already exists");
    expect(readFileSync(join(folder, "a"), "utf8")).toBe("source");
    expect(readFileSync(join(folder, "b"), "utf8")).toBe("already here");
  });
});
