// Which pi sessions a pi running without our extension keeps in use, through the plan's inputs as
// every plan, clean and delete gathers them: real processes with pi's title (what /proc shows of
// pi's CLI once it runs) in real folders, stores written by pi's SessionManager. The real pi CLI,
// typing into it, is pi-running.test.ts.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { SessionManager } from "@mariozechner/pi-coding-agent";
import { describePiWithoutExtension } from "../../../shared/unmarked-pi.js";
import { writeConfigFile } from "../../../test-support/config-file.js";
import {
  assistantMessage,
  piFolder,
  setModified,
  userMessage,
  writeSession,
} from "../../../test-support/pi-store.js";
import { until } from "../../../test-support/pi-tmux.js";
import { softDelete } from "../../delete/deletion-engine.js";
import { createApp } from "../../http/app.js";
import { createDashboardService } from "../../http/dashboard-service.js";
import { gatherPlanInputs } from "../../plan/plan-inputs.js";
import { writeActiveMarker } from "../../state/active-sessions.js";
import { statePaths } from "../../state/state-dir.js";
import { piStores } from "../../../test-support/pi-stores.js";

const fresh = (prefix: string) => realpathSync(mkdtempSync(join(tmpdir(), prefix)));
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
});

/** A process in `cwd` with pi's title, as pi's CLI has once it runs; resolves once /proc shows it so. */
async function startPi(cwd: string, env: NodeJS.ProcessEnv = process.env) {
  const child = spawn(process.execPath, ["-e", 'process.title = "pi"; setInterval(() => {}, 1000);'], {
    cwd,
    env,
    stdio: "ignore",
  });
  children.push(child);
  await until(
    () => {
      try {
        return readFileSync(`/proc/${child.pid}/comm`, "utf8").trim() === "pi";
      } catch {
        return false;
      }
    },
    () => "the process never took pi's title",
  );
  return child;
}

const stop = async (child: ChildProcess) => {
  child.kill("SIGKILL");
  await new Promise((resolve) => child.once("exit", resolve));
};

/** pi's default store in the test's agent dir, with a month-old session of another project. */
function store() {
  const root = join(process.env.PI_CODING_AGENT_DIR!, "sessions");
  mkdirSync(root, { recursive: true });
  const elsewhere = writeSession(root, "/work/elsewhere", 1).getSessionFile()!;
  setModified(elsewhere, new Date(Date.now() - 30 * 86_400_000));
  return { root: realpathSync(root), elsewhere };
}

/** A session of `cwd` in `root`, last written `ago` ms before now. */
function sessionOf(root: string, cwd: string, ago = 0) {
  const path = writeSession(root, cwd, 1).getSessionFile()!;
  if (ago > 0) setModified(path, new Date(Date.now() - ago));
  return path;
}

/** Session path → how it is in use, for the plan's inputs of `roots`. */
async function liveOf(roots: string[]) {
  const inputs = await gatherPlanInputs({ flagStores: piStores(...roots), cache: false });
  const live = new Map(
    inputs.report.sessions.flatMap((s) => {
      const how = inputs.activeIds.get(s.id);
      return how === undefined ? [] : [[s.path, how] as const];
    }),
  );
  return { live, inputs };
}

const ROUGHLY = "(pi runs without session-retention's extension)";
const HOUR = 3_600_000;

