// Codex's per-thread files outside the rollout (shell snapshot, TUI capabilities file) as parts of
// their thread's session, through the real `codex` binary (the @openai/codex devDependency, run
// offline against a temporary CODEX_HOME): scanned and sized with the session, taken by our delete —
// both, though `codex delete` leaves them — and put back by the restore; those of a thread with no
// rollout listed as an orphan by what they are; the writer locks left to Codex, whose delete
// removes every one no process holds (a delete of several sessions must not trip on that); and
// Codex's own `codex doctor` verdict after the delete and the restore, in the result and the audit.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, realpathSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { lenientConfig } from "../../../test-support/config-file.js";
import { CodexStoreBuilder, newThreadId, writeThreadFiles } from "../../../test-support/codex-store.js";
import { insideAny, snapshotTree, treeChanges, without } from "../../../test-support/tree-snapshot.js";
import { readAudit } from "../../state/audit-log.js";
import { statePaths } from "../../state/state-dir.js";
import { listTrash, restore, softDelete } from "../../delete/deletion-engine.js";
import { scanStores } from "../../scan/scanner.js";
import { ORPHAN_THREAD_FILES } from "./thread-files.js";
import { agentBin } from "../../../test-support/test-agents.js";

/** The real Codex CLI: the one place this file names it. */
const CODEX = agentBin("codex");
const env = { ...process.env, SESSION_RETENTION_CODEX: CODEX };
const engine = { actor: "cli" as const, env };
const newHome = () => realpathSync(mkdtempSync(join(tmpdir(), "sr-codex-threads-")));
const scan = (root: string) => scanStores({ stores: [{ kind: "codex", root }] });
const size = (paths: readonly string[]) => paths.reduce((n, p) => n + statSync(p).size, 0);

const isLock = (path: string) => path.includes("/thread-writer-locks/");

/**
 * A store of a TUI thread with a subagent (each with its per-thread files), an exec thread (none:
 * `codex exec` keeps no snapshot), a second TUI thread, and the lock and capabilities file of a TUI
 * thread whose first prompt never went out (no rollout). Codex's own databases are made by Codex
 * itself. `…Files` are a thread's parts, `locks` every writer lock.
 */
function store() {
  const b = new CodexStoreBuilder(join(newHome(), ".codex"));
  const tui = b.thread({ cwd: "/home/dev/shop", turns: 2, source: "cli", names: ["cart totals"] });
  const sub = b.thread({ cwd: "/home/dev/shop", turns: 1, spawnedBy: tui });
  const exec = b.thread({ cwd: "/home/dev/api", turns: 1, source: "exec" });
  const other = b.thread({ cwd: "/home/dev/api", turns: 1, source: "cli" });
  const facts = b.finish();
  const written = [
    writeThreadFiles(facts.root, tui.id, { atMs: tui.start }),
    writeThreadFiles(facts.root, sub.id, { snapshot: false, atMs: sub.start }),
    writeThreadFiles(facts.root, other.id, { atMs: other.start }),
  ];
  const orphanId = newThreadId(7);
  written.push(writeThreadFiles(facts.root, orphanId, { snapshot: false }));
  const [tuiFiles, subFiles, otherFiles, orphanFiles] = written.map((files) =>
    files.filter((p) => !isLock(p)),
  );
  const locks = written.flat().filter(isLock);
  // An unknown thread: Codex fails to delete it (exit 1) but first creates its databases from the rollouts.
  spawnSync(CODEX, ["delete", "--force", "00000000-0000-7000-8000-000000000000"], {
    env: { ...process.env, CODEX_HOME: facts.root },
    stdio: "ignore",
  });
  return {
    root: facts.root,
    tui,
    sub,
    exec,
    other,
    tuiFiles: tuiFiles!,
    subFiles: subFiles!,
    otherFiles: otherFiles!,
    orphanId,
    orphanFiles: orphanFiles!,
    locks,
  };
}

/**
 * Codex's own bookkeeping, which its delete (and its doctor's SQLite) writes by design: its
 * databases, its index and the lock files it takes on them.
 */
const codexOwn = (root: string) => (path: string) =>
  /\.sqlite(-wal|-shm)?$/.test(path) ||
  path.startsWith(join(root, "session_index.jsonl")) ||
  path === join(root, "thread-writer-locks", ".coordination.lock");

