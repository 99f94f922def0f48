// `codex doctor`'s verdict on a store: judged from a report the real Codex 0.169 wrote (recorded,
// trimmed to four of its checks, paths renamed: test-support/codex-doctor-0.169.json) — only its
// state and thread checks count, the worst of them is the verdict, their issues are said — and run
// for real: the installed Codex's report on a store, its network probes kept on this machine, and
// a binary that gives no report; strace shows it sends nothing off this machine. The installed
// Codex (0.169) has `doctor`, so "this Codex has no doctor" is not run here: a binary that prints
// nothing stands for every such case. After a restore, doctor's warning that the restored rollouts
// have no row in Codex's database yet is expected, and said calmly; any other finding stays loud —
// checked on reports shaped as the real one after a restore, and with the real Codex writing its
// threads (`codex exec` against the mock model), whose next start lists the restored thread again.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { codexDoctor, doctorCommand, doctorVerdict } from "./codex-doctor.js";
import { agentBin } from "../../../test-support/test-agents.js";
import { codexDriver, type CodexDriver } from "../../../test-support/agents/codex.js";
import { agentSandbox, ourCli } from "../../../test-support/agents/sandbox.js";
import { type MockModel, startMockModel } from "../../../test-support/mock-model/index.js";

const recorded = readFileSync(resolve("test-support/codex-doctor-0.169.json"), "utf8");
const report = () => JSON.parse(recorded) as { checks: Record<string, Record<string, unknown>> };

describe("doctorVerdict: a recorded report of Codex 0.169", () => {
  it("judges the store's checks only: a warning with its issue, whatever sign-in and network say", () => {
    expect(doctorVerdict(recorded)).toEqual({
      status: "warning",
      message:
        "codex doctor 0.169.0: warning — rollout files and state DB thread inventory differ (rollout scan was incomplete or found bad files: 1 scan errors, 0 malformed names, scan cap reached: false)",
    });
  });

  it("ok when every store check is ok, each summary said; fail when one fails", () => {
    const ok = report();
    ok.checks["state.rollout_db_parity"]!.status = "ok";
    delete ok.checks["state.rollout_db_parity"]!.issues;
    expect(doctorVerdict(JSON.stringify(ok))).toEqual({
      status: "ok",
      message:
        "codex doctor 0.169.0: ok — state paths and databases are inspectable; rollout files and state DB thread inventory differ",
    });
    const failed = report();
    failed.checks["state.paths"]!.status = "fail";
    expect(doctorVerdict(JSON.stringify(failed)).status).toBe("fail");
    expect(doctorVerdict(JSON.stringify(failed)).message).toBe(
      "codex doctor 0.169.0: fail — state paths and databases are inspectable",
    );
  });

  it("a warning line before the document is passed over; no document or no store check is 'unavailable'", () => {
    expect(doctorVerdict(`WARNING: proceeding\n${recorded}`).status).toBe("warning");
    expect(doctorVerdict("Usage: codex [OPTIONS]")).toEqual({
      status: "unavailable",
      message: "codex doctor gave no report it could be judged by",
    });
    const none = report();
    delete none.checks["state.paths"];
    delete none.checks["state.rollout_db_parity"];
    expect(doctorVerdict(JSON.stringify(none))).toEqual({
      status: "unavailable",
      message: "codex doctor 0.169.0 has no check of the store's state",
    });
  });
});

