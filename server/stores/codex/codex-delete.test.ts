// Deleting Codex sessions for real: through the real `codex` binary (the real-agent suite's pinned
// @openai/codex, test-support/test-agents.ts, run offline against a temporary CODEX_HOME), with the engine's journal, links,
// checks and recovery. Codex's databases are made by Codex itself (a first `codex delete` of an
// unknown thread creates them) and then given the rows Codex keeps for the generator's threads.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, lstatSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type CodexStoreFacts, type Thread, writeCodexStore } from "../../../test-support/codex-store.js";
import { lenientConfig } from "../../../test-support/config-file.js";
import { agentBin } from "../../../test-support/test-agents.js";
import { snapshotTree } from "../../../test-support/tree-snapshot.js";
import { listTrash, recover, restore, softDelete } from "../../delete/deletion-engine.js";
import { runCli } from "../../cli/main.js";
import { gatherPlanInputs } from "../../plan/plan-inputs.js";
import { scanStores } from "../../scan/scanner.js";
import { statePaths } from "../../state/state-dir.js";

const CODEX = agentBin("codex");
const withCodex = { ...process.env, SESSION_RETENTION_CODEX: CODEX };
const newHome = () => realpathSync(mkdtempSync(join(tmpdir(), "sr-codex-")));
/** Runs SQL with the real sqlite3; a failed statement fails the test instead of passing unseen. */
function sql(db: string, statement: string) {
  const run = spawnSync("sqlite3", ["-batch", "-noheader", db, statement], { encoding: "utf8" });
  if (run.status !== 0) throw new Error(`sqlite3 ${db}: ${run.stderr.trim()}`);
  return run.stdout.trim();
}

/** A generated store with the state Codex keeps for it: `state_5.sqlite` made by Codex, rows in it. */
function codexStore(): CodexStoreFacts & { db: string } {
  const store = writeCodexStore(join(newHome(), ".codex"));
  // An unknown thread: Codex fails to delete it (exit 1) but first creates and migrates its
  // databases, and fills them from the rollouts it finds. Our rows only add what it did not.
  spawnSync(CODEX, ["delete", "--force", "00000000-0000-7000-8000-000000000000"], {
    env: { ...process.env, CODEX_HOME: store.root },
    stdio: "ignore",
  });
  const db = join(store.root, "state_5.sqlite");
  const rows = store.threads.map(
    (t) =>
      `('${t.id}','${t.path}',1,1,'cli','openai','${t.options.cwd}','t','{}','on-request',${t.options.archived ? 1 : 0})`,
  );
  const edges = store.threads
    .filter((t) => t.options.spawnedBy)
    .map((t) => `('${t.options.spawnedBy!.id}','${t.id}','open')`);
  sql(
    db,
    `insert or ignore into threads (id, rollout_path, created_at, updated_at, source, model_provider, cwd, title, sandbox_policy, approval_mode, archived) values ${rows.join(",")};` +
      `insert or ignore into thread_spawn_edges (parent_thread_id, child_thread_id, status) values ${edges.join(",")};`,
  );
  // An older Codex's database beside it, of an older schema, naming the same threads.
  const legacy = join(store.root, "state_4.sqlite");
  sql(
    legacy,
    `create table threads (id text primary key, rollout_path text not null, cwd text not null, archived integer not null default 0);` +
      `insert into threads values ${store.threads.map((t) => `('${t.id}','${t.path}','${t.options.cwd}',0)`).join(",")};`,
  );
  return { ...store, db };
}

const threadRows = (db: string) => sql(db, "select id from threads order by id").split("\n").filter(Boolean);
const edgeRows = (db: string) =>
  sql(db, "select child_thread_id from thread_spawn_edges").split("\n").filter(Boolean);
const engine = { actor: "cli" as const, env: withCodex };

/**
 * The store's big family: the root thread with the two subagents it spawned (one by the other), a
 * fork of it (with a subagent of its own) and a fork of the fork — three sessions, the forks
 * reading their history from what they were forked from.
 */
function bigFamily(store: CodexStoreFacts) {
  const root = store.threads[0]!;
  const top = (t: Thread): Thread => {
    const up = t.options.spawnedBy ?? t.options.forkOf;
    return up ? top(up) : t;
  };
  const threads = store.threads.filter((t) => top(t) === root);
  const subagents = threads.filter(
    (t) => t.options.spawnedBy && top(t.options.spawnedBy) === root && !t.options.spawnedBy.options.forkOf,
  );
  const sessions = threads.filter((t) => !t.options.spawnedBy).map((t) => `codex:${t.id}`);
  return { root, subagents, threads, sessions };
}

