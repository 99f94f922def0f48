// Nothing outside the selection, ever — against the real `codex` binary (the real-agent
// suite's pinned @openai/codex, test-support/test-agents.ts, offline, on a temporary CODEX_HOME). `codex delete <thread>` also deletes every
// thread Codex's database lists as spawned by it; a subagent whose rollout lost its `session_meta`
// line (Codex re-creates a moved file without one), or its `parent_thread_id`, is a session of its
// own to our scan. Before this was asked of Codex, deleting the spawner deleted such a subagent for
// good: no trash entry, no audit line. Now it goes with the spawner, in its trash entry, when it is
// selected too, and the spawner is refused otherwise; the plan and the previews say which; after
// each `codex delete`, the rest of the store is looked at, and anything gone is said loudly.
// Codex's databases are made by Codex itself; the spawn edge a real Codex wrote when it spawned the
// subagent is added with sqlite3 (Codex's own backfill cannot know it from a headerless rollout).
import { spawn, spawnSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  lstatSync,
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
import { PlanSchema, PlanSummarySchema, type Plan } from "../../../shared/plan.js";
import { SoftDeleteResultSchema } from "../../../shared/trash.js";
import { CodexStoreBuilder, type Thread } from "../../../test-support/codex-store.js";
import { lenientConfig, writeConfigFile } from "../../../test-support/config-file.js";
import { mkfifo, neverWaitsOn } from "../../../test-support/fifo.js";
import { agentBin } from "../../../test-support/test-agents.js";
import { insideAny, snapshotTree, treeChanges, without } from "../../../test-support/tree-snapshot.js";
import type { CleanJson } from "../../cli/clean-command.js";
import { runCli } from "../../cli/main.js";
import { listTrash, restore, softDelete } from "../../delete/deletion-engine.js";
import { createApp } from "../../http/app.js";
import { createDashboardService } from "../../http/dashboard-service.js";
import { scanStores } from "../../scan/scanner.js";
import { readAudit } from "../../state/audit-log.js";
import { addPins } from "../../state/protection-list.js";
import { statePaths } from "../../state/state-dir.js";
import { judgeTakes, takenInto } from "../../plan/agent-takes.js";
import { headline, planOf } from "../../../web/src/components/overview-headline.js";
import { codexAlsoDeletes, descendants } from "./codex-spawned.js";

const CODEX = agentBin("codex");
const withCodex = { ...process.env, SESSION_RETENTION_CODEX: CODEX };
const engine = { actor: "cli" as const, env: withCodex };

function sql(db: string, statement: string) {
  const run = spawnSync("sqlite3", ["-batch", "-noheader", db, statement], { encoding: "utf8" });
  if (run.status !== 0) throw new Error(`sqlite3 ${db}: ${run.stderr.trim()}`);
  return run.stdout.trim();
}

/** How the subagent lost what tells our scan who spawned it. */
type Lost = "session_meta" | "parent_thread_id";

/** Each store its own thread ids: the tests of this file share one home (and its pins). */
let seed = 27;

/**
 * A store with a thread that spawned a subagent the scan cannot place (`lost`), a thread with a
 * subagent it can, and a thread of its own — and Codex's state for it, made by Codex, with the edge
 * of the lost subagent as Codex recorded it when it spawned it.
 */
function store(lost: Lost) {
  const root = join(realpathSync(mkdtempSync(join(tmpdir(), "sr-codex-spawned-"))), ".codex");
  const b = new CodexStoreBuilder(root, seed++);
  const spawner = b.thread({ cwd: "/home/dev/shop", turns: 3, names: ["checkout"] });
  const lostOne = b.thread({
    cwd: "/home/dev/shop",
    turns: 2,
    spawnedBy: spawner,
    ...(lost === "session_meta" ? { headerless: true } : { noParentField: true }),
  });
  const other = b.thread({ cwd: "/home/dev/api", turns: 2, names: ["billing"] });
  b.thread({ cwd: "/home/dev/api", turns: 1, spawnedBy: other });
  const bystander = b.thread({ cwd: "/home/dev/docs", turns: 1 });
  b.finish();
  spawnSync(CODEX, ["delete", "--force", "00000000-0000-7000-8000-000000000000"], {
    env: { ...process.env, CODEX_HOME: root },
    stdio: "ignore",
  });
  const db = join(root, "state_5.sqlite");
  sql(
    db,
    `insert or ignore into thread_spawn_edges (parent_thread_id, child_thread_id, status) values ('${spawner.id}','${lostOne.id}','closed');`,
  );
  return { root, db, spawner, lostOne, other, bystander, id: (t: Thread) => `codex:${t.id}` };
}
type Store = ReturnType<typeof store>;

const codexStores = (s: Store) => [{ kind: "codex" as const, root: s.root }];

async function selection(s: Store, threads: readonly Thread[]) {
  const { sessions } = await scanStores({ stores: codexStores(s) });
  return {
    items: threads.map((t) => ({
      id: s.id(t),
      fingerprint: sessions.find((r) => r.id === s.id(t))!.fingerprint,
    })),
    stores: codexStores(s),
    via: "selection" as const,
  };
}

/**
 * Codex's own files that `codex delete` itself writes — its databases and its lock files — and the
 * index, checked apart.
 */
const codexOwn = (path: string) =>
  /\.sqlite(-wal|-shm)?$|\/session_index\.jsonl(\.lock)?$|\/thread-writer-locks$/.test(path);

/** Every rollout's bytes and time. */
const rollouts = (s: Store) =>
  new Map(
    [...snapshotTree([join(s.root, "sessions"), join(s.root, "archived_sessions")])]
      .filter(([, line]) => line.startsWith("file "))
      .map(([path, line]) => [path, `${line} ${lstatSync(path, { bigint: true }).mtimeNs}`]),
  );

const indexOf = (s: Store) => readFileSync(join(s.root, "session_index.jsonl"), "utf8");
const entryOf = (s: Store, t: Thread) =>
  listTrash(engine).entries.find((e) => e.id === s.id(t) && e.storeRoot === s.root);

describe.each(["session_meta", "parent_thread_id"] as const)("a subagent that lost its %s", (lost) => {
  it("is a session of its own to the scan, and Codex's database lists it as spawned", async () => {
    const s = store(lost);
    const { sessions } = await scanStores({ stores: codexStores(s) });
    expect(sessions.map((r) => r.id)).toContain(s.id(s.lostOne));
    expect(sessions.find((r) => r.id === s.id(s.spawner))!.bundle ?? []).toEqual([]);
    expect(
      sql(s.db, `select child_thread_id from thread_spawn_edges where parent_thread_id = '${s.spawner.id}'`),
    ).toBe(s.lostOne.id);
  });

  it("selected with its spawner, it goes with it in one trash entry, and comes back with it", async () => {
    const s = store(lost);
    lenientConfig();
    const before = snapshotTree([s.root], codexOwn);
    const beforeRollouts = rollouts(s);
    const index = indexOf(s);

    const result = await softDelete(await selection(s, [s.spawner, s.lostOne]), engine);
    expect(result.skipped).toEqual([]);
    expect(result.lost).toBeUndefined();
    expect(result.moved.map((m) => m.id).sort()).toEqual([s.id(s.spawner), s.id(s.lostOne)].sort());
    expect(result.bytesFreed).toBe(result.moved.reduce((n, m) => n + m.bytes, 0));
    expect(result.notes).toContainEqual(
      expect.stringMatching(new RegExp(`Codex's own delete also took its spawned thread ${s.lostOne.id}`)),
    );
    // One entry holds both rollouts; the subagent's row is gone from Codex's database.
    const entry = entryOf(s, s.spawner)!;
    expect(entry.sidecars.map((x) => x.from)).toEqual([s.lostOne.path]);
    expect(entryOf(s, s.lostOne)).toBeUndefined();
    expect(sql(s.db, `select count(*) from threads where id in ('${s.spawner.id}','${s.lostOne.id}')`)).toBe(
      "0",
    );
    // Nothing outside the selection changed: every other file of Codex's home as it was, the other
    // threads' index lines in order.
    const moved = insideAny([s.spawner.path, s.lostOne.path]);
    expect(treeChanges(without(before, moved), without(snapshotTree([s.root], codexOwn), moved))).toEqual([]);
    const ours = (line: string) => line.includes(s.spawner.id) || line.includes(s.lostOne.id);
    expect(indexOf(s).split("\n").filter(Boolean)).toEqual(
      index.split("\n").filter((line) => line && !ours(line)),
    );

    const restored = await restore([result.operationId!], engine);
    expect(restored.skipped).toEqual([]);
    expect(rollouts(s)).toEqual(beforeRollouts);
    expect(treeChanges(before, snapshotTree([s.root], codexOwn))).toEqual([]);
    // The index has the spawner's names again, appended after the others' (the last one wins).
    const lines = index.split("\n").filter(Boolean);
    expect(indexOf(s).split("\n").filter(Boolean)).toEqual([
      ...lines.filter((line) => !ours(line)),
      ...lines.filter(ours),
    ]);
  }, 60_000);

  it.each(["not selected", "pinned", "live"] as const)(
    "%s, it keeps its spawner from being deleted, and nothing changes",
    async (why) => {
      const s = store(lost);
      lenientConfig("quarantine", { activity: { graceMinutes: 1 } });
      let holder: ReturnType<typeof spawn> | undefined;
      if (why === "pinned")
        addPins(statePaths().protectedList, [{ id: s.id(s.lostOne), path: s.lostOne.path }]);
      if (why === "live") {
        // A process holding the subagent's rollout open for writing, as Codex does while it runs:
        // ready once it says so.
        holder = spawn(
          process.execPath,
          [
            "-e",
            `require("fs").openSync(${JSON.stringify(s.lostOne.path)}, "a"); console.log("ready"); setInterval(() => {}, 1000)`,
          ],
          { stdio: ["ignore", "pipe", "ignore"] },
        );
        await new Promise((ready) => holder!.stdout!.once("data", ready));
      }
      try {
        const before = snapshotTree([s.root]);
        const chosen = why === "not selected" ? [s.spawner] : [s.spawner, s.lostOne];
        const result = await softDelete(await selection(s, chosen), engine);
        expect(result.moved).toEqual([]);
        const reason = result.skipped.find((x) => x.id === s.id(s.spawner))!.reason;
        expect(reason).toMatch(
          new RegExp(
            `^Codex's own delete of it would also delete its spawned thread ${s.lostOne.id} \\(session ${s.id(s.lostOne)}, “.+”\\), which ${
              why === "not selected"
                ? "is not selected: select it too, and both go to the trash together"
                : why === "pinned"
                  ? "stays \\(pinned: pinned by you\\)"
                  : `stays \\(active: open in process ${holder!.pid}\\)`
            }$`,
          ),
        );
        // Codex was never run: every file of its home as it was, databases included.
        expect(treeChanges(before, snapshotTree([s.root]))).toEqual([]);
        expect(existsSync(s.lostOne.path)).toBe(true);
      } finally {
        holder?.kill("SIGKILL");
      }
    },
    60_000,
  );
});

/** `runCli` with the codex binary named, its output gathered. */
async function cli(args: string[], codex = CODEX) {
  const out: string[] = [];
  const err: string[] = [];
  process.env.SESSION_RETENTION_CODEX = codex;
  try {
    const status = await runCli(args, { stdout: (t) => out.push(t), stderr: (t) => err.push(t) });
    return { status, out: out.join("\n"), err: err.join("\n") };
  } finally {
    delete process.env.SESSION_RETENTION_CODEX;
  }
}

describe("the plan and the previews say what Codex takes with a session", () => {
  it("plan: the spawned thread goes with its spawner, or the spawner is left out while it is pinned", async () => {
    const s = store("session_meta");
    // Every session is older than a day: the policy chooses them all.
    writeConfigFile({
      retention: { maxAgeDays: 1, minKeepRecentCount: 0, keepLastPerNamespace: 0, allowEmptyStore: true },
      deletion: { target: "quarantine" },
    });
    const plan = await cli(["plan", "--store", `codex:${s.root}`]);
    expect(plan.status, plan.err).toBe(0);
    expect(plan.out).toMatch(
      new RegExp(
        `^Codex will also delete its spawned thread ${s.lostOne.id}: “.+” \\(.+\\) goes with “checkout”, in its trash entry$`,
        "m",
      ),
    );
    const json = PlanSchema.parse(
      JSON.parse((await cli(["plan", "--json", "--store", `codex:${s.root}`])).out),
    );
    expect(json.candidates.find((c) => c.id === s.id(s.spawner))!.alsoDeletes).toEqual([
      expect.objectContaining({
        id: s.id(s.lostOne),
        path: s.lostOne.path,
        what: `its spawned thread ${s.lostOne.id}`,
      }),
    ]);

    addPins(statePaths().protectedList, [{ id: s.id(s.lostOne), path: s.lostOne.path }]);
    const pinned = await cli(["plan", "--store", `codex:${s.root}`]);
    expect(pinned.out).toMatch(
      new RegExp(
        `^  1 session: Codex's own delete would also delete something that is not going with it\n    .*${s.spawner.id}\\.jsonl — Codex's own delete of it would also delete its spawned thread ${s.lostOne.id} .*which stays \\(pinned: pinned by you\\)$`,
        "m",
      ),
    );
    const left = PlanSchema.parse(
      JSON.parse((await cli(["plan", "--json", "--store", `codex:${s.root}`])).out),
    );
    expect(left.candidates.map((c) => c.id)).not.toContain(s.id(s.spawner));
    expect(left.kept.find((k) => k.id === s.id(s.spawner))).toMatchObject({ reason: "cannot-move" });
  }, 60_000);

  it("clean: the preview names it before DELETE, and the dry run moves nothing", async () => {
    const s = store("parent_thread_id");
    lenientConfig();
    const before = snapshotTree([s.root]);
    const alone = await cli(["clean", "--dry-run", "--store", `codex:${s.root}`, "--ids", s.spawner.id]);
    expect(alone.out).toMatch(/^Nothing to clean: no session that can be moved now is a candidate\.$/m);
    expect(alone.out).toMatch(
      new RegExp(
        `^    .*${s.spawner.id}\\.jsonl — Codex's own delete of it would also delete its spawned thread ${s.lostOne.id} .*which is not selected: select it too`,
        "m",
      ),
    );
    const both = await cli([
      "clean",
      "--dry-run",
      "--store",
      `codex:${s.root}`,
      "--ids",
      s.spawner.id,
      s.lostOne.id,
    ]);
    expect(both.out).toMatch(new RegExp(`^Codex will also delete its spawned thread ${s.lostOne.id}: `, "m"));
    expect(both.out).not.toMatch(/^skipped:/m);
    expect(treeChanges(before, snapshotTree([s.root]))).toEqual([]);
  }, 60_000);

  it("the dashboard's wizard preview names it, and executing the preview takes both as one", async () => {
    const s = store("session_meta");
    lenientConfig();
    const port = 4997;
    const headers = {
      Host: `127.0.0.1:${port}`,
      Authorization: "Bearer t",
      "Content-Type": "application/json",
    };
    const app = createApp({
      api: createDashboardService({
        stores: codexStores(s),
        source: { kind: "pi" },
        config: {},
      }),
      port: () => port,
      token: "t",
    });
    const post = async (path: string, body: unknown) =>
      (
        await app.request(`http://127.0.0.1:${port}${path}`, {
          method: "POST",
          headers,
          body: JSON.stringify(body),
        })
      ).json();

    // The server looks for `codex` as a user's would (SESSION_RETENTION_CODEX, else PATH): without it every
    // Codex session is left out before any spawned thread is asked about.
    process.env.SESSION_RETENTION_CODEX = CODEX;
    try {
      const alone = PlanSchema.parse(await post("/api/plan/selection", { ids: [s.id(s.spawner)] }));
      expect(alone.candidates).toEqual([]);
      expect(alone.leftOut![0]!.sessions[0]!.detail).toMatch(/which is not selected: select it too/);
      const both: Plan = PlanSchema.parse(
        await post("/api/plan/selection", { ids: [s.id(s.spawner), s.id(s.lostOne)] }),
      );
      expect(both.candidates.find((c) => c.id === s.id(s.spawner))!.alsoDeletes).toEqual([
        {
          id: s.id(s.lostOne),
          path: s.lostOne.path,
          title: expect.any(String),
          what: `its spawned thread ${s.lostOne.id}`,
        },
      ]);
      const result = SoftDeleteResultSchema.parse(await post("/api/delete", { previewId: both.previewId }));
      expect(result.moved.map((m) => m.id).sort()).toEqual([s.id(s.spawner), s.id(s.lostOne)].sort());
    } finally {
      delete process.env.SESSION_RETENTION_CODEX;
    }
    expect(entryOf(s, s.spawner)!.sidecars.map((x) => x.from)).toEqual([s.lostOne.path]);
  }, 60_000);
});

describe("a candidate whose Codex delete would take a pinned thread is left out, as one that cannot move", () => {
  /** The store with the lost subagent pinned: Codex's delete of its spawner would take it for good. */
  function pinnedStore() {
    const s = store("session_meta");
    addPins(statePaths().protectedList, [{ id: s.id(s.lostOne), path: s.lostOne.path }]);
    return s;
  }

  /**
   * The dashboard's service on the store, and a request to its API — made with the pinned `codex`
   * found as a user's would be (SESSION_RETENTION_CODEX): without it every Codex session is left out.
   */
  function dashboard(s: Store) {
    const port = 4997;
    const headers = { Host: `127.0.0.1:${port}`, Authorization: "Bearer t" };
    const app = createApp({
      api: createDashboardService({
        stores: codexStores(s),
        source: { kind: "pi" },
        config: {},
      }),
      port: () => port,
      token: "t",
    });
    return async (path: string) => {
      process.env.SESSION_RETENTION_CODEX = CODEX;
      try {
        return await (await app.request(`http://127.0.0.1:${port}${path}`, { headers })).json();
      } finally {
        delete process.env.SESSION_RETENTION_CODEX;
      }
    };
  }

  it("the DELETE prompt's count is the count moved, and the dashboard's headline count", async () => {
    const s = pinnedStore();
    // Every session is older than a day: the policy chooses all but the pinned one.
    writeConfigFile({
      retention: { maxAgeDays: 1, minKeepRecentCount: 0, keepLastPerNamespace: 0, allowEmptyStore: true },
      deletion: { target: "quarantine" },
    });
    const before = snapshotTree([s.root], codexOwn);

    // The dashboard's headline, as the overview makes it from the plan's summary.
    const api = dashboard(s);
    const summary = PlanSummarySchema.parse(await api("/api/plan/summary"));
    const said = headline({
      totalBytes: summary.before.totalBytes,
      sessionCount: summary.before.sessionCount,
      quota: summary.quotaBefore,
      growth: undefined,
      plan: planOf(summary),
    }).policy;
    // Far from the quota: what is old, not urged (web/src/components/overview-headline.ts).
    expect(said).toMatch(
      /^2 of \d+ sessions have not been used for 1 day\. Cleaning up would free .+; nothing has to go before the quota reaches 90%\. 1 more it chose cannot be moved now\.$/,
    );
    const plan = PlanSchema.parse(await api("/api/plan"));
    expect(plan.candidates.map((c) => c.id).sort()).toEqual([s.id(s.other), s.id(s.bystander)].sort());
    expect(plan.leftOut).toEqual([
      {
        reason: "Codex's own delete would also delete something that is not going with it",
        sessions: [
          expect.objectContaining({
            id: s.id(s.spawner),
            detail: expect.stringMatching(
              new RegExp(
                `^Codex's own delete of it would also delete its spawned thread ${s.lostOne.id} .*which stays \\(pinned: pinned by you\\)$`,
              ),
            ),
          }),
        ],
      },
    ]);

    // The CLI asks for DELETE for what moves, and moves exactly that.
    const questions: string[] = [];
    const out: string[] = [];
    process.env.SESSION_RETENTION_CODEX = CODEX;
    let status: number;
    try {
      status = await runCli(["clean", "--json", "--store", `codex:${s.root}`], {
        stdout: (t) => out.push(t),
        stderr: () => {},
        ask: async (question) => (questions.push(question), "DELETE"),
      });
    } finally {
      delete process.env.SESSION_RETENTION_CODEX;
    }
    expect(status).toBe(0);
    expect(questions).toEqual([expect.stringMatching(/^Type DELETE to move 2 sessions /)]);
    const document = JSON.parse(out.join("\n")) as CleanJson;
    const result = SoftDeleteResultSchema.parse(document.result);
    expect(result.moved.map((m) => m.id).sort()).toEqual([s.id(s.other), s.id(s.bystander)].sort());
    expect(result.skipped).toEqual([]);
    expect(document.leftOut).toEqual(plan.leftOut);
    // The spawner and its pinned thread as they were; nothing but what moved changed.
    const moved = insideAny(
      result.moved.flatMap((m) => [m.path, ...(entryOf(s, s.other)?.sidecars ?? []).map((x) => x.from)]),
    );
    expect(treeChanges(without(before, moved), without(snapshotTree([s.root], codexOwn), moved))).toEqual([]);
    expect(existsSync(s.spawner.path) && existsSync(s.lostOne.path)).toBe(true);
  }, 60_000);

  it("a quota plan picks another session in its place, and that one is what moves", async () => {
    const s = pinnedStore();
    // Four sessions, and the count must stay below four: the least recently used goes — the
    // spawner, which cannot (its pinned thread is the next least recently used).
    writeConfigFile({
      quota: { maxSessionCount: 4 },
      retention: { maxAgeDays: null, minKeepRecentCount: 0, keepLastPerNamespace: 0, allowEmptyStore: true },
      deletion: { target: "quarantine" },
    });
    const { sessions } = await scanStores({ stores: codexStores(s) });
    const byAge = [...sessions].sort((a, b) => a.lastUsedAt.localeCompare(b.lastUsedAt)).map((r) => r.id);
    expect(byAge.slice(0, 2)).toEqual([s.id(s.spawner), s.id(s.lostOne)]);
    const before = snapshotTree([s.root], codexOwn);

    const plan = PlanSchema.parse(
      JSON.parse((await cli(["plan", "--json", "--store", `codex:${s.root}`])).out),
    );
    expect(plan.candidates.map((c) => c.id)).toEqual([byAge[2]]);
    // The quota is met all the same: three sessions left, under its count.
    expect([plan.after.sessionCount, plan.quotaAfter.level]).toEqual([3, "info"]);
    expect(plan.leftOut?.flatMap((g) => g.sessions.map((x) => x.id))).toEqual([s.id(s.spawner)]);
    const summary = PlanSummarySchema.parse(await dashboard(s)("/api/plan/summary"));
    expect([summary.candidateCount, summary.leftOutCount]).toEqual([1, 1]);

    const run = await cli(["clean", "--yes", "--json", "--store", `codex:${s.root}`]);
    expect(run.status, run.err).toBe(0);
    const result = SoftDeleteResultSchema.parse((JSON.parse(run.out) as CleanJson).result);
    expect(result.moved.map((m) => m.id)).toEqual([byAge[2]]);
    expect(result.skipped).toEqual([]);
    const entry = listTrash(engine).entries.find((e) => e.id === byAge[2])!;
    const moved = insideAny([entry.originalPath, ...entry.sidecars.map((x) => x.from)]);
    expect(treeChanges(without(before, moved), without(snapshotTree([s.root], codexOwn), moved))).toEqual([]);
  }, 60_000);

  it("the engine asks again under its lock: a thread pinned after the preview keeps its spawner, said in Codex's terms", async () => {
    const s = store("session_meta");
    writeConfigFile({
      retention: { maxAgeDays: 1, minKeepRecentCount: 0, keepLastPerNamespace: 0, allowEmptyStore: true },
      deletion: { target: "quarantine" },
    });
    // The preview: the policy chooses the spawner and its subagent, which go together.
    const preview = PlanSchema.parse(
      JSON.parse((await cli(["plan", "--json", "--store", `codex:${s.root}`])).out),
    );
    const pair = [s.id(s.spawner), s.id(s.lostOne)];
    expect(preview.candidates.map((c) => c.id)).toEqual(expect.arrayContaining(pair));
    expect(preview.leftOut).toBeUndefined();
    // Then the subagent is pinned, and the preview's pair is executed as the policy's.
    addPins(statePaths().protectedList, [{ id: s.id(s.lostOne), path: s.lostOne.path }]);
    const before = snapshotTree([s.root]);
    const result = await softDelete(
      {
        items: preview.candidates
          .filter((c) => pair.includes(c.id))
          .map((c) => ({ id: c.id, fingerprint: c.fingerprint! })),
        stores: codexStores(s),
        via: "policy",
      },
      engine,
    );
    expect(result.moved).toEqual([]);
    expect(Object.fromEntries(result.skipped.map((x) => [x.id, x.reason]))).toEqual({
      [s.id(s.lostOne)]: "pinned: pinned by you",
      [s.id(s.spawner)]: expect.stringMatching(
        new RegExp(
          `^Codex's own delete of it would also delete its spawned thread ${s.lostOne.id} .*which stays \\(pinned: pinned by you\\)$`,
        ),
      ),
    });
    // Codex was never run: every file of its home as it was.
    expect(treeChanges(before, snapshotTree([s.root]))).toEqual([]);
  }, 60_000);
});

describe("the look after each codex delete: anything gone outside the item is said loudly", () => {
  /**
   * The real `codex`, behind a wrapper that first records one more spawn edge — a thread of the
   * store as spawned by `parent` — the way a running Codex would between our question and its
   * delete. The only stand-in in this file: a real race cannot be timed in a test.
   */
  function racingCodex(s: Store, parent: Thread, child: Thread) {
    const wrapper = join(mkdtempSync(join(tmpdir(), "sr-codex-race-")), "codex");
    writeFileSync(
      wrapper,
      `#!/bin/sh\nsqlite3 "$CODEX_HOME/state_5.sqlite" "insert or ignore into thread_spawn_edges values ('${parent.id}','${child.id}','open')"\nexec ${JSON.stringify(CODEX)} "$@"\n`,
    );
    chmodSync(wrapper, 0o755);
    return wrapper;
  }

  it("the engine's result, the audit log and the CLI say what was lost", async () => {
    const s = store("session_meta");
    lenientConfig();
    const codex = racingCodex(s, s.other, s.bystander);
    const result = await softDelete(await selection(s, [s.other]), {
      actor: "cli",
      env: { ...process.env, SESSION_RETENTION_CODEX: codex },
    });
    expect(result.moved.map((m) => m.id)).toEqual([s.id(s.other)]);
    expect(result.lost).toEqual([
      {
        id: s.id(s.bystander),
        path: s.bystander.path,
        reason: expect.stringMatching(/lost, not in the trash$/),
      },
    ]);
    expect(result.notes).toContainEqual(expect.stringMatching(new RegExp(`^LOST: ${s.id(s.bystander)} `)));
    const [audit] = readAudit(statePaths().auditLog).entries;
    expect(audit).toMatchObject({
      action: "soft-delete",
      result: "failed",
      detail: expect.stringMatching(/^LOST: 1 session/),
    });
    expect(audit!.items).toContainEqual(expect.objectContaining({ id: s.id(s.bystander), result: "lost" }));

    // The CLI: a warning on stderr and a failing exit status.
    const t = store("session_meta");
    const run = await cli(
      ["clean", "--yes", "--store", `codex:${t.root}`, "--ids", t.other.id],
      racingCodex(t, t.other, t.bystander),
    );
    expect(run.status).toBe(1);
    expect(run.err).toMatch(new RegExp(`^WARNING: LOST, NOT IN THE TRASH: ${t.id(t.bystander)} `, "m"));
  }, 60_000);
});

describe("a restore appends Codex's names only to a regular session_index.jsonl", () => {
  /** A deleted thread whose index lines a restore must append; then `replace` puts something at the index's path. */
  async function deletedThread() {
    const s = store("session_meta");
    lenientConfig();
    const result = await softDelete(await selection(s, [s.other]), engine);
    expect(result.moved.map((m) => m.id)).toEqual([s.id(s.other)]);
    expect(entryOf(s, s.other)!.indexLines).toHaveLength(1);
    return s;
  }

  const refusedRestore = async (s: Store, why: RegExp) => {
    const entry = entryOf(s, s.other)!;
    const restored = await restore([entry.entryId], engine);
    expect(restored.done).toEqual([]);
    expect(restored.skipped[0]!.reason).toMatch(why);
    expect(entryOf(s, s.other)!.state).toBe("in-trash");
    expect(existsSync(s.other.path)).toBe(false);
  };

  it("a symlink to a regular file elsewhere: refused, the file it points to untouched, the entry kept", async () => {
    const s = await deletedThread();
    const elsewhere = join(mkdtempSync(join(tmpdir(), "sr-elsewhere-")), "notes.txt");
    renameSync(join(s.root, "session_index.jsonl"), elsewhere);
    symlinkSync(elsewhere, join(s.root, "session_index.jsonl"));
    const before = snapshotTree([s.root, elsewhere]);
    await refusedRestore(
      s,
      /^not restored, it stays in the trash: Codex's index of thread names cannot be appended to: .* is a symbolic link/,
    );
    expect(treeChanges(before, snapshotTree([s.root, elsewhere]))).toEqual([]);
  }, 60_000);

  it.each(["a symlink to a FIFO", "a FIFO"] as const)(
    "%s: refused at once, never blocking under the lock",
    async (what) => {
      const s = await deletedThread();
      const index = join(s.root, "session_index.jsonl");
      const fifo = mkfifo(join(mkdtempSync(join(tmpdir(), "sr-fifo-")), "index"));
      renameSync(index, `${index}.was`);
      if (what === "a FIFO") renameSync(fifo, index);
      else symlinkSync(fifo, index);
      const watched = what === "a FIFO" ? index : fifo;
      const before = snapshotTree([s.root]);
      await neverWaitsOn(watched, () =>
        refusedRestore(
          s,
          what === "a FIFO" ? /is a named pipe \(FIFO\), not a regular file/ : /is a symbolic link/,
        ),
      );
      expect(treeChanges(before, snapshotTree([s.root]))).toEqual([]);
    },
    60_000,
  );
});

describe("Codex's answer, and the judgment of it", () => {
  it("every thread below, nearest first, whatever the cycles in Codex's records", () => {
    const edges = new Map([
      ["a", ["b", "c"]],
      ["b", ["d", "a"]],
      ["d", ["b"]],
    ]);
    expect(descendants(edges, "a")).toEqual(["b", "c", "d"]);
    expect(descendants(edges, "c")).toEqual([]);
  });

  it("names a session it takes whole once, a part of another session or a stray rollout as a file", async () => {
    const root = join(realpathSync(mkdtempSync(join(tmpdir(), "sr-codex-answer-"))), ".codex");
    const b = new CodexStoreBuilder(root, 99);
    const spawner = b.thread({ cwd: "/home/dev/a", turns: 1 });
    const lostOne = b.thread({ cwd: "/home/dev/a", turns: 1, spawnedBy: spawner, headerless: true });
    // The lost subagent's own subagent says who spawned it: part of the lost one's session.
    const below = b.thread({ cwd: "/home/dev/a", turns: 1, spawnedBy: lostOne });
    const other = b.thread({ cwd: "/home/dev/b", turns: 1 });
    const othersSubagent = b.thread({ cwd: "/home/dev/b", turns: 1, spawnedBy: other });
    const facts = b.finish();
    // A rollout where Codex keeps none (the scan reports it, Codex may still find it by its id).
    const strayThread = "019c0000-0000-7000-8000-00000000abcd";
    const stray = join(root, "sessions", "2026", `rollout-2026-01-01T00-00-00-${strayThread}.jsonl`);
    writeFileSync(stray, "{}\n");
    const report = await scanStores({ stores: [{ kind: "codex", root }] });
    const scan = { records: report.sessions, problems: report.problems };
    const id = (t: Thread) => `codex:${t.id}`;
    const ask = (edges: Array<[string, string]>, ids: string[]) => {
      const map = new Map<string, string[]>();
      for (const [p, c] of edges) map.set(p, [...(map.get(p) ?? []), c]);
      return codexAlsoDeletes(scan, ids, map) as Map<string, unknown>;
    };
    expect(facts.threads).toHaveLength(5);

    const edges: Array<[string, string]> = [
      [spawner.id, lostOne.id],
      [lostOne.id, below.id],
    ];
    expect(ask(edges, [id(spawner)]).get(id(spawner))).toEqual([
      { what: `its spawned thread ${lostOne.id}`, session: id(lostOne) },
    ]);
    expect(ask([...edges, [spawner.id, othersSubagent.id]], [id(spawner)]).get(id(spawner))).toContainEqual({
      what: `its spawned thread ${othersSubagent.id}, a subagent's rollout of session ${id(other)}`,
      path: othersSubagent.path,
    });
    expect(ask([[spawner.id, strayThread]], [id(spawner)]).get(id(spawner))).toEqual([
      { what: `its spawned thread ${strayThread}`, path: stray },
    ]);
    // A thread the database names with no rollout here takes nothing of ours.
    expect(ask([[other.id, "019c0000-0000-7000-8000-0000000000ff"]], [id(other)]).has(id(other))).toBe(false);

    // Judged: a session taken along is refused when a part of another session would go with it.
    const byId = new Map(report.sessions.map((r) => [r.id, r]));
    const judged = judgeTakes(
      new Map([
        [id(spawner), [{ what: "its spawned thread x", session: id(lostOne) }]],
        [id(lostOne), [{ what: "its spawned thread y", path: othersSubagent.path }]],
      ]),
      byId,
      () => undefined,
    );
    expect(judged.get(id(lostOne))).toEqual({
      refused: `Codex's own delete of it would also delete its spawned thread y, which is not a session that can go with it (${othersSubagent.path})`,
      group: "Codex's own delete would also delete something that is not going with it",
    });
    expect((judged.get(id(spawner)) as { refused: string }).refused).toMatch(
      new RegExp(`which stays: Codex's own delete of it would also delete its spawned thread y`),
    );
  });

  it("a cycle in Codex's records is broken at its first member", () => {
    const take = (id: string) => ({
      takes: [{ id, path: id, title: id, what: id, sizeBytes: 1, agent: "Codex" }],
    });
    expect([
      ...takenInto(
        ["x", "y"],
        new Map([
          ["x", take("y")],
          ["y", take("x")],
        ]),
      ),
    ]).toEqual([["y", "x"]]);
    // A taker taken by another goes with that one, and so does everything it takes.
    const two = (a: string, b: string) => ({
      takes: [a, b].map((id) => ({ id, path: id, title: id, what: id, sizeBytes: 1, agent: "Codex" })),
    });
    expect(
      new Map(
        takenInto(
          ["y", "x"],
          new Map([
            ["y", take("z")],
            ["x", two("y", "z")],
          ]),
        ),
      ),
    ).toEqual(
      new Map([
        ["y", "x"],
        ["z", "x"],
      ]),
    );
  });

  it("a state database Codex reads that cannot be read refuses its sessions, and nothing changes", async () => {
    const s = store("session_meta");
    lenientConfig();
    writeFileSync(s.db, "not a database, whatever Codex left here\n".repeat(200));
    for (const extra of ["-wal", "-shm"]) rmSync(`${s.db}${extra}`, { force: true });
    const before = snapshotTree([s.root]);
    const result = await softDelete(await selection(s, [s.other, s.bystander]), engine);
    expect(result.moved).toEqual([]);
    expect(result.skipped.map((x) => x.reason)).toEqual([
      expect.stringMatching(
        /^could not ask Codex what its own delete of it would also delete \(Codex's state database .*state_5\.sqlite could not be read/,
      ),
      expect.stringMatching(/^could not ask Codex/),
    ]);
    expect(treeChanges(before, snapshotTree([s.root]))).toEqual([]);
    // A policy that chooses every session: its plan leaves each out, under that one reason (no
    // session has a detail of its own), and counts none.
    writeConfigFile({
      retention: { maxAgeDays: 1, minKeepRecentCount: 0, keepLastPerNamespace: 0, allowEmptyStore: true },
      deletion: { target: "quarantine" },
    });
    const plan = PlanSchema.parse(
      JSON.parse((await cli(["plan", "--json", "--store", `codex:${s.root}`])).out),
    );
    expect(plan.candidates).toEqual([]);
    expect(plan.leftOut).toHaveLength(1);
    expect(plan.leftOut![0]!.reason).toMatch(/^could not ask Codex .*state_5\.sqlite could not be read/);
    expect(plan.leftOut![0]!.sessions.map((x) => [x.id, x.detail]).sort()).toEqual(
      [s.spawner, s.lostOne, s.other, s.bystander].map((t) => [s.id(t), undefined]).sort(),
    );
  });
});
