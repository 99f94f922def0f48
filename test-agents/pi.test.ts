// The real pi (0.73.1, pinned in test-agents/package.json) against our scan, plan, clean and trash
// restore. pi writes its sessions through its own CLI — print mode, continued, forked, with a
// file-writing tool call, interactive in tmux, and one left running without our extension — against
// the mock model on 127.0.0.1, in a sandboxed home; then what pi itself lists
// (`SessionManager.listAll()`) is the measure of what we list, clean and restore. pi has no subagents.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SessionRecord } from "../shared/session-record.js";
import type { AgentInTmux } from "../test-support/agent-tmux.js";
import { until } from "../test-support/agent-tmux.js";
import {
  bytesOnDisk,
  expectCleanAndRestore,
  expectProjectRoundTrip,
  expectRunningKept,
  leftOutOfBundles,
  ourSessions,
} from "../test-support/agents/checks.js";
import { piDriver, type PiDriver } from "../test-support/agents/pi.js";
import { agentSandbox, type Run, type Sandbox } from "../test-support/agents/sandbox.js";
import { type MockModel, startMockModel } from "../test-support/mock-model/index.js";

let sandbox: Sandbox;
let model: MockModel;
let pi: PiDriver;
let running: AgentInTmux;
const made: Record<string, string> = {};
const projects = { alpha: "", beta: "", gamma: "" };

/** Runs `make`, then waits for pi to list one session it did not before, and gives its id. */
async function newSession(make: () => Promise<unknown>): Promise<string> {
  const before = new Set(await pi.list());
  await make();
  return until(
    async () => {
      const added = (await pi.list()).filter((id) => !before.has(id));
      return added.length === 1 ? added[0] : undefined;
    },
    () => "pi never listed exactly one new session",
  );
}

/** Fails unless a print run exited 0 with `reply` in its output. */
async function printed(run: Promise<Run>, reply: string) {
  const done = await run;
  if (done.status !== 0 || !done.stdout.includes(reply))
    throw new Error(`pi -p exited ${done.status} without "${reply}":\n${done.stdout}\n${done.stderr}`);
}

const byId = async (id: string): Promise<SessionRecord> => {
  const found = (await ourSessions("pi")).find((s) => s.id === id);
  if (!found) throw new Error(`we do not list pi session ${id}`);
  return found;
};

beforeAll(async () => {
  sandbox = agentSandbox();
  model = await startMockModel();
  pi = piDriver(sandbox, model.url);
  for (const name of Object.keys(projects) as Array<keyof typeof projects>)
    projects[name] = sandbox.project(name);
  const { alpha, beta, gamma } = projects;

  made.print = await newSession(() =>
    printed(pi.print(alpha, "alpha: write the notes"), "alpha: write the notes"),
  );
  // Continued: the same session, a second exchange.
  await printed(
    pi.print(alpha, "alpha: continue the notes", "--session", made.print),
    "alpha: continue the notes",
  );
  made.tool = await newSession(() =>
    printed(pi.print(alpha, 'tool: write {"path":"notes.txt","content":"from pi\\n"}'), "done:"),
  );
  expect(readFileSync(join(alpha, "notes.txt"), "utf8")).toBe("from pi\n");

  made.interactive = await newSession(async () => {
    const tui = await pi.interactive(beta);
    try {
      await tui.type("beta: look around");
      await tui.waitForScreen(/reply \d+: beta: look around/);
    } finally {
      await tui.stop();
    }
  });
  made.fork = await newSession(() =>
    printed(pi.print(beta, "beta: the fork goes on", "--fork", made.interactive!), "beta: the fork goes on"),
  );

  // Left running, without our extension: what protects it is /proc (pi-live.ts).
  made.running = await newSession(async () => {
    running = await pi.interactive(gamma);
    await running.type("gamma: still working");
    await running.waitForScreen(/reply \d+: gamma: still working/);
  });
});

afterAll(async () => {
  await running?.stop();
  await model?.close();
});

describe.sequential("pi 0.73.1, the real CLI", () => {
  it("we list exactly the sessions pi lists (it hides none)", async () => {
    const ours = await ourSessions("pi");
    expect(ours.map((s) => s.id).sort()).toEqual(await pi.list());
    expect(ours).toHaveLength(5);
    expect((await byId(made.fork!)).parentSession).toBe((await byId(made.interactive!)).path);
  });

  it("each session's size is the bytes on disk of its files", async () => {
    const ours = await ourSessions("pi");
    expect(ours.map((s) => [s.id, s.sizeBytes])).toEqual(ours.map((s) => [s.id, bytesOnDisk(s)]));
  });

  it("no file named after a session is left out of its bundle", async () => {
    const ours = await ourSessions("pi");
    expect(leftOutOfBundles([sandbox.home], ours, pi.namesOf, [join(sandbox.home, "code")])).toEqual([]);
  });

  it("the running pi (without our extension) is kept: clean --ids of it moves nothing", async () => {
    await expectRunningKept(await byId(made.running!));
  });

  it("clean of one session: pi stops listing it and cannot resume it; trash restore: pi lists it and resumes it", async () => {
    await expectCleanAndRestore(pi, await byId(made.tool!), {
      prompt: "alpha: after the restore",
      notFound: new RegExp(`No session found matching '${made.tool}'`),
      reply: /reply \d+: alpha: after the restore/,
    });
  });

  it("a whole project cleaned and restored gives back exactly pi's earlier list", async () => {
    await expectProjectRoundTrip(pi, projects.beta);
  });
});
