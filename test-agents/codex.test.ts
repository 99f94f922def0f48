// The real Codex (0.171.0, pinned in test-agents/package.json) against our scan, plan, clean and
// trash restore. Codex writes its threads through its own CLI — `codex exec` (print mode), `exec
// resume`, `exec fork`, an `exec_command` tool call that writes a file, a subagent spawned with
// its `spawn_agent` tool, the TUI in tmux, and a TUI left running — against the mock model on
// 127.0.0.1, in a sandboxed home; then what Codex itself lists (`codex app-server` `thread/list`,
// every source kind) is the measure.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SessionRecord } from "../shared/session-record.js";
import type { AgentInTmux } from "../test-support/agent-tmux.js";
import {
  bytesOnDisk,
  expectCleanAndRestore,
  expectProjectRoundTrip,
  expectRunningKept,
  filesOf,
  leftOutOfBundles,
  ourSessions,
} from "../test-support/agents/checks.js";
import { codexDriver, type CodexDriver } from "../test-support/agents/codex.js";
import { agentSandbox, type Run, type Sandbox } from "../test-support/agents/sandbox.js";
import {
  defaultResponder,
  type MockModel,
  type Responder,
  startMockModel,
} from "../test-support/mock-model/index.js";

let sandbox: Sandbox;
let model: MockModel;
let codex: CodexDriver;
let running: AgentInTmux | undefined;
/** Each thread made, by what it is. */
const made: Record<string, string> = {};
const projects = { alpha: "", beta: "", gamma: "" };

/**
 * The default script, and for `spawn: <task>` a subagent: Codex's `spawn_agent` tool (of its
 * `multi_agent_v1` namespace), then `wait_agent` on the agent it names, then the answer.
 */
const responder: Responder = (turn, index) => {
  const spawn = /^spawn: (.*)$/s.exec(turn.userText);
  if (spawn && !turn.afterToolResult)
    return { toolCall: { name: "multi_agent_v1/spawn_agent", arguments: { message: spawn[1] } } };
  const spawned = spawn && /^\{"agent_id":"([^"]+)"/.exec(turn.toolResult ?? "");
  if (spawned)
    return {
      toolCall: {
        name: "multi_agent_v1/wait_agent",
        arguments: { targets: [spawned[1]], timeout_ms: 30_000 },
      },
    };
  return defaultResponder(turn, index);
};

/** Fails unless an exec run exited 0 with `reply` in its output; gives the thread's id. */
async function executed(run: Promise<Run & { thread: string }>, reply: string): Promise<string> {
  const done = await run;
  if (done.status !== 0 || !done.stdout.includes(reply) || !done.thread)
    throw new Error(`codex exec exited ${done.status} without "${reply}":\n${done.stdout}\n${done.stderr}`);
  return done.thread;
}

/** The TUI in `cwd`: `prompt` typed and answered; the id of the thread it made. */
async function tui(cwd: string, prompt: string, options: { leaveRunning?: boolean } = {}) {
  const before = new Set((await codex.threads()).map((t) => t.id));
  const screen = await codex.interactive(cwd);
  try {
    await screen.type(prompt);
    await screen.waitForScreen(`: ${prompt}`, 60_000);
  } catch (error) {
    await screen.stop();
    throw error;
  }
  if (options.leaveRunning) running = screen;
  else await screen.stop();
  const added = (await codex.threads()).filter((t) => !before.has(t.id));
  if (added.length !== 1) throw new Error(`the TUI made ${added.length} threads`);
  return added[0]!.id;
}

const byName = async (name: string): Promise<SessionRecord> => {
  const found = (await ourSessions("codex")).find((s) => s.id === `codex:${made[name]}`);
  if (!found) throw new Error(`we do not list Codex's thread ${name} ${made[name]}`);
  return found;
};

