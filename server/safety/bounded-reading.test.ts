// Reading is bounded (docs/safety.md G18), through the real command and the real server in child
// processes — a regression that hangs or spins then fails on a timeout instead of hanging the suite:
// a zstd bomb in a Codex store (a few KB that expand to hundreds of MB of newlines, made by the real
// `zstd`) costs `scan`, `status` and `plan` a capped read with a warning that names the cap, and a
// watched `serve` keeps answering while it reads one; the detail of a session whose file became a
// FIFO, a link to /dev/zero or another file is refused at once. Nothing in the stores changes.
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, renameSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { SummaryResponseSchema } from "../../shared/api.js";
import { CodexStoreBuilder } from "../../test-support/codex-store.js";
import { mkfifo } from "../../test-support/fifo.js";
import { writeSession } from "../../test-support/pi-store.js";
import { BIN, type ServeChild, startServe } from "../../test-support/serve-child.js";
import { snapshotTree, treeChanges } from "../../test-support/tree-snapshot.js";
import { bombName, writeZstdBomb } from "../../test-support/zstd-bomb.js";
import { MAX_INFLATION } from "../stores/read-caps.js";

const run = promisify(execFile);
/** 300 MB of newlines in ~10 KB: before the caps, `scan` took 279 s over such a bomb. */
const BOMB_NEWLINES = 300_000_000;
const BOMB_THREAD = "019b8f2e-0000-7000-8000-00000000b0b0";
/** How long one command or one request may take before it counts as hung: generous, for a loaded machine. */
const HUNG_MS = 30_000;

const servers: ServeChild[] = [];
afterEach(async () => {
  // SIGKILL: a server stuck in a read (the regression this guards against) runs no signal handler.
  for (const server of servers.splice(0)) await server.stop("SIGKILL");
});

/** A Codex home with one ordinary thread, its bomb written beside it (not yet in the store). */
function codexStoreWithBomb() {
  const home = realpathSync(mkdtempSync(join(tmpdir(), "sr-bounded-")));
  const root = join(home, ".codex");
  const store = new CodexStoreBuilder(root);
  store.thread({ cwd: "/home/dev/shop", turns: 2 });
  store.finish();
  mkdirSync(join(root, "archived_sessions"), { recursive: true });
  const bomb = join(home, bombName(BOMB_THREAD));
  writeZstdBomb(bomb, BOMB_THREAD, "/home/dev/bomb", BOMB_NEWLINES);
  return { home, root, bomb, placed: join(root, "archived_sessions", bombName(BOMB_THREAD)) };
}

/** The CLI in a child process; killed (and failing) after HUNG_MS. */
const cli = (args: string[]) =>
  run(process.execPath, [BIN, ...args], { timeout: HUNG_MS, maxBuffer: 64 * 1024 * 1024 });

function api(server: ServeChild) {
  const headers = { Authorization: `Bearer ${server.token}` };
  return (path: string) => fetch(`${server.base}${path}`, { headers, signal: AbortSignal.timeout(HUNG_MS) });
}

