// The real Gemini CLI (0.61.0, pinned in test-agents/package.json) against our scan, plan, clean and
// trash restore. Gemini writes its chats through its own CLI — print mode, resumed, a `write_file`
// tool call, a subagent (its `invoke_agent` tool), the TUI in tmux, one left running, and a chat
// resumed in a later minute (which leaves Gemini's empty "twin" beside it) — against the mock model
// on 127.0.0.1, in a sandboxed home; then what Gemini itself lists (`gemini --list-sessions` in each
// project) is the measure. Gemini has no forks.
import { readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SessionRecord } from "../shared/session-record.js";
import { type AgentInTmux, until } from "../test-support/agent-tmux.js";
import {
  bytesOnDisk,
  cleanIds,
  expectCleanAndRestore,
  expectProjectRoundTrip,
  expectRunningKept,
  filesOf,
  leftOutOfBundles,
  ourSessions,
  partsOf,
} from "../test-support/agents/checks.js";
import { geminiDriver, type GeminiDriver } from "../test-support/agents/gemini.js";
import { agentSandbox, type Run, type Sandbox } from "../test-support/agents/sandbox.js";
import {
  defaultResponder,
  type MockModel,
  type Responder,
  startMockModel,
} from "../test-support/mock-model/index.js";

let sandbox: Sandbox;
let model: MockModel;
let gemini: GeminiDriver;
let running: AgentInTmux | undefined;
/** Each chat made, by what it is: Gemini's uuid. */
const made: Record<string, string> = {};
const projects = { alpha: "", beta: "", gamma: "", delta: "" };

/**
 * The default script, and for the subagent's task (`subagent: …`) the one call Gemini's subagents
 * end with, `complete_task`.
 */
const responder: Responder = (turn, index) =>
  turn.userText.startsWith("subagent: ") && !turn.afterToolResult && turn.jsonSchema === undefined
    ? { toolCall: { name: "complete_task", arguments: { result: `found: ${turn.userText}` } } }
    : defaultResponder(turn, index);

/** Fails unless a print run exited 0 with `reply` in Gemini's answer; gives the chat's id. */
async function printed(
  run: Promise<Run & { session: string; response: string }>,
  reply: string,
): Promise<string> {
  const done = await run;
  if (done.status !== 0 || !done.response.includes(reply) || !done.session)
    throw new Error(`gemini -p exited ${done.status} without "${reply}":\n${done.stdout}\n${done.stderr}`);
  return done.session;
}

/** The minute a chat's file is named after (Gemini names it by the minute it began). */
const minute = () => new Date().toISOString().slice(0, 16);

/** Waits, if needed, until at least `seconds` of the current minute are left. */
const roomInMinute = (seconds: number) =>
  until(
    () => 60 - new Date().getUTCSeconds() > seconds,
    () => "no room in the minute",
    70_000,
  );

const byName = async (name: string): Promise<SessionRecord> => {
  const found = (await ourSessions("gemini")).find((s) => s.id === `gemini:${made[name]}`);
  if (!found) throw new Error(`we do not list Gemini's chat ${name} ${made[name]}`);
  return found;
};

/** The chat file Gemini's resume of `name` left beside it: same 8 characters, a later minute. */
const twinOf = async (name: string) => {
  const real = await byName(name);
  const chats = join(real.path, "..");
  const short = made[name]!.slice(0, 8);
  return readdirSync(chats)
    .filter((f) => f.endsWith(`-${short}.jsonl`) && f !== basename(real.path))
    .map((f) => join(chats, f));
};