describe("codexDoctor: the real binary", () => {
  const CODEX = agentBin("codex");
  const home = () => {
    const root = join(realpathSync(mkdtempSync(join(tmpdir(), "sr-codex-doctor-"))), ".codex");
    mkdirSync(join(root, "sessions"), { recursive: true });
    return root;
  };

  it("the installed Codex reports on the store; its probes go to a closed port here, never out", () => {
    const root = home();
    const verdict = codexDoctor(CODEX, root, process.env);
    const version = spawnSync(CODEX, ["--version"], { encoding: "utf8" }).stdout.trim().split(" ").at(-1);
    expect(verdict.status).toBe("ok");
    expect(verdict.message).toMatch(new RegExp(`^codex doctor ${version!.replace(/\./g, "\\.")}: ok — `));
    // Traced: it connects only to the closed port here and sends nothing (no DNS query) elsewhere.
    const { args, env } = doctorCommand(root, process.env);
    const trace = join(root, "..", "strace.txt");
    spawnSync("strace", ["-f", "-e", "trace=connect,sendto", "-o", trace, CODEX, ...args], {
      env,
      cwd: root,
    });
    const inet = readFileSync(trace, "utf8")
      .split("\n")
      .filter((l) => l.includes("AF_INET"));
    expect(inet.length).toBeGreaterThan(0);
    expect(inet.filter((l) => !l.includes('htons(9), sin_addr=inet_addr("127.0.0.1")'))).toEqual([]);
  });

  it("a binary that gives no report is 'unavailable', said with what it said", () => {
    expect(codexDoctor("/bin/false", home(), process.env)).toEqual({
      status: "unavailable",
      message: "codex doctor gave no report (exit 1)",
    });
    expect(codexDoctor("/nonexistent/codex", home(), process.env).message).toMatch(
      /^codex doctor could not run \(spawnSync \/nonexistent\/codex ENOENT\)$/,
    );
  });
});

describe("doctorVerdict after a restore: the restored rollouts' missing rows are expected, nothing else", () => {
  const sessions = "/home/dev/.codex/sessions/2026/11/28";
  const a = `${sessions}/rollout-2026-11-28T02-46-09-01a2200b-b9c7-7740-9b36-a7eb7653d8d9.jsonl`;
  const b = `${sessions}/rollout-2026-11-28T02-46-09-01a2200b-bc23-74a0-8933-bc0049f49026.jsonl`;
  const other = `${sessions}/rollout-2026-11-28T02-46-10-01a2200b-bf3f-7542-a4fe-6fda8f701611.jsonl`;
  /** The recorded report with its parity check as Codex 0.171 gave it after two threads came back. */
  const afterRestore = (sample: string | string[] = [a, b], missing = 2) => {
    const r = report();
    r.checks["state.rollout_db_parity"] = {
      id: "state.rollout_db_parity",
      category: "threads",
      status: "warning",
      summary: "rollout files and state DB thread inventory differ",
      details: {
        "rollout DB active files": "3",
        "rollout DB active rows": String(3 - missing),
        "rollout DB missing active rows": String(missing),
        "rollout DB missing active sample": sample,
        "rollout DB missing archived rows": "0",
        "rollout DB stale rows": "0",
      },
      issues: [
        {
          severity: "warning",
          cause: "rollout files are missing from the state DB",
          measured: `${missing} active, 0 archived`,
          expected: "every rollout file has a matching threads row",
        },
      ],
    };
    return r;
  };
  const loud = {
    status: "warning",
    message:
      "codex doctor 0.169.0: warning — rollout files and state DB thread inventory differ (rollout files are missing from the state DB: 2 active, 0 archived)",
  };

  it("their rows missing, and only theirs: ok, said as what it is", () => {
    expect(doctorVerdict(JSON.stringify(afterRestore()), [a, b])).toEqual({
      status: "ok",
      message:
        "codex doctor 0.169.0: as expected after a restore — 2 restored threads are not in Codex's state database yet (doctor warns: rollout files are missing from the state DB); Codex lists them again at its next start, when it reads its rollouts",
    });
    expect(doctorVerdict(JSON.stringify(afterRestore(a, 1)), [a]).message).toMatch(
      /— 1 restored thread is not in Codex's state database yet .*; Codex lists it again at its next start/,
    );
  });

  it("anything more is loud: a row missing that was not restored, more rows than came back, another finding, no restore", () => {
    expect(doctorVerdict(JSON.stringify(afterRestore([a, other])), [a, b])).toEqual(loud);
    expect(doctorVerdict(JSON.stringify(afterRestore([a, b])), [a])).toEqual(loud);
    const more = afterRestore();
    (more.checks["state.rollout_db_parity"]!.issues as unknown[]).push({
      severity: "warning",
      cause: "rollout scan was incomplete or found bad files",
      measured: "1 scan errors, 0 malformed names, scan cap reached: false",
    });
    expect(doctorVerdict(JSON.stringify(more), [a, b]).status).toBe("warning");
    const paths = afterRestore();
    paths.checks["state.paths"]!.status = "warning";
    expect(doctorVerdict(JSON.stringify(paths), [a, b]).status).toBe("warning");
    const failed = afterRestore();
    failed.checks["state.paths"]!.status = "fail";
    expect(doctorVerdict(JSON.stringify(failed), [a, b]).status).toBe("fail");
    // After a delete nothing came back: the same warning is a warning.
    expect(doctorVerdict(JSON.stringify(afterRestore()))).toEqual(loud);
    // A report shaped otherwise (no count of the missing rows) is never taken as the expected one.
    const shapeless = afterRestore();
    delete (shapeless.checks["state.rollout_db_parity"]!.details as Record<string, unknown>)[
      "rollout DB missing active rows"
    ];
    expect(doctorVerdict(JSON.stringify(shapeless), [a, b]).status).toBe("warning");
  });
});

