// readSmallTextFile against the real things a path can name: a FIFO (which would block a plain
// read forever), a character device, a socket, a folder, symlinks, an oversize file, a /proc file
// that is longer than its reported size, and bytes that are not UTF-8.
import { existsSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { mkfifo, neverBlockedBy } from "../../test-support/fifo.js";
import { readSmallTextFile, UnreadableFileError } from "./read-small-file.js";

const dir = () => mkdtempSync(join(tmpdir(), "sr-small-"));
const options = { maxBytes: 1024, what: "test file" };

const fifo = () => mkfifo(join(dir(), "fifo"));

/** The error readSmallTextFile throws for `path` (it must throw one). */
function failure(path: string, opts = options): UnreadableFileError {
  try {
    readSmallTextFile(path, opts);
  } catch (error) {
    expect(error).toBeInstanceOf(UnreadableFileError);
    return error as UnreadableFileError;
  }
  throw new Error(`${path} was read`);
}

describe("readSmallTextFile: only a regular file is read", () => {
  it("reads a regular file, and one behind a symlink (dotfile managers link configs)", () => {
    const d = dir();
    writeFileSync(join(d, "real.json"), '{"a":"é"}');
    symlinkSync(join(d, "real.json"), join(d, "link.json"));
    expect(readSmallTextFile(join(d, "real.json"), options)).toBe('{"a":"é"}');
    expect(readSmallTextFile(join(d, "link.json"), options)).toBe('{"a":"é"}');
  });

  it("a missing file: code ENOENT, so each caller keeps its meaning of absent", () => {
    const error = failure(join(dir(), "nope.json"));
    expect(error.code).toBe("ENOENT");
    expect(error.problem).toBe("does not exist");
  });

  it.each<[string, () => string, string]>([
    ["a FIFO", fifo, "a named pipe (FIFO)"],
    [
      "a symlink to a FIFO",
      () => {
        const link = join(dir(), "link");
        symlinkSync(fifo(), link);
        return link;
      },
      "a named pipe (FIFO)",
    ],
    ["a character device", () => "/dev/zero", "a character device"],
    ["a folder", dir, "a folder"],
    [
      "a symlink to a folder",
      () => {
        const link = join(dir(), "link");
        symlinkSync(dir(), link);
        return link;
      },
      "a folder",
    ],
  ])("%s is an error naming what it is, at once (no hang)", (_what, make, kind) => {
    const path = make();
    const started = Date.now();
    const error = neverBlockedBy(path, () => failure(path));
    expect(Date.now() - started).toBeLessThan(1000);
    expect(error.message).toBe(
      `test file ${path} is ${kind}, not a regular file; only a regular file (or a symlink to one) is read`,
    );
    expect(error.code).toBeUndefined();
  });

  it("a Unix socket is named as one", async () => {
    const path = join(dir(), "sock");
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(path, resolve));
    try {
      expect(failure(path).problem).toMatch(/^is a socket, not a regular file/);
    } finally {
      server.close();
    }
  });
});

describe("readSmallTextFile: at most maxBytes", () => {
  it("reads exactly the cap, and refuses one byte more, naming the size and the cap", () => {
    const d = dir();
    writeFileSync(join(d, "full"), "x".repeat(1024));
    writeFileSync(join(d, "over"), "x".repeat(1025));
    expect(readSmallTextFile(join(d, "full"), options)).toHaveLength(1024);
    expect(failure(join(d, "over")).problem).toBe(
      "is 1.00 KiB (1025 bytes), over the limit of 1.00 KiB (1024 bytes)",
    );
  });

  it.skipIf(!existsSync("/proc/self/status"))(
    "stops at the cap even when the file holds more than its size says (a /proc file says 0)",
    () => {
      expect(readSmallTextFile("/proc/self/status", { ...options, maxBytes: 65536 })).toContain("Pid:");
      expect(failure("/proc/self/status", { maxBytes: 16, what: "test file" }).problem).toBe(
        "grew past the limit of 16 B (16 bytes) while being read",
      );
    },
  );
});

describe("readSmallTextFile: strict UTF-8", () => {
  const file = (bytes: Buffer) => {
    const path = join(dir(), "f.json");
    writeFileSync(path, bytes);
    return path;
  };

  it("an invalid byte is an error naming its offset, line and column", () => {
    const bytes = Buffer.concat([
      Buffer.from('{\n  "a": "ok",\n  "b": "*imp'),
      Buffer.from([0xff]),
      Buffer.from('*"\n}'),
    ]);
    expect(failure(file(bytes)).problem).toBe(
      "is not valid UTF-8: byte 0xff at offset 27 (line 3, column 13); save it as UTF-8",
    );
  });

  it("counts a real U+FFFD and multi-byte characters before the bad byte correctly", () => {
    // "é" is 2 bytes, "\uFFFD" (EF BF BD) 3: the bad byte (a lone continuation byte) is at 5.
    const bytes = Buffer.concat([Buffer.from("é\uFFFD"), Buffer.from([0x80]), Buffer.from("x")]);
    expect(failure(file(bytes)).problem).toContain("byte 0x80 at offset 5 (line 1, column 3)");
    // A truncated sequence, an overlong encoding and an encoded surrogate are all invalid.
    for (const bad of [
      [0xe2, 0x82],
      [0xc0, 0xaf],
      [0xed, 0xa0, 0x80],
    ])
      expect(failure(file(Buffer.from([0x61, ...bad]))).problem).toContain("at offset 1 ");
  });

  it("a byte order mark at the start is an error that says how to fix it", () => {
    const problem = failure(file(Buffer.from('\uFEFF{"a":1}'))).problem;
    expect(problem).toContain("byte order mark (BOM)");
    expect(problem).toContain("save it as UTF-8 without a BOM");
  });

  it("an empty file is empty text", () => {
    expect(readSmallTextFile(file(Buffer.alloc(0)), options)).toBe("");
  });
});

it("another failure to open keeps the system's code and message", () => {
  const d = dir();
  writeFileSync(join(d, "file"), "");
  const error = failure(join(d, "file", "child"));
  expect(error.code).toBe("ENOTDIR");
  expect(error.problem).toMatch(/^cannot be read: ENOTDIR: not a directory/);
});
