// The real Claude Code (2.1.332, pinned in test-agents/package.json) against our scan, plan, clean
// and trash restore. Claude writes its sessions through its own CLI — interactive in tmux, print
// mode, a Write tool call then `--continue`, a subagent (its Agent tool), a `--fork-session` of
// that, a named one, and one left running — against the mock model on 127.0.0.1, in a sandboxed
// home; then what Claude itself lists (its `--resume` picker, every project) is the measure.
import { randomUUID } from "node:crypto";
import { existsSync, lstatSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SessionRecord } from "../shared/session-record.js";
import { sessionTitle } from "../shared/session-title.js";
import type { AgentInTmux } from "../test-support/agent-tmux.js";
import {
  bytesOnDisk,
  expectCleanAndRestore,
  filesOf,
  expectProjectRoundTrip,
  expectRunningKept,
  leftOutOfBundles,
  ourSessions,
} from "../test-support/agents/checks.js";
import { claudeDriver, type ClaudeDriver } from "../test-support/agents/claude.js";
import { agentSandbox, type Run, type Sandbox } from "../test-support/agents/sandbox.js";
import { defaultResponder, type MockModel, startMockModel } from "../test-support/mock-model/index.js";

let sandbox: Sandbox;
let model: MockModel;
let claude: ClaudeDriver;
let running: AgentInTmux;
/** Each session made, by its token: Claude's uuid. */
const made: Record<string, string> = {};
const projects = { alpha: "", beta: "", gamma: "" };
/** The session made only in print mode, which Claude's picker does not show (by design). */
const printOnly = ["a3"];

/** Fails unless a print run exited 0 with `reply` in its output. */
async function printed(run: Promise<Run>, reply: string | RegExp) {
  const done = await run;
  const ok = typeof reply === "string" ? done.stdout.includes(reply) : reply.test(done.stdout);
  if (done.status !== 0 || !ok)
    throw new Error(
      `claude -p exited ${done.status} without ${String(reply)}:\n${done.stdout}\n${done.stderr}`,
    );
}

/** A new session's uuid, registered under its token. */
function session(token: string): string {
  const id = randomUUID();
  made[token] = id;
  claude.register(token, id);
  return id;
}

/**
 * Claude interactive in `cwd` with `args`: each prompt typed and its answer awaited (the model's
 * last words on screen), then Claude stopped — or left running.
 */
async function converse(
  cwd: string,
  args: string[],
  prompts: string[],
  options: { leaveRunning?: boolean } = {},
) {
  const tui = await claude.interactive(cwd, ...args);
  try {
    for (const prompt of prompts) {
      const before = model.requests.length;
      await tui.type(prompt);
      // The answer to a tool call is "done: …"; to anything else "reply N: <the prompt>".
      const words = prompt.replace(/^\[\w+\] /, "");
      await tui.waitForScreen(words.startsWith("tool: ") ? /done: / : `: ${words}`, 60_000);
      await model.answered(before + 1);
    }
  } catch (error) {
    await tui.stop();
    throw error;
  }
  if (options.leaveRunning) return tui;
  await tui.stop();
  return tui;
}

const byToken = async (token: string): Promise<SessionRecord> => {
  const found = (await ourSessions("claude")).find((s) => s.id === `claude:${made[token]}`);
  if (!found) throw new Error(`we do not list Claude's session [${token}] ${made[token]}`);
  return found;
};