describe("Codex's per-thread files", () => {
  it("are sized with their thread's session; those of a thread with no rollout are an orphan said for what it is", async () => {
    const s = store();
    const { sessions } = await scan(s.root);
    const tui = sessions.find((r) => r.id === `codex:${s.tui.id}`)!;
    expect([...tui.bundle!].sort()).toEqual([s.sub.path, ...s.tuiFiles, ...s.subFiles].sort());
    expect(tui.sizeBytes).toBe(size([s.tui.path, s.sub.path, ...s.tuiFiles, ...s.subFiles]));
    expect(statSync(s.tuiFiles[0]!).size).toBeGreaterThan(2_000); // the snapshot: a few KB
    const exec = sessions.find((r) => r.id === `codex:${s.exec.id}`)!;
    expect(exec.bundle).toBeUndefined();
    expect(exec.sizeBytes).toBe(statSync(s.exec.path).size);
    const orphan = sessions.find((r) => r.id === `codex-orphan:${s.orphanId}`)!;
    expect(orphan).toMatchObject({ path: s.orphanFiles[0], name: ORPHAN_THREAD_FILES, sizeBytes: 0 });
    expect(orphan.bundle).toBeUndefined();
    // Writer locks are no one's part: in no bundle, no item of their own.
    expect(sessions.flatMap((r) => [r.path, ...(r.bundle ?? [])]).filter(isLock)).toEqual([]);
    expect(sessions).toHaveLength(4);
  });

  it("leave with their session through codex delete — none is left — and come back with it; codex doctor is asked after each", async () => {
    const s = store();
    lenientConfig("quarantine", { activity: { graceMinutes: 1 } });
    const ours = [s.tui.path, s.sub.path, ...s.tuiFiles, ...s.subFiles];
    const bytes = new Map(ours.map((p) => [p, readFileSync(p)]));
    const moved = insideAny(ours);
    const before = snapshotTree([s.root], codexOwn(s.root));
    const { sessions } = await scan(s.root);
    const tui = sessions.find((r) => r.id === `codex:${s.tui.id}`)!;

    const result = await softDelete(
      {
        items: [{ id: tui.id, fingerprint: tui.fingerprint }],
        stores: [{ kind: "codex", root: s.root }],
        via: "selection",
      },
      engine,
    );
    expect(result.skipped).toEqual([]);
    expect(result.lost).toBeUndefined();
    expect(result.moved.map((m) => [m.id, m.bytes])).toEqual([[tui.id, tui.sizeBytes]]);
    // All of it gone, the capabilities file too (which `codex delete` alone leaves).
    expect(ours.filter((p) => existsSync(p))).toEqual([]);
    // Nothing else changed — but for what `codex delete` itself does: it removes every writer lock
    // no process holds, of any thread (measured on 0.169: empty files; Codex's own, never ours).
    const others = treeChanges(
      without(before, moved),
      snapshotTree([s.root], (p) => moved(p) || codexOwn(s.root)(p)),
    );
    expect(others).toEqual(s.locks.map((lock) => expect.stringMatching(new RegExp(`^gone: ${lock} `))));
    const entry = listTrash(engine).entries.find((e) => e.id === tui.id)!;
    expect(entry.sidecars.map((c) => c.from).sort()).toEqual(
      [s.sub.path, ...s.tuiFiles, ...s.subFiles].sort(),
    );
    // Codex's own look afterwards: in the result, its notes and the audit entry.
    expect(result.checks).toEqual([
      {
        agent: "codex",
        storeRoot: s.root,
        status: expect.any(String),
        message: expect.stringMatching(/^codex doctor 0\.\d+\.\d+: /),
      },
    ]);
    expect(result.notes?.some((n) => n.includes("codex doctor"))).toBe(true);
    const audit = readAudit(statePaths().auditLog).entries.find((e) => e.action === "soft-delete")!;
    expect(audit.detail).toContain(result.checks![0]!.message);

    const back = await restore([result.operationId!], engine);
    expect(back.skipped).toEqual([]);
    for (const [path, content] of bytes) expect(readFileSync(path).equals(content), path).toBe(true);
    expect(treeChanges(before, snapshotTree([s.root], codexOwn(s.root)))).toEqual(others);
    expect(back.checks).toEqual([
      {
        agent: "codex",
        storeRoot: s.root,
        status: expect.any(String),
        message: expect.stringMatching(/^codex doctor /),
      },
    ]);
    const restored = readAudit(statePaths().auditLog).entries.find((e) => e.action === "restore")!;
    expect(restored.detail).toContain(back.checks![0]!.message);
  }, 60_000);

  it("several sessions in one delete: the writer locks Codex's delete of the first removes never stop the next", async () => {
    const s = store();
    lenientConfig("quarantine", { activity: { graceMinutes: 1 } });
    const { sessions } = await scan(s.root);
    const chosen = sessions.filter((r) => r.id === `codex:${s.tui.id}` || r.id === `codex:${s.other.id}`);
    const result = await softDelete(
      {
        items: chosen.map((r) => ({ id: r.id, fingerprint: r.fingerprint })),
        stores: [{ kind: "codex", root: s.root }],
        via: "selection",
      },
      engine,
    );
    expect(result.skipped).toEqual([]);
    expect(result.lost).toBeUndefined();
    expect(result.moved.map((m) => m.id).sort()).toEqual(chosen.map((r) => r.id).sort());
    const parts = [s.tui.path, s.sub.path, s.other.path, ...s.tuiFiles, ...s.subFiles, ...s.otherFiles];
    expect(parts.filter((p) => existsSync(p))).toEqual([]);
    const back = await restore([result.operationId!], engine);
    expect(back.skipped).toEqual([]);
    expect(parts.filter((p) => !existsSync(p))).toEqual([]);
  }, 60_000);

  it("an orphan leaves as files do (no codex delete: Codex has no thread to delete) and comes back", async () => {
    const s = store();
    lenientConfig("quarantine", { activity: { graceMinutes: 1 } });
    const moved = insideAny(s.orphanFiles);
    const before = snapshotTree([s.root], codexOwn(s.root));
    const { sessions } = await scan(s.root);
    const orphan = sessions.find((r) => r.id === `codex-orphan:${s.orphanId}`)!;
    const result = await softDelete(
      {
        items: [{ id: orphan.id, fingerprint: orphan.fingerprint }],
        stores: [{ kind: "codex", root: s.root }],
        via: "selection",
      },
      engine,
    );
    expect(result.skipped).toEqual([]);
    expect(result.moved.map((m) => m.id)).toEqual([orphan.id]);
    expect(s.orphanFiles.filter((p) => existsSync(p))).toEqual([]);
    expect(
      treeChanges(
        without(before, moved),
        snapshotTree([s.root], (p) => moved(p) || codexOwn(s.root)(p)),
      ),
    ).toEqual([]);
    const back = await restore([result.operationId!], engine);
    expect(back.skipped).toEqual([]);
    expect(treeChanges(before, snapshotTree([s.root], codexOwn(s.root)))).toEqual([]);
  }, 60_000);
});
