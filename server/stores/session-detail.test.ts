// Every adapter's detail reader (`StoreReader.sessionDetail`) keeps the one rule of session-detail.ts,
// whatever its agent: only the file the look found is read, as far as the look measured it — a
// FIFO, a symlink (to /dev/zero too), another file or nothing at the path is a 409 at once, never a
// wait; what the agent appended since is not read. Each reader is driven over a session file of
// its own agent's shape, and a reader with no such file here fails the test.
import {
  appendFileSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { STORE_KINDS, type StoreKind } from "../../shared/store-kinds.js";
import { ClaudeStoreBuilder } from "../../test-support/claude-store.js";
import { mkfifo, neverBlockedBy } from "../../test-support/fifo.js";
import { recordedNow } from "../../test-support/fixture-files.js";
import { writeSession } from "../../test-support/pi-store.js";
import { SessionFileChangedError } from "./session-detail.js";
import { storeAdapter } from "./store-adapter.js";

const fresh = () => realpathSync(mkdtempSync(join(tmpdir(), "sr-detail-")));

/** A session file of each agent whose adapter reads one in detail, as the agent writes it. */
const SESSION_FILES: Partial<Record<StoreKind, () => string>> = {
  pi: () => writeSession(fresh(), "/work/app", 2).getSessionFile()!,
  claude: () => {
    const b = new ClaudeStoreBuilder(fresh());
    return b.save(b.session("/home/dev/shop", 3).user("Fix the cart").conversation(2));
  },
};

const readers = async () => {
  const found: Array<[StoreKind, NonNullable<Awaited<ReturnType<typeof storeAdapter>>["sessionDetail"]>]> =
    [];
  for (const kind of STORE_KINDS) {
    const read = (await storeAdapter(kind)).sessionDetail;
    if (read) found.push([kind, read]);
  }
  return found;
};

describe("every adapter's detail reader", () => {
  it("has a session file of its agent here to be tested on (pi's and Claude Code's at least)", async () => {
    const kinds = (await readers()).map(([kind]) => kind);
    expect(kinds).toEqual(expect.arrayContaining(["pi", "claude"]));
    for (const kind of kinds) expect(SESSION_FILES[kind], kind).toBeDefined();
  });

  it.each<[string, (path: string) => void, string]>([
    [
      "another file",
      (p) => (writeFileSync(`${p}.new`, readFileSync(p)), renameSync(`${p}.new`, p)),
      "another file is at its path now",
    ],
    [
      "a symlink to /dev/zero",
      (p) => (rmSync(p), symlinkSync("/dev/zero", p)),
      "it is a symlink now, not followed",
    ],
    ["nothing", (p) => rmSync(p), "it is gone"],
  ])("refuses %s at its path at once: 409, the reason said", async (_, replace, reason) => {
    for (const [kind, read] of await readers()) {
      const path = SESSION_FILES[kind]!();
      const looked = recordedNow(path);
      replace(path);
      const refusal = await read(path, looked).catch((error: unknown) => error);
      expect(refusal, kind).toBeInstanceOf(SessionFileChangedError);
      expect(refusal, kind).toMatchObject({ status: 409, message: expect.stringContaining(`(${reason})`) });
    }
  });

  it("refuses a FIFO at its path without waiting for a writer", async () => {
    for (const [kind, read] of await readers()) {
      const path = SESSION_FILES[kind]!();
      const looked = recordedNow(path);
      rmSync(path);
      const refusal = await neverBlockedBy(mkfifo(path), () =>
        read(path, looked).catch((error: unknown) => error),
      );
      expect(refusal, kind).toBeInstanceOf(SessionFileChangedError);
      expect((refusal as Error).message, kind).toContain(
        "(it is a named pipe (FIFO) now, not a regular file)",
      );
    }
  });

  it("reads no further than the look measured: what the agent appended since is not read", async () => {
    for (const [kind, read] of await readers()) {
      const path = SESSION_FILES[kind]!();
      const looked = recordedNow(path);
      const before = await read(path, looked);
      appendFileSync(path, readFileSync(path));
      expect(await read(path, looked), kind).toEqual(before);
    }
  });
});
