// The facts store from the outside, with the real CLI in new processes: a warm run of any store kind
// reads no file that did not change; two processes at once; a private file; a state folder we may
// not write. (Damaged, cut, foreign and other-version databases: scan/scanner.test.ts.)
import { spawn, spawnSync } from "node:child_process";
import {
  chmodSync,
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
import { afterAll, describe, expect, it } from "vitest";
import type { ScanReport } from "../../shared/scan-report.js";
import { writeClaudeTranscript } from "../../test-support/claude-transcript.js";
import { writeCodexStore } from "../../test-support/codex-store.js";
import { writeGeminiStore } from "../../test-support/gemini-store.js";
import { factsPaths } from "../../test-support/facts-db.js";
import { writeSession } from "../../test-support/pi-store.js";
import { snapshotTree, treeChanges } from "../../test-support/tree-snapshot.js";
import { canRunAsNobody } from "../../test-support/unprivileged.js";
import { FactsStore, factsFileIn, FolderShelf } from "./facts-store.js";

const cli = join(process.cwd(), "bin", "session-retention.js");
const work = mkdtempSync(join(tmpdir(), "sr-facts-store-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A home of its own for a CLI child (its state folder, hence its facts store). */
function homeEnv(home = mkdtempSync(join(work, "home-"))) {
  return {
    home,
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: home,
      PI_CODING_AGENT_DIR: join(home, "agent"),
      CLAUDE_CONFIG_DIR: join(home, "no-claude"),
      CODEX_HOME: join(home, "no-codex"),
      XDG_CONFIG_HOME: join(home, "config"),
      XDG_DATA_HOME: join(home, "data"),
      XDG_STATE_HOME: join(home, "state"),
      XDG_CACHE_HOME: join(home, "cache"),
    },
  };
}

/** `scan --json` in a new process: its report, and what it said on stderr. */
function scanJson(env: NodeJS.ProcessEnv, ...args: string[]) {
  const run = spawnSync(process.execPath, [cli, "scan", "--json", ...args], { env, encoding: "utf8" });
  expect(run.status, run.stderr).toBe(0);
  return { report: JSON.parse(run.stdout) as ScanReport, stderr: run.stderr };
}

const sessionsOf = (report: ScanReport) => report.sessions.map(({ fingerprint: _, ...s }) => s);

describe("a new process", () => {
  it("reads no Claude Code transcript that did not change, and reads again one that did", () => {
    const { env } = homeEnv();
    const store = mkdtempSync(join(work, "claude-"));
    const modified = new Date("2026-03-01T10:00:00.000Z"); // whole seconds: set again exactly below
    const path = writeClaudeTranscript(store, {
      id: "5d0c8a52-3b5e-4f63-9c3e-2f0b6d1a7e11",
      cwd: "/work/api",
      modified,
    });
    writeClaudeTranscript(store, { id: "0b6d1a7e-3b5e-4f63-9c3e-2f0b5d0c8a52", cwd: "/work/web", modified });
    const first = scanJson(env, "--store", `claude:${store}`).report;
    expect(first.sessions).toHaveLength(2);

    // The same size and mtime (and inode), other words: only a read of the file can tell.
    writeFileSync(path, readFileSync(path, "utf8").replaceAll("user turn", "USER TURN"));
    utimesSync(path, modified, modified);
    const warm = scanJson(env, "--store", `claude:${store}`).report;
    const cold = scanJson(env, "--no-cache", "--store", `claude:${store}`).report;
    expect(sessionsOf(warm)).toEqual(sessionsOf(first)); // not read: what the store kept
    expect(sessionsOf(cold)).not.toEqual(sessionsOf(first)); // a read sees the new words

    // Its mtime moves: read again, in the next new process too.
    const later = new Date("2026-03-01T11:00:00.000Z");
    utimesSync(path, later, later);
    const fresh = scanJson(env, "--no-cache", "--store", `claude:${store}`).report;
    expect(sessionsOf(scanJson(env, "--store", `claude:${store}`).report)).toEqual(sessionsOf(fresh));
    expect(
      factsPaths(
        factsFileIn(join(env.PI_CODING_AGENT_DIR, "session-retention", "scan-cache")),
        "claude-transcript@1",
      ),
    ).toHaveLength(2);
  });
});

describe("a new process, for Codex and Gemini CLI too", () => {
  it.each([
    ["codex", "codex-rollout@1", (dir: string) => writeCodexStore(dir).root],
    ["gemini", "gemini-chat@1", (dir: string) => writeGeminiStore(dir).root],
  ] as const)("%s: reads no file it keeps the facts of while it is unchanged", (kind, reader, write) => {
    const { env } = homeEnv();
    const root = write(realpathSync(mkdtempSync(join(work, `${kind}-`))));
    const facts = factsFileIn(join(env.PI_CODING_AGENT_DIR, "session-retention", "scan-cache"));
    const scan = (...flags: string[]) =>
      sessionsOf(scanJson(env, ...flags, "--store", `${kind}:${root}`).report);
    scan();
    const kept = factsPaths(facts, reader);
    expect(kept.length).toBeGreaterThan(0);
    // Whole seconds, so that the same time can be set again exactly after the files are rewritten.
    const at = new Date("2026-03-01T08:00:00.000Z");
    for (const path of kept) utimesSync(path, at, at);
    const first = scan();
    // Every file it keeps facts of, the same size and time, its bytes garbage: only a read can tell.
    for (const path of kept) {
      writeFileSync(path, Buffer.alloc(statSync(path).size, "x"));
      utimesSync(path, at, at);
    }
    expect(scan()).toEqual(first);
    expect(scan("--no-cache")).not.toEqual(first);
  });
});

describe("two processes at once", () => {
  it("each scan is right, the database stays sound, and the next scans read nothing", async () => {
    const { env } = homeEnv();
    const stores = [0, 1].map((s) => {
      const root = mkdtempSync(join(work, `pi-${s}-`));
      for (let i = 0; i < 1500; i++) writeSession(root, `/work/p${i % 7}`, 1);
      return root;
    });
    const runs = [...stores, stores[0]!].map(
      (root) =>
        new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
          const child = spawn(process.execPath, [cli, "scan", "--json", "--root", root], { env });
          let stdout = "";
          let stderr = "";
          child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
          child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
          child.on("close", (status) => resolve({ status, stdout, stderr }));
        }),
    );
    const results = await Promise.all(runs);
    for (const result of results) {
      expect(result.status, result.stderr).toBe(0);
      expect(result.stderr).not.toMatch(/scan cache/); // no warning: nothing set aside, nothing lost
      expect((JSON.parse(result.stdout) as ScanReport).sessions).toHaveLength(1500);
    }
    const file = factsFileIn(join(env.PI_CODING_AGENT_DIR, "session-retention", "scan-cache"));
    const check = spawnSync("sqlite3", [file, "PRAGMA integrity_check"], { encoding: "utf8" });
    if (!check.error) expect(check.stdout.trim()).toBe("ok");
    for (const root of stores)
      expect(scanJson(env, "--root", root).report.stats).toMatchObject({ filesRead: 0, cacheHits: 1500 });
  }, 120_000);
});