describe.runIf(existsSync("/proc/self/stat"))("a pi running without the extension", () => {
  it("keeps the sessions of its folder written since it started, and until then the latest one (pi -c resumes it); no other", async () => {
    const { root, elsewhere } = store();
    const project = fresh("sr-project-");
    const older = sessionOf(root, project, 2 * HOUR);
    const latest = sessionOf(root, project, HOUR);
    const pi = await startPi(project);

    const first = await liveOf([root]);
    expect(first.live).toEqual(
      new Map([
        [latest, `the latest session of ${project}, which pi process ${pi.pid} may have resumed ${ROUGHLY}`],
      ]),
    );
    const said = { pid: pi.pid, cwd: project, startedAt: expect.any(String) };
    expect(first.inputs.piWithoutExtension).toEqual([said]);
    expect(first.inputs.notes).toContain(describePiWithoutExtension(first.inputs.piWithoutExtension![0]!));

    // pi writes its first reply into a new session: that one is in use; the ones before are not.
    const written = sessionOf(root, project);
    const second = await liveOf([root]);
    expect(second.live).toEqual(
      new Map([[written, `written since pi process ${pi.pid} started in ${project} ${ROUGHLY}`]]),
    );
    for (const path of [older, latest, elsewhere]) expect(second.live.has(path)).toBe(false);

    await stop(pi);
    const after = await liveOf([root]);
    expect(after.live).toEqual(new Map());
    expect(after.inputs.piWithoutExtension).toEqual([]);
  });

  it("finds its sessions by their header's folder in a flat custom session dir, and by the folder they lie in when headerless", async () => {
    const { root } = store();
    const custom = fresh("sr-custom-sessions-");
    // A mkdtemp name has a "-": the folder name's guess of the namespace is wrong, the folder itself is not.
    const project = fresh("sr-project-");
    const pi = await startPi(project);
    const flat = SessionManager.create(project, custom);
    flat.appendMessage(userMessage("hi"));
    flat.appendMessage(assistantMessage("hello")); // pi writes the file at its first reply
    const inCustom = flat.getSessionFile()!;
    const headerless = join(
      root,
      piFolder(project),
      "2026-11-27T10-00-00-000Z_0194f1c2-0000-7000-8000-000000000001.jsonl",
    );
    mkdirSync(join(root, piFolder(project)), { recursive: true });
    writeFileSync(
      headerless,
      `${JSON.stringify({ type: "message", id: "a1", parentId: null, timestamp: new Date().toISOString(), message: { role: "user", content: "again" } })}\n`,
    );

    const { live, inputs } = await liveOf([root, custom]);
    const how = `written since pi process ${pi.pid} started in ${project} ${ROUGHLY}`;
    expect(live).toEqual(
      new Map([
        [inCustom, how],
        [headerless, how],
      ]),
    );
    expect(inputs.report.sessions.find((s) => s.path === headerless)!.namespace).not.toBe(project);
  });

  it("a marker of its pid makes it exact: only the marked session is in use, and nothing is said; a marker older than the process is a dead pi's", async () => {
    const { root } = store();
    const project = fresh("sr-project-");
    const pi = await startPi(project);
    const marked = sessionOf(root, project, 3 * HOUR);
    const written = sessionOf(root, project);
    const markers = statePaths().activeMarkers;
    writeActiveMarker(markers, { pid: pi.pid!, sessionFile: marked, startedAt: new Date().toISOString() });
    const exact = await liveOf([root]);
    expect(exact.live).toEqual(new Map([[marked, `pi process ${pi.pid} (marker)`]]));
    expect(exact.inputs.piWithoutExtension).toEqual([]);

    // The same pid, but its marker was written an hour before this process started: another pi's.
    writeActiveMarker(markers, {
      pid: pi.pid!,
      sessionFile: marked,
      startedAt: new Date(Date.now() - HOUR).toISOString(),
    });
    const reused = await liveOf([root]);
    expect(reused.live).toEqual(
      new Map([
        [marked, `pi process ${pi.pid} (marker)`],
        [written, `written since pi process ${pi.pid} started in ${project} ${ROUGHLY}`],
      ]),
    );
    expect(reused.inputs.piWithoutExtension).toEqual([expect.objectContaining({ pid: pi.pid })]);
  });

  it("a pi of another home, with no session here, is none of this look's business; one writing here with none yet is said", async () => {
    const { root } = store();
    const elsewhere = await startPi(fresh("sr-project-"), { HOME: fresh("sr-other-home-") });
    const fresher = await startPi(fresh("sr-project-"));
    const { live, inputs } = await liveOf([root]);
    expect(live).toEqual(new Map());
    expect(inputs.piWithoutExtension!.map((p) => p.pid)).toEqual([fresher.pid]);
    expect(inputs.notes.join("\n")).not.toContain(`pi process ${elsewhere.pid} `);
  });

  it("the engine and the API refuse its session even named by id past the grace window, and move it once pi has stopped", async () => {
    const { root } = store();
    writeConfigFile({
      retention: { minKeepRecentCount: 0, keepLastPerNamespace: 0, allowEmptyStore: true },
      activity: { graceMinutes: 0 },
      deletion: { target: "quarantine" },
    });
    const project = fresh("sr-project-");
    const pi = await startPi(project);
    const written = sessionOf(root, project);
    const record = (
      await gatherPlanInputs({ flagStores: piStores(root), cache: false })
    ).report.sessions.find((s) => s.path === written)!;
    const item = { id: record.id, fingerprint: record.fingerprint };
    const reason = `active: written since pi process ${pi.pid} started in ${project} ${ROUGHLY}`;

    const request = { items: [item], stores: piStores(root), via: "selection" as const };
    const refused = await softDelete(request, { actor: "cli" });
    expect(refused.moved).toEqual([]);
    expect(refused.skipped.map((s) => s.reason)).toEqual([reason]);

    const service = createDashboardService({
      stores: piStores(root),
      source: { kind: "pi" },
      config: {},
    });
    const app = createApp({ api: service, port: () => 4997, token: "tok" });
    const headers = {
      Host: "127.0.0.1:4997",
      Authorization: "Bearer tok",
      "Content-Type": "application/json",
    };
    const summary = (await (await app.request("http://127.0.0.1:4997/api/summary", { headers })).json()) as {
      piWithoutExtension?: unknown[];
    };
    expect(summary.piWithoutExtension).toEqual([
      { pid: pi.pid, cwd: project, startedAt: expect.any(String) },
    ]);
    const viaApi = await app.request("http://127.0.0.1:4997/api/delete", {
      method: "POST",
      headers,
      body: JSON.stringify({ items: [item] }),
    });
    expect(viaApi.status).toBe(200);
    expect(
      ((await viaApi.json()) as { skipped: Array<{ reason: string }> }).skipped.map((s) => s.reason),
    ).toEqual([reason]);
    expect(existsSync(written)).toBe(true);

    await stop(pi);
    const moved = await softDelete(request, { actor: "cli" });
    expect(moved.moved.map((m) => m.path)).toEqual([written]);
  });
});