beforeAll(async () => {
  sandbox = agentSandbox();
  // The token that starts each prompt is for the picker, not the model: the script reads past it.
  model = await startMockModel({
    responder: (turn, index) =>
      defaultResponder({ ...turn, userText: turn.userText.replace(/^\[\w+\] /, "") }, index),
  });
  for (const name of Object.keys(projects) as Array<keyof typeof projects>)
    projects[name] = sandbox.project(name);
  const { alpha, beta, gamma } = projects;
  claude = claudeDriver(sandbox, model.url, Object.values(projects));

  // alpha: interactive; a Write tool call (over a file, so Claude keeps a backup of it), then
  // --continue of that (the latest session of the folder), both interactive; a print-mode question.
  await converse(alpha, ["--session-id", session("a1")], ["[a1] alpha: look around"]);
  const notes = join(alpha, "notes.txt");
  writeFileSync(notes, "before claude\n");
  const write = { file_path: notes, content: "from claude\n" };
  await converse(alpha, ["--session-id", session("a2")], [`[a2] tool: Write ${JSON.stringify(write)}`]);
  expect(readFileSync(notes, "utf8")).toBe("from claude\n");
  await converse(alpha, ["--continue"], ["[a2] alpha: continue the notes"]);
  await printed(
    claude.print(alpha, "[a3] alpha: a quick question", "--session-id", session("a3")),
    "alpha: a quick question",
  );

  // beta: a subagent (the Agent tool, waited for), a fork of that session, a named session.
  const agent = {
    description: "look",
    prompt: "beta: the subagent looks",
    subagent_type: "general-purpose",
    run_in_background: false,
  };
  await converse(
    beta,
    ["--session-id", session("b1")],
    [`[b1] tool: Agent ${JSON.stringify(agent)}`, "[b1] beta: thanks"],
  );
  // The fork copies its parent's prompts, [b1]'s: a name of its own tells its row in the picker.
  const fork = [
    "--resume",
    made.b1!,
    "--fork-session",
    "-n",
    "[b2] beta fork",
    "--session-id",
    session("b2"),
  ];
  await converse(beta, fork, ["[b2] beta: the fork goes on"]);
  await converse(beta, ["-n", "[b3] beta named", "--session-id", session("b3")], ["[b3] beta: named"]);

  // gamma: left running.
  running = await converse(gamma, ["--session-id", session("g1")], ["[g1] gamma: still working"], {
    leaveRunning: true,
  });
});

afterAll(async () => {
  await running?.stop();
  await model?.close();
});

describe.sequential("Claude Code 2.1.332, the real CLI", () => {
  it("we list exactly the sessions Claude's picker lists, and the print-mode ones it hides", async () => {
    const ours = (await ourSessions("claude")).map((s) => s.id);
    expect(ours).toEqual(
      Object.values(made)
        .map((id) => `claude:${id}`)
        .sort(),
    );
    const hidden = new Set(printOnly.map((token) => `claude:${made[token]}`));
    expect(await claude.list()).toEqual(ours.filter((id) => !hidden.has(id)));
  });

  it("each session is titled as Claude's picker titles it", async () => {
    const ours = await ourSessions("claude");
    const rows = (await claude.picker()).map((row) => ({
      token: /^\[(\w+)\]/.exec(row)?.[1] ?? "",
      title: row,
    }));
    // Our title, as the CLI and the dashboard show it.
    const titleOf = (token: string) => {
      const s = ours.find((o) => o.id === `claude:${made[token]}`);
      return s && sessionTitle(s).title;
    };
    expect(rows.map((row) => ({ token: row.token, title: titleOf(row.token) }))).toEqual(rows);
  });

  it("the fork names the session it was forked from", async () => {
    expect((await byToken("b2")).parentSession).toBe((await byToken("b1")).path);
  });

  it("each session's size is the bytes on disk of its files", async () => {
    const ours = await ourSessions("claude");
    expect(ours.map((s) => [s.id, s.sizeBytes])).toEqual(ours.map((s) => [s.id, bytesOnDisk(s)]));
    // The subagent's transcript is part of its session, and so is its task output in Claude's temp
    // folder (`$TMPDIR/claude-<uid>/<project>/<id>/tasks/<agent>.output`, a link to that transcript,
    // moved with it and not counted); and the Write's backup of the file it wrote over.
    const b1 = filesOf(await byToken("b1"));
    expect(b1.some((p) => p.includes("/subagents/agent-"))).toBe(true);
    const output = b1.filter(
      (p) => p.startsWith(join(sandbox.home, "tmp", "claude-")) && p.endsWith(".output"),
    );
    expect(output.map((p) => lstatSync(p).isSymbolicLink())).toEqual([true]);
    expect(filesOf(await byToken("a2")).some((p) => p.includes("/file-history/"))).toBe(true);
  });

  it("no file named after a session is left out of its bundle", async () => {
    const ours = await ourSessions("claude");
    expect(leftOutOfBundles([sandbox.home], ours, claude.namesOf, [join(sandbox.home, "code")])).toEqual([]);
  });

  it("the running session is kept: clean --ids of it moves nothing", async () => {
    await expectRunningKept(await byToken("g1"));
  });

  it("clean of one session: Claude stops listing it and cannot resume it; trash restore: Claude lists it and resumes it", async () => {
    const a1 = await byToken("a1");
    await expectCleanAndRestore(claude, a1, {
      prompt: "[a1] alpha: after the restore",
      notFound: new RegExp(`No conversation found with session ID: ${made.a1}`),
      reply: /reply \d+: alpha: after the restore/,
    });
    expect(existsSync(a1.path)).toBe(true);
  });

  it("a whole project cleaned and restored gives back exactly Claude's earlier list", async () => {
    await expectProjectRoundTrip(claude, projects.beta);
  });
});