describe("a zstd bomb in a Codex store", () => {
  it(
    "scan, status and plan read it to the cap, warn with the cap's name, and change nothing",
    async () => {
      const { root, bomb, placed } = codexStoreWithBomb();
      renameSync(bomb, placed);
      const before = snapshotTree([root]);
      const store = ["--store", `codex:${root}`];

      const scan = JSON.parse((await cli(["scan", "--json", ...store])).stdout) as {
        sessions: Array<{
          id: string;
          sizeBytes: number;
          namespace: string;
          warnings: Array<{ code: string; message: string }>;
        }>;
      };
      const record = scan.sessions.find((s) => s.id === `codex:${BOMB_THREAD}`)!;
      expect(record.namespace).toBe("/home/dev/bomb");
      expect(record.sizeBytes).toBeLessThan(64 * 1024); // its size on disk, not what it expands to
      expect(record.warnings).toEqual([
        {
          code: "read-capped",
          message: expect.stringContaining(
            `reading stopped at the cap of ${MAX_INFLATION}× its size on disk`,
          ),
        },
      ]);
      expect(scan.sessions).toHaveLength(2);

      const status = JSON.parse((await cli(["status", "--json", ...store])).stdout) as {
        sessionCount: number;
      };
      expect(status.sessionCount).toBe(2);
      const plan = JSON.parse((await cli(["plan", "--json", ...store])).stdout) as {
        kept: Array<{ id: string }>;
      };
      expect(plan.kept.map((k) => k.id)).toContain(`codex:${BOMB_THREAD}`);

      expect(treeChanges(before, snapshotTree([root]))).toEqual([]);
    },
    4 * HUNG_MS,
  );

  it(
    "a watched serve keeps answering while it reads one that lands in the store",
    async () => {
      const { root, bomb, placed } = codexStoreWithBomb();
      const server = await startServe(["--no-open", "--store", `codex:${root}`]);
      servers.push(server);
      const get = api(server);
      const summary = async () =>
        SummaryResponseSchema.parse(await (await get("/api/summary")).json()).summary;
      expect((await summary()).sessionCount).toBe(1);

      // It lands whole (a rename), as Codex's own archiving does; the watch sees it and the look reads it.
      renameSync(bomb, placed);
      const before = snapshotTree([root]);
      // Every request is answered until the look has it (a read that held the server would time one out).
      while ((await summary()).sessionCount !== 2) await new Promise((resolve) => setTimeout(resolve, 50));
      const detail = (await (await get(`/api/sessions/codex:${BOMB_THREAD}`)).json()) as {
        session: { warnings: Array<{ code: string; message: string }> };
      };
      expect(detail.session.warnings.map((w) => w.code)).toEqual(["read-capped"]);
      expect((await get("/api/summary")).status).toBe(200);
      expect(treeChanges(before, snapshotTree([root]))).toEqual([]);
    },
    4 * HUNG_MS,
  );
});

describe("the detail of a session whose file changed since the look", () => {
  /** A pi store of two sessions and a server over it that does not watch (its look stays as it was). */
  async function served() {
    const home = realpathSync(mkdtempSync(join(tmpdir(), "sr-detail-")));
    const root = join(home, "sessions");
    const sessions = ["/work/app", "/work/lib"].map((cwd) => writeSession(root, cwd, 2));
    const server = await startServe(["--no-open", "--no-watch", "--root", root]);
    servers.push(server);
    const get = api(server);
    const [first, second] = sessions.map((s) => ({ id: s.getSessionId(), path: s.getSessionFile()! }));
    // The look has both, each readable in detail.
    for (const { id } of [first!, second!]) expect((await get(`/api/sessions/${id}`)).status).toBe(200);
    return { home, root, get, first: first!, second: second! };
  }

  /**
   * Puts what `make` makes in place of the first session's file (made beside it, then renamed over
   * it: the old file's inode cannot be reused), and asks for its detail: a 409 that says why.
   */
  async function refused(make: (path: string) => void, why: string) {
    const { root, get, first } = await served();
    const beside = `${first.path}.new`;
    make(beside);
    renameSync(beside, first.path);
    const before = snapshotTree([root]);
    const response = await get(`/api/sessions/${first.id}`);
    expect(response.status).toBe(409);
    const { error } = (await response.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe("changed");
    expect(error.message).toContain("this session's file changed since the last look");
    expect(error.message).toContain(why);
    // The server still answers, and nothing in the store changed.
    expect((await get("/api/summary")).status).toBe(200);
    expect(treeChanges(before, snapshotTree([root]))).toEqual([]);
  }

  it(
    "a FIFO: refused at once, never waited on",
    async () => {
      await refused((path) => mkfifo(path), "it is a named pipe (FIFO) now");
    },
    4 * HUNG_MS,
  );

  it(
    "a symlink to /dev/zero: refused at once, never read",
    async () => {
      await refused((path) => symlinkSync("/dev/zero", path), "it is a symlink now");
    },
    4 * HUNG_MS,
  );

  it(
    "another file at its path: refused, not read in its place",
    async () => {
      await refused(
        (path) =>
          writeFileSync(path, `${JSON.stringify({ type: "session", version: 3, id: "other", cwd: "/x" })}\n`),
        "another file is at its path now",
      );
    },
    4 * HUNG_MS,
  );
});