async function selection(root: string, ids: readonly string[]) {
  const { sessions } = await scanStores({ stores: [{ kind: "codex", root }] });
  return {
    items: ids.map((id) => ({ id, fingerprint: sessions.find((s) => s.id === id)!.fingerprint })),
    stores: [{ kind: "codex" as const, root }],
    via: "selection" as const,
  };
}

const lenient = (target: "quarantine" | "trash" = "quarantine") =>
  lenientConfig(target, { activity: { graceMinutes: 1 } });

/** Every rollout's bytes and time: what "byte-identical, times included" compares. */
const rollouts = (store: CodexStoreFacts) =>
  new Map(
    [...snapshotTree([join(store.root, "sessions"), join(store.root, "archived_sessions")])]
      .filter(([, line]) => line.startsWith("file "))
      .map(([path, line]) => [path, `${line} ${lstatSync(path, { bigint: true }).mtimeNs}`]),
  );

/** The trash entry of a session of this store (every test's store has the same generated ids). */
const entryOf = (store: CodexStoreFacts, id: string) =>
  listTrash(engine).entries.find((e) => e.id === id && e.storeRoot === store.root)!;

describe("deleting Codex sessions through the real codex binary", () => {
  it.each(["quarantine", "trash"] as const)(
    "a family chosen as one leaves with its subagents, index lines and rows, and comes back byte-identical (%s)",
    async (target) => {
      const store = codexStore();
      lenient(target);
      const { root, subagents, threads, sessions } = bigFamily(store);
      expect([subagents.length, threads.length, sessions.length]).toEqual([2, 6, 3]);
      const before = rollouts(store);
      const index = readFileSync(join(store.root, "session_index.jsonl"), "utf8");

      const result = await softDelete(await selection(store.root, sessions), engine);
      expect(result.skipped).toEqual([]);
      // The forks first (each reads from the one before it), the root last.
      expect(result.moved.map((m) => m.id)).toEqual([...sessions].reverse());
      // Codex's own delete left nothing of the threads or their subagents; the legacy database is said.
      for (const t of threads) expect(existsSync(t.path)).toBe(false);
      const indexAfter = readFileSync(join(store.root, "session_index.jsonl"), "utf8");
      for (const t of threads) expect(indexAfter).not.toContain(t.id);
      expect(threadRows(store.db)).toEqual(
        store.threads
          .filter((t) => !threads.includes(t))
          .map((t) => t.id)
          .sort(),
      );
      expect(edgeRows(store.db)).toEqual([]);
      // One note a thread for the legacy database, and Codex's own look at the store afterwards.
      const [doctor, ...legacy] = [...result.notes!].sort(
        (a, b) => +b.includes("codex doctor") - +a.includes("codex doctor"),
      );
      expect(doctor).toContain("codex doctor");
      expect(legacy).toHaveLength(threads.length);
      expect(legacy.every((n) => n.includes("state_4.sqlite"))).toBe(true);
      // Everything else is as it was.
      const after = rollouts(store);
      for (const [path, line] of before)
        if (!threads.some((t) => t.path === path)) expect(after.get(path)).toBe(line);
      // The trash holds the root's rollout with its subagents' as one entry.
      const entry = entryOf(store, `codex:${root.id}`);
      expect(entry).toMatchObject({ state: "in-trash", target: "quarantine", storeKind: "codex" });
      expect(entry.sidecars.map((s) => s.from).sort()).toEqual(subagents.map((t) => t.path).sort());

      const restored = await restore([result.operationId!], engine);
      expect(restored.skipped).toEqual([]);
      // Back in the reverse order: the root first, then each fork after what it reads from.
      expect(restored.done.map((d) => d.id)).toEqual(sessions);
      // Every rollout byte-identical with its time; the index's other lines in their order and each
      // thread's lines appended again, in their order (the last of an id wins, as before).
      expect(rollouts(store)).toEqual(before);
      const lines = (text: string) => text.split("\n").filter(Boolean);
      const ours = (line: string) => threads.some((t) => line.includes(t.id));
      const now = lines(readFileSync(join(store.root, "session_index.jsonl"), "utf8"));
      expect(now.filter((l) => !ours(l))).toEqual(lines(index).filter((l) => !ours(l)));
      expect([...now.filter(ours)].sort()).toEqual(lines(index).filter(ours).sort());
      for (const t of threads)
        expect(now.filter((l) => l.includes(t.id))).toEqual(lines(index).filter((l) => l.includes(t.id)));
      // Codex's database gets its row again when Codex next reads the rollout (it rebuilds rows from
      // rollouts): the restore never writes it. Codex finds the fork again by its file, and deletes it.
      expect(threadRows(store.db)).not.toContain(root.id);
      const fork2 = threads.find((t) => t.options.forkOf?.options.forkOf)!;
      const again = spawnSync(CODEX, ["delete", "--force", fork2.id], {
        env: { ...process.env, CODEX_HOME: store.root },
        encoding: "utf8",
      });
      expect(again.status).toBe(0);
      expect(existsSync(fork2.path)).toBe(false);
    },
    60_000,
  );

  it("the CLI: scan names the family, and clean --ids ONE --family takes all of it, forks first", async () => {
    const store = codexStore();
    lenient();
    const { threads, sessions } = bigFamily(store);
    const out: string[] = [];
    const io = { stdout: (t: string) => out.push(t), stderr: (t: string) => out.push(t) };
    expect(await runCli(["scan", "--store", `codex:${store.root}`], io)).toBe(0);
    const familyLines = out
      .join("\n")
      .split("\n")
      .filter((l) => l.includes(`family …${sessions[0]!.slice(-8)}`));
    expect(familyLines).toHaveLength(3);
    out.length = 0;
    process.env.SESSION_RETENTION_CODEX = CODEX;
    try {
      // The fork of the fork, named by the end of its id, brings its whole family.
      const status = await runCli(
        ["clean", "--store", `codex:${store.root}`, "--ids", sessions[2]!.slice(-12), "--family", "--yes"],
        io,
      );
      expect(status, out.join("\n")).toBe(0);
    } finally {
      delete process.env.SESSION_RETENTION_CODEX;
    }
    expect(out.join("\n")).toMatch(/^3 sessions, /m);
    for (const t of threads) expect(existsSync(t.path)).toBe(false);
  });

  it("a session forks read from is kept alone; Codex itself refuses to delete it", async () => {
    const store = codexStore();
    lenient();
    const { root } = bigFamily(store);
    const result = await softDelete(await selection(store.root, [`codex:${root.id}`]), engine);
    expect(result.moved).toEqual([]);
    expect(result.skipped[0]!.reason).toMatch(/^fork-parent: 1 fork reads its history/);
    const codex = spawnSync(CODEX, ["delete", "--force", root.id], {
      env: { ...process.env, CODEX_HOME: store.root },
      encoding: "utf8",
    });
    expect(codex.status).toBe(1);
    expect(existsSync(root.path)).toBe(true);
  });

  it("without a codex binary a Codex session is not deleted, and the reason says why", async () => {
    const store = codexStore();
    lenient();
    const before = snapshotTree([store.root]);
    const env = { ...process.env, PATH: "/usr/bin:/bin" };
    const vscode = store.threads.find((t) => t.options.source === "vscode")!;
    const result = await softDelete(await selection(store.root, [`codex:${vscode.id}`]), {
      actor: "cli",
      env,
    });
    expect(result.moved).toEqual([]);
    expect(result.skipped[0]!.reason).toMatch(/no `codex` binary was found/);
    expect(snapshotTree([store.root])).toEqual(before);
  });

  it("a codex delete that fails leaves the session as it was, and nothing of it in the quarantine", async () => {
    // Codex exits 1 without touching anything (here: `false` in its place): our links go, and so do
    // the folders they were made in (left there, empty, until the Codex crash harness found the same
    // omission in recovery).
    const store = writeCodexStore(join(newHome(), ".codex"));
    lenient();
    const vscode = store.threads.find((t) => t.options.source === "vscode")!;
    const env = { ...process.env, SESSION_RETENTION_CODEX: "/bin/false" };
    const before = snapshotTree([store.root]);
    const result = await softDelete(await selection(store.root, [`codex:${vscode.id}`]), {
      actor: "cli",
      env,
    });
    expect(result.moved).toEqual([]);
    expect(result.skipped[0]!.reason).toMatch(/^codex delete --force \S+ exited 1/);
    expect(snapshotTree([store.root])).toEqual(before);
    expect(existsSync(join(statePaths(env).quarantine, result.operationId!))).toBe(false);
  });

  it("a thread whose rollout (or a subagent's) a real process holds open for writing is in use, never moved", async () => {
    const store = codexStore();
    lenient();
    const { root, subagents } = bigFamily(store);
    const vscode = store.threads.find((t) => t.options.source === "vscode")!;
    for (const held of [vscode.path, subagents[1]!.path]) {
      const child = spawn(
        process.execPath,
        [
          "-e",
          `require("fs").openSync(${JSON.stringify(held)}, "a"); console.log("open"); setInterval(() => {}, 1000)`,
        ],
        { stdio: ["ignore", "pipe", "ignore"] },
      );
      // Ready once it says the file is open.
      await new Promise((open) => child.stdout!.once("data", open));
      try {
        const id = held === vscode.path ? `codex:${vscode.id}` : `codex:${root.id}`;
        const inputs = await gatherPlanInputs({
          flagStores: [{ kind: "codex", root: store.root }],
          env: withCodex,
        });
        expect(inputs.activeIds.get(id)).toBe(`open in process ${child.pid}`);
        const result = await softDelete(await selection(store.root, [id]), engine);
        expect(result.moved).toEqual([]);
        expect(result.skipped[0]!.reason).toMatch(/^active: /);
        expect(existsSync(held)).toBe(true);
      } finally {
        child.kill("SIGKILL");
      }
    }
  });

  it("a rollout Codex re-creates at a trashed path (headerless) is in use and a conflict, never cleaned", async () => {
    const store = codexStore();
    lenient();
    const thread = store.threads.find((t) => t.options.source === "vscode")!;
    const id = `codex:${thread.id}`;
    await softDelete(await selection(store.root, [id]), engine);
    // Codex's writer, on a write error, reopens its path with create: a file without a header.
    writeFileSync(
      thread.path,
      `${JSON.stringify({ timestamp: "2026-03-02T09:00:00.000Z", type: "event_msg", payload: { type: "token_count" } })}\n`,
    );
    const inputs = await gatherPlanInputs({
      flagStores: [{ kind: "codex", root: store.root }],
      env: withCodex,
    });
    expect(inputs.activeIds.get(id)).toMatch(/a file appeared at the path of a session in the trash/);
    const again = await softDelete(await selection(store.root, [id]), engine);
    expect(again.moved).toEqual([]);
    const entry = entryOf(store, id);
    const restored = await restore([entry.entryId], engine);
    expect(restored.skipped[0]).toMatchObject({ pathTaken: true });
  });

  it.each(["linked", "codex-deleted"])(
    "a crash after %s loses nothing: recovery undoes or finishes it, and everything restores",
    async (step) => {
      const store = codexStore();
      lenient();
      const { root, subagents, sessions } = bigFamily(store);
      const before = rollouts(store);
      const id = `codex:${root.id}`;
      // The root moves third, after its two forks: the crash comes with it, subagents and all.
      let reached = 0;
      const crashPoint = (at: string) => {
        if (at === step && ++reached === 3) throw new Error(`crash at ${at}`);
      };
      const result = await softDelete(await selection(store.root, sessions), { ...engine, crashPoint });
      expect(result.moved.map((m) => m.id)).toEqual(sessions.slice(1).reverse());
      const [recovered] = recover(engine);
      if (step === "linked") {
        expect(recovered).toMatchObject({ id, result: "rolled-back" });
        expect(entryOf(store, id).state).toBe("not-moved");
        // Our links are gone from the quarantine: only the originals hold the files.
        for (const t of [root, ...subagents]) expect(lstatSync(t.path).nlink).toBe(1);
      } else {
        expect(recovered).toMatchObject({ id, result: "finished" });
        for (const t of [root, ...subagents]) expect(existsSync(t.path)).toBe(false);
      }
      const inTrash = listTrash(engine).entries.filter(
        (e) => e.storeRoot === store.root && e.state === "in-trash",
      );
      expect(
        (
          await restore(
            inTrash.map((e) => e.entryId),
            engine,
          )
        ).skipped,
      ).toEqual([]);
      expect(rollouts(store)).toEqual(before);
    },
    60_000,
  );
});