describe.sequential("after a restore, the real Codex", () => {
  let model: MockModel;
  let codex: CodexDriver;
  let root: string;
  /** Threads the real Codex wrote (`codex exec`), in one project. */
  const threads: string[] = [];

  beforeAll(async () => {
    const sandbox = agentSandbox();
    model = await startMockModel();
    const project = sandbox.project("alpha");
    codex = codexDriver(sandbox, model.url, [project]);
    root = sandbox.env.CODEX_HOME!;
    for (const prompt of ["alpha: one", "alpha: two", "alpha: three"]) {
      const run = await codex.exec(project, prompt);
      if (run.status !== 0 || !run.thread) throw new Error(`codex exec: ${run.stdout}\n${run.stderr}`);
      threads.push(run.thread);
    }
  }, 180_000);
  afterAll(async () => {
    await model?.close();
  });

  /** `clean --ids` of `thread`, then, after `meanwhile`, `trash restore` of that clean: what it printed. */
  async function cleanAndRestore(thread: string, meanwhile = () => {}) {
    const cleaned = await ourCli("clean", "--yes", "--ids", thread);
    expect(cleaned.status, cleaned.stderr).toBe(0);
    const operation = /operation (\S+);/.exec(cleaned.stdout)![1]!;
    meanwhile();
    const back = await ourCli("trash", "restore", operation);
    expect(back.status, back.stderr).toBe(0);
    return back.stdout;
  }

  it("doctor's warning of the restored thread's missing row is said calmly; Codex lists it at its next start, and doctor is then ok", async () => {
    const said = await cleanAndRestore(threads[0]!);
    expect(said).toMatch(
      /^note: codex doctor \d+\.\d+\.\d+: as expected after a restore — 1 restored thread is not in Codex's state database yet \(doctor warns: rollout files are missing from the state DB\); Codex lists it again at its next start, when it reads its rollouts \(.+\)$/m,
    );
    expect(said).not.toMatch(/WARNING|FAILED/);
    // What the note says, measured: Codex's next start lists the thread, and its rows are whole again.
    expect((await codex.threads()).map((t) => t.id)).toContain(threads[0]);
    expect(codexDoctor(agentBin("codex"), root, process.env).status).toBe("ok");
  }, 120_000);

  it("a row missing that the restore did not put back is loud", async () => {
    // Codex's rows whole first, whatever came before: its start reads every rollout.
    await codex.threads();
    const said = await cleanAndRestore(threads[1]!, () => {
      // Codex's database loses another thread's row meanwhile: not what a restore leaves.
      const database = readdirSync(root).find((name) => /^state_\d+\.sqlite$/.test(name))!;
      const run = spawnSync(
        "sqlite3",
        [join(root, database), `delete from threads where id = '${threads[2]}'`],
        {
          encoding: "utf8",
        },
      );
      expect(run.status, run.stderr).toBe(0);
    });
    expect(said).toMatch(
      /^note: WARNING: codex doctor \d+\.\d+\.\d+: warning — rollout files and state DB thread inventory differ \(rollout files are missing from the state DB: 2 active, 0 archived\) .*— the change itself stands; look at the store with the agent's own tools$/m,
    );
  }, 120_000);
});
