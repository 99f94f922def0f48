// A real pi left running, without our extension: pi's CLI interactive in a tmux terminal, in the
// test's sandboxed HOME, talking to a mock model on 127.0.0.1 (test-support/mock-model). pi opens,
// appends and closes its session file, so no open file shows it and no marker names it; what
// protects its session then is /proc (pi-processes.ts, pi-live.ts). The CLI runs as a user would run
// it beside pi: plan, clean by id, scan, status.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { writeConfigFile } from "../../../test-support/config-file.js";
import { type MockModel, startMockModel } from "../../../test-support/mock-model/index.js";
import { piFolder, setModified, writeSession } from "../../../test-support/pi-store.js";
import {
  MOCK_MODEL,
  type PiInTmux,
  startPiInTmux,
  until,
  useMockModel,
} from "../../../test-support/pi-tmux.js";
import { snapshotTree, treeChanges } from "../../../test-support/tree-snapshot.js";
import type { Plan } from "../../../shared/plan.js";
import type { CliIo } from "../../cli/io.js";
import { runCli } from "../../cli/main.js";

const hasTmux = (() => {
  try {
    execFileSync("tmux", ["-V"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();

async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { stdout: (t) => out.push(t), stderr: (t) => err.push(t) };
  const status = await runCli(argv, io);
  return { status, stdout: out.join("\n"), stderr: err.join("\n") };
}

const started: Array<PiInTmux | MockModel> = [];
afterEach(async () => {
  for (const thing of started.splice(0).reverse()) await ("stop" in thing ? thing.stop() : thing.close());
});

/** The session files of a project's folder in pi's default store. */
const sessionFiles = (sessions: string, project: string) => {
  const folder = join(sessions, piFolder(project));
  return existsSync(folder) ? readdirSync(folder).map((name) => join(folder, name)) : [];
};
const linesOf = (file: string) =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map(
      (line) =>
        JSON.parse(line) as { type: string; cwd?: string; message?: { role: string; content: unknown } },
    );
/** The assistant's texts in a session file, in order. */
const replies = (file: string) =>
  linesOf(file).flatMap((entry) =>
    entry.type === "message" && entry.message?.role === "assistant"
      ? (entry.message.content as Array<{ type: string; text?: string }>).flatMap((c) => c.text ?? [])
      : [],
  );

describe.runIf(existsSync("/proc/self/stat") && hasTmux)("a pi running without our extension", () => {
  it("keeps its session out of every plan and every clean, even by id; its next prompt lands in the same whole file; scan, plan and status say why", async () => {
    const agentDir = process.env.PI_CODING_AGENT_DIR!;
    const sessions = join(agentDir, "sessions");
    const project = realpathSync(mkdtempSync(join(tmpdir(), "sr-project-")));
    // An older session of the same project and one of another: candidates, so the plan is not empty.
    const older = writeSession(sessions, project, 2).getSessionFile()!;
    const elsewhere = writeSession(sessions, "/work/elsewhere", 2).getSessionFile()!;
    for (const file of [older, elsewhere]) setModified(file, new Date(Date.now() - 40 * 86_400_000));
    // Everything is a candidate but what is exempt: no count-based keeps, no grace window, a count quota of 1.
    writeConfigFile({
      retention: { minKeepRecentCount: 0, keepLastPerNamespace: 0, allowEmptyStore: true },
      quota: { maxSessionCount: 1 },
      activity: { graceMinutes: 0 },
      deletion: { target: "quarantine" },
    });

    const model = await startMockModel();
    started.push(model);
    const pi = await startPiInTmux({
      cwd: project,
      args: useMockModel(agentDir, model.url),
      env: { ...process.env },
      readyText: MOCK_MODEL,
    });
    started.push(pi);
    await pi.type("first question");
    await model.answered(1);
    const live = await until(
      () =>
        sessionFiles(sessions, project).find(
          (file) => file !== older && readFileSync(file, "utf8").includes("reply 1: first question"),
        ),
      () =>
        `pi never wrote its reply into a session of ${project}: ${sessionFiles(sessions, project).join(", ")}`,
    );
    await pi.waitForScreen("reply 1: first question");

    // plan: pi's session is kept as in use, by pi's pid; the others are candidates.
    const planned = await cli("plan", "--json");
    expect(planned.status).toBe(0);
    const plan = JSON.parse(planned.stdout) as Plan;
    expect(plan.candidates.map((c) => c.path).sort()).toEqual([older, elsewhere].sort());
    const kept = plan.kept.find((k) => k.path === live);
    expect(kept).toMatchObject({
      reason: "active",
      detail: `written since pi process ${pi.pid} started in ${project} (pi runs without session-retention's extension)`,
    });
    const notice = `pi process ${pi.pid} runs in ${project} without session-retention's extension`;
    expect(planned.stderr).toContain(notice);
    expect(planned.stderr).toContain("pi install npm:session-retention");

    // clean by its id: nothing moves, nothing anywhere in the sandbox changes.
    const id = plan.kept.find((k) => k.path === live)!.id;
    // The whole sandbox, nothing excluded: pi writes nothing while it waits at its prompt, and a
    // clean that moves nothing leaves no file of ours changed either.
    const sandbox = process.env.HOME!;
    const before = snapshotTree([sandbox]);
    const cleaned = await cli("clean", "--ids", id, "--yes");
    expect(treeChanges(before, snapshotTree([sandbox]))).toEqual([]);
    expect(cleaned.stdout).toBe("Nothing to clean: no session is a candidate.");
    expect(cleaned.status).toBe(1);
    expect(cleaned.stderr).toContain(`kept: ${live} — active: ${kept!.detail}`);
    expect(existsSync(join(agentDir, "session-trash"))).toBe(false);

    // pi goes on in the same file: the header intact, both exchanges, no second file.
    await pi.type("second question");
    await model.answered(2);
    await until(
      () => replies(live).includes("reply 2: second question"),
      () => `the second reply never reached ${live}: ${replies(live).join(" | ")}`,
    );
    await pi.waitForScreen("reply 2: second question");
    const entries = linesOf(live);
    expect(entries[0]).toMatchObject({ type: "session", cwd: project });
    expect(replies(live)).toEqual(["reply 1: first question", "reply 2: second question"]);
    expect(sessionFiles(sessions, project).sort()).toEqual([live, older].sort());

    // scan and status say it too.
    const scanned = await cli("scan");
    expect(scanned.status).toBe(0);
    expect(scanned.stderr).toContain(notice);
    const scannedJson = await cli("scan", "--json");
    expect(JSON.parse(scannedJson.stdout.replaceAll("\n", "")).piWithoutExtension).toEqual([
      { pid: pi.pid, cwd: project, startedAt: expect.any(String) },
    ]);
    const status = await cli("status");
    expect(status.stderr).toContain(notice);
    const statusJson = await cli("status", "--json");
    expect(JSON.parse(statusJson.stdout).piWithoutExtension).toEqual([
      { pid: pi.pid, cwd: project, startedAt: expect.any(String) },
    ]);
    expect(model.refused).toEqual([]);
  });
});