describe("the database file", () => {
  it("is private: 0600, and so are its write-ahead log and shared memory while open", () => {
    const dir = join(mkdtempSync(join(work, "state-")), "scan-cache");
    const store = FactsStore.open(factsFileIn(dir))!;
    try {
      const shelf = new FolderShelf(store, "test@1", "/store");
      shelf.put("/store/a.jsonl", { identity: { dev: 1, ino: 2, size: 3, mtimeNs: "4" }, facts: "{}" });
      shelf.settle(false);
      for (const suffix of ["", "-wal", "-shm"])
        expect((statSync(`${factsFileIn(dir)}${suffix}`).mode & 0o777).toString(8)).toBe("600");
      expect((statSync(dir).mode & 0o777).toString(8)).toBe("700");
    } finally {
      store.close();
    }
  });

  it.skipIf(!canRunAsNobody)(
    "in a state folder the scan may not write: the scan reads every file and changes nothing there",
    () => {
      // As root, permissions do not apply: the scan runs as nobody (uid 65534).
      const base = mkdtempSync(join("/tmp", "sr-facts-ro-"));
      chmodSync(base, 0o755);
      try {
        const { env, home } = homeEnv(join(base, "home"));
        const root = join(base, "store");
        for (let i = 0; i < 3; i++) writeSession(root, "/work/app", 1);
        spawnSync("chmod", ["-R", "a+rX", root]);
        expect(scanJson(env, "--root", root).report.stats.filesRead).toBe(3); // as root: makes the store
        spawnSync("chmod", ["-R", "a+rX", home]); // readable, not writable, by nobody
        const before = snapshotTree([home]);
        const run = spawnSync(process.execPath, [cli, "scan", "--json", "--root", root], {
          uid: 65534,
          gid: 65534,
          env,
          encoding: "utf8",
        });
        expect(run.status, run.stderr).toBe(0);
        expect((JSON.parse(run.stdout) as ScanReport).sessions).toHaveLength(3);
        expect(treeChanges(before, snapshotTree([home]))).toEqual([]);
      } finally {
        rmSync(base, { recursive: true, force: true });
      }
    },
  );
});