beforeAll(async () => {
  sandbox = agentSandbox();
  model = await startMockModel({ responder });
  for (const name of Object.keys(projects) as Array<keyof typeof projects>)
    projects[name] = sandbox.project(name);
  const { alpha, beta, gamma } = projects;
  codex = codexDriver(sandbox, model.url, Object.values(projects));

  // alpha: exec; resumed; a tool call that writes a file; a fork.
  made.exec = await executed(codex.exec(alpha, "alpha: write the notes"), "alpha: write the notes");
  await executed(
    codex.exec(alpha, "alpha: continue the notes", ["resume", made.exec]),
    "alpha: continue the notes",
  );
  made.tool = await executed(
    codex.exec(alpha, 'tool: exec_command {"cmd":"printf \'from codex\\\\n\' > notes.txt && echo written"}'),
    "done:",
  );
  expect(readFileSync(join(alpha, "notes.txt"), "utf8")).toBe("from codex\n");
  made.fork = await executed(
    codex.exec(alpha, "alpha: the fork goes on", ["fork", made.exec]),
    "alpha: the fork goes on",
  );

  // beta: the TUI; a subagent.
  made.tui = await tui(beta, "beta: look around");
  made.spawner = await executed(
    codex.exec(beta, "spawn: beta: the subagent looks"),
    ": beta: the subagent looks",
  );

  // gamma: the TUI left running.
  made.running = await tui(gamma, "gamma: still working", { leaveRunning: true });
});

afterAll(async () => {
  await running?.stop();
  await codex?.stopDaemon();
  await model?.close();
});

describe.sequential("Codex 0.171.0, the real CLI", () => {
  it("we list exactly the threads Codex lists, a subagent's thread inside its parent's session", async () => {
    const ours = await ourSessions("codex");
    expect(ours.map((s) => s.id)).toEqual(await codex.list());
    expect(ours).toHaveLength(6);
    // The subagent Codex lists as a thread of its own is a part of the session that spawned it.
    const subagents = (await codex.threads()).filter((t) => t.parentThreadId === made.spawner);
    expect(subagents).toHaveLength(1);
    const spawner = await byName("spawner");
    expect(filesOf(spawner).some((f) => f.includes(subagents[0]!.id))).toBe(true);
  });

  it("the fork names the session it was forked from", async () => {
    expect((await byName("fork")).parentSession).toBe((await byName("exec")).path);
  });

  it("each session's size is the bytes on disk of its files", async () => {
    const ours = await ourSessions("codex");
    expect(ours.map((s) => [s.id, s.sizeBytes])).toEqual(ours.map((s) => [s.id, bytesOnDisk(s)]));
  });

  it("no file named after a session is left out of its bundle, but Codex's writer locks, never a session's part", async () => {
    const ours = await ourSessions("codex");
    const left = leftOutOfBundles([sandbox.home], ours, codex.namesOf, [join(sandbox.home, "code")]);
    // `thread-writer-locks/<thread>.lock` is Codex's own, never a part: `codex delete` of any thread
    // removes every lock no process holds, of every thread (this binary, 0.171, in
    // server/stores/codex/codex-thread-files.test.ts), so a lock cannot go and come back with its
    // session — in a delete of several, one session's lock is gone before its turn. The TUI always
    // leaves one for its thread (an exec thread sometimes does too): the exception is one the real
    // Codex makes.
    const locks = join(sandbox.env.CODEX_HOME!, "thread-writer-locks");
    expect(left.filter((l) => dirname(l.path) !== locks || !l.path.endsWith(".lock"))).toEqual([]);
    expect(left.map((l) => l.session)).toContain(`codex:${made.tui}`);
  });

  it("the running TUI's session is kept: clean --ids of it moves nothing", async () => {
    await expectRunningKept(await byName("running"));
  });

  it("clean of one session: Codex stops listing it and cannot resume it; trash restore: Codex lists it and resumes it", async () => {
    await expectCleanAndRestore(codex, await byName("tool"), {
      prompt: "alpha: after the restore",
      notFound: new RegExp(`no rollout found for thread id ${made.tool}`),
      reply: /reply \d+: alpha: after the restore/,
    });
  });

  it("a whole project cleaned and restored gives back exactly Codex's earlier list", async () => {
    await expectProjectRoundTrip(codex, projects.alpha);
  });
});
