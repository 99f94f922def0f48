// What a move needs, judged from facts: each rule on its own (pure), and the facts as the probe
// reads them from real folders.
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type EntryFacts, type FolderFacts, moveRefusal, renameProbe, shellQuote } from "./rename-rights.js";

const ME = 1000;
const folder = (path: string, more: Partial<FolderFacts> = {}): FolderFacts => ({
  path,
  uid: ME,
  dev: 1,
  sticky: false,
  writable: true,
  ...more,
});
const entry = (path: string, more: Partial<EntryFacts> = {}): EntryFacts => ({
  path,
  kind: "file",
  uid: ME,
  dev: 1,
  writable: true,
  readable: true,
  ...more,
});
const owner = (uid: number) => (uid === 0 ? "root" : uid === ME ? "me" : `uid ${uid}`);
const from = folder("/s/p");
const to = folder("/q");

describe("moveRefusal", () => {
  it("moves what one may: an entry of another user in one's own folder, a folder of one's own", () => {
    expect(moveRefusal(entry("/s/p/a", { uid: 0, writable: false }), from, to, "rename-or-copy", ME)).toBe(
      undefined,
    );
    expect(moveRefusal(entry("/s/p/d", { kind: "folder" }), from, to, "rename", ME)).toBe(undefined);
  });

  it("the folder it leaves, and the one it enters, must be writable: each named, with its fix", () => {
    expect(
      moveRefusal(entry("/s/p/a"), folder("/s/p", { uid: 0, writable: false }), to, "rename", ME, owner),
    ).toEqual({
      problem: "/s/p is owned by root, and moving /s/p/a out of it writes in it",
      fix: 'sudo chown "$USER" /s/p',
    });
    expect(
      moveRefusal(entry("/s/p/a"), from, folder("/q", { writable: false }), "rename", ME, owner),
    ).toEqual({
      problem: "/q is yours, but not writable, and /s/p/a would be moved into it",
      fix: "chmod u+wx /q",
    });
  });

  it("a folder that changes folder needs the right to write in itself (its `..`)", () => {
    expect(
      moveRefusal(
        entry("/s/p/d d", { kind: "folder", uid: 0, writable: false }),
        from,
        to,
        "rename",
        ME,
        owner,
      ),
    ).toEqual({
      problem: "/s/p/d d is owned by root, and a folder can only be moved by someone who may write in it",
      fix: `sudo chown -R "$USER" '/s/p/d d'`,
    });
  });

  it("the sticky bit lets only the entry's or the folder's owner move it (root always)", () => {
    const sticky = folder("/tmp", { uid: 0, sticky: true });
    const theirs = entry("/tmp/a", { uid: 2000 });
    expect(moveRefusal(theirs, sticky, to, "rename-or-copy", ME, owner)?.problem).toBe(
      "/tmp/a is owned by uid 2000 in /tmp, whose sticky bit lets only its owner move it",
    );
    expect(moveRefusal(entry("/tmp/a"), sticky, to, "rename-or-copy", ME)).toBe(undefined);
    expect(moveRefusal(theirs, sticky, to, "rename-or-copy", 0)).toBe(undefined);
  });

  it("another user's file is hard-linked only when one may read and write it", () => {
    const theirs = entry("/s/p/r", { uid: 2000, writable: false });
    expect(moveRefusal(theirs, from, to, "link", ME, owner)?.problem).toBe(
      "/s/p/r is owned by uid 2000, and only its owner may hard-link it",
    );
    expect(moveRefusal(theirs, from, to, "rename-or-copy", ME)).toBe(undefined);
    expect(moveRefusal({ ...theirs, writable: true }, from, to, "link", ME)).toBe(undefined);
  });
});

describe("renameProbe", () => {
  it("reads the facts of real entries: kind, the rights a move needs, the sticky bit, the nearest folder of a path to be made", () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), "sr-rights-")));
    mkdirSync(join(root, "sticky"));
    chmodSync(join(root, "sticky"), 0o1777);
    writeFileSync(join(root, "f"), "x");
    const probe = renameProbe();
    // A file's rights are asked only for a hard link; a folder's write always (its `..`).
    expect(probe.entry(join(root, "f"))).toEqual({
      path: join(root, "f"),
      kind: "file",
      uid: process.getuid!(),
      dev: expect.any(Number),
    });
    expect(probe.entry(join(root, "f"), { linked: true })).toMatchObject({ readable: true, writable: true });
    expect(probe.entry(join(root, "sticky"))).toMatchObject({ kind: "folder", writable: true });
    expect(probe.entry(join(root, "none"))).toBe(undefined);
    expect(probe.folder(join(root, "sticky"))).toMatchObject({ sticky: true, writable: true });
    expect(probe.nearestFolder(join(root, "a", "b", "c"))?.path).toBe(root);
  });
});

describe("shellQuote", () => {
  it("leaves a plain path as it is and quotes anything else as one word", () => {
    expect(shellQuote("/a/b-c_d.e")).toBe("/a/b-c_d.e");
    expect(shellQuote("/a/it's here")).toBe(`'/a/it'\\''s here'`);
  });
});