beforeAll(async () => {
  sandbox = agentSandbox();
  model = await startMockModel({ responder });
  for (const name of Object.keys(projects) as Array<keyof typeof projects>)
    projects[name] = sandbox.project(name);
  const { alpha, beta, gamma, delta } = projects;
  gemini = geminiDriver(sandbox, model.url, Object.values(projects));

  // delta: a chat resumed in a later minute, which makes Gemini write its twin.
  made.twinned = await printed(gemini.print(delta, "delta: begin"), "delta: begin");
  const begun = minute();

  // alpha: print mode, resumed within its minute (no twin); a write_file call.
  await roomInMinute(20);
  made.print = await printed(gemini.print(alpha, "alpha: write the notes"), "alpha: write the notes");
  await printed(
    gemini.print(alpha, "alpha: continue the notes", "--resume", made.print),
    "alpha: continue the notes",
  );
  const write = { file_path: join(alpha, "notes.txt"), content: "from gemini\n" };
  made.tool = await printed(
    gemini.print(alpha, `tool: write_file ${JSON.stringify(write)}`, "--yolo"),
    "done:",
  );
  expect(readFileSync(join(alpha, "notes.txt"), "utf8")).toBe("from gemini\n");

  // beta: the TUI; a subagent.
  const tui = await gemini.interactive(beta);
  try {
    await tui.type("beta: look around");
    await tui.waitForScreen(/reply \d+: beta: look around/, 60_000);
  } finally {
    await tui.stop();
  }
  const invoke = { agent_name: "generalist", prompt: "subagent: beta: look closer" };
  made.subagent = await printed(
    gemini.print(beta, `tool: invoke_agent ${JSON.stringify(invoke)}`, "--yolo"),
    "done:",
  );

  // gamma: the TUI left running.
  running = await gemini.interactive(gamma);
  await running.type("gamma: still working");
  await running.waitForScreen(/reply \d+: gamma: still working/, 60_000);

  await until(
    () => minute() !== begun,
    () => "the minute never turned",
    70_000,
  );
  await printed(
    gemini.print(delta, "delta: resumed later", "--resume", made.twinned),
    "delta: resumed later",
  );
  // The TUI's chat, by what Gemini lists in beta besides the subagent's parent.
  made.tui = (await gemini.listIn(beta)).find((id) => id !== made.subagent)!;
  made.running = (await gemini.listIn(gamma))[0]!;
}, 600_000);

afterAll(async () => {
  await running?.stop();
  await model?.close();
});

describe.sequential("Gemini CLI 0.61.0, the real CLI", () => {
  it("a resumed chat's empty twin is part of that chat: we count the chat once", async () => {
    const twins = await twinOf("twinned");
    expect(twins).toHaveLength(1);
    const ours = await ourSessions("gemini");
    expect(ours.map((s) => s.id)).toEqual(
      Object.values(made)
        .map((id) => `gemini:${id}`)
        .sort(),
    );
    expect(partsOf(await byName("twinned"))).toContain(twins[0]);
  });

  it("removing only the twin keeps the chat: Gemini still lists it at its next start", async () => {
    const [twin] = await twinOf("twinned");
    const { run, result } = await cleanIds(twin!);
    expect(run.status, run.stderr).toBe(0);
    expect(result?.moved.map((m) => m.path)).toEqual([twin]);
    // Listing starts Gemini, whose clean-up deletes every chat of a short id one of whose files it
    // cannot load: with the twin gone, the chat stays. (Resuming it again, in a later minute than
    // it began, would write a twin again: Gemini's bug, google-gemini/gemini-cli#27368.)
    expect(await gemini.listIn(projects.delta)).toEqual([made.twinned]);
  });

  it("we list exactly the chats Gemini lists (it hides none)", async () => {
    expect((await ourSessions("gemini")).map((s) => s.id)).toEqual(await gemini.list());
    // The subagent's chat is a part of the chat that invoked it.
    expect(filesOf(await byName("subagent")).some((f) => f.includes(`/${made.subagent}/`))).toBe(true);
  });

  it("each chat's size is the bytes on disk of its files", async () => {
    const ours = await ourSessions("gemini");
    expect(ours.map((s) => [s.id, s.sizeBytes])).toEqual(ours.map((s) => [s.id, bytesOnDisk(s)]));
  });

  it("no file named after a chat is left out of its bundle", async () => {
    const ours = await ourSessions("gemini");
    expect(leftOutOfBundles([sandbox.home], ours, gemini.namesOf, [join(sandbox.home, "code")])).toEqual([]);
  });

  it("the running TUI's chat is kept: clean --ids of it moves nothing", async () => {
    await expectRunningKept(await byName("running"));
  });

  it("clean of one chat: Gemini stops listing it and cannot resume it; trash restore: Gemini lists it and resumes it", async () => {
    await expectCleanAndRestore(gemini, await byName("tool"), {
      prompt: "alpha: after the restore",
      notFound: /Invalid session identifier/,
      reply: /reply \d+: alpha: after the restore/,
    });
  });

  it("a whole project cleaned and restored gives back exactly Gemini's earlier list", async () => {
    await expectProjectRoundTrip(gemini, projects.beta);
  });
});
