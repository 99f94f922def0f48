// Gemini CLI as the real-agent suite drives it: the pinned CLI (test-agents) pointed at the mock
// model (`GOOGLE_GEMINI_BASE_URL`, an API key, `security.auth.selectedType: gemini-api-key` in its
// settings), the projects trusted; print mode (`--yolo` where a tool writes), `--resume`, the TUI in
// tmux, and its own list — `gemini --list-sessions` in each project folder (Gemini's list is per
// project), its `[<uuid>]`s read from the output.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { SessionRecord } from "../../shared/session-record.js";
import { type AgentInTmux, startInTmux } from "../agent-tmux.js";
import { agentBin } from "../test-agents.js";
import type { AgentUnderTest } from "./checks.js";
import { runCommand, type Run, type Sandbox } from "./sandbox.js";

export interface GeminiDriver extends AgentUnderTest {
  /** `gemini -p <prompt> --output-format json <args>` in `cwd`; the chat's id from Gemini's answer. */
  print(cwd: string, prompt: string, ...args: string[]): Promise<Run & { session: string; response: string }>;
  /** The TUI in tmux in `cwd`, ready for input. */
  interactive(cwd: string, ...args: string[]): Promise<AgentInTmux>;
  /** The chat ids `gemini --list-sessions` prints in `project`. */
  listIn(project: string): Promise<string[]>;
}

export function geminiDriver(sandbox: Sandbox, modelUrl: string, projects: readonly string[]): GeminiDriver {
  const bin = agentBin("gemini");
  const home = join(sandbox.env.GEMINI_CLI_HOME!, ".gemini");
  mkdirSync(home, { recursive: true });
  writeFileSync(
    join(home, "settings.json"),
    JSON.stringify({ security: { auth: { selectedType: "gemini-api-key" } } }),
  );
  writeFileSync(
    join(home, "trustedFolders.json"),
    JSON.stringify(Object.fromEntries(projects.map((p) => [p, "TRUST_FOLDER"]))),
  );
  const env = { ...sandbox.env, GOOGLE_GEMINI_BASE_URL: modelUrl, GEMINI_API_KEY: "mock" };

  async function print(cwd: string, prompt: string, ...args: string[]) {
    const run = await runCommand(bin, ["-p", prompt, "--output-format", "json", ...args], { cwd, env });
    let answer: { session_id?: string; response?: string } = {};
    try {
      answer = JSON.parse(run.stdout.slice(run.stdout.indexOf("{"))) as typeof answer;
    } catch {} // a failed run prints no JSON: its status and stderr say why
    return { ...run, session: answer.session_id ?? "", response: answer.response ?? "" };
  }

  async function listIn(project: string): Promise<string[]> {
    const run = await runCommand(bin, ["--list-sessions"], { cwd: project, env });
    if (run.status !== 0) throw new Error(`gemini --list-sessions failed (${run.status}): ${run.stderr}`);
    return [...run.stdout.matchAll(/\[([0-9a-f-]{36})\]\s*$/gm)].map((m) => m[1]!);
  }

  return {
    kind: "gemini",
    print,
    interactive: (cwd, ...args) =>
      startInTmux({
        cwd,
        command: [bin, ...args],
        env,
        readyText: "Type your message",
        readyTimeoutMs: 60_000,
      }),
    listIn,
    async list() {
      const all = await Promise.all(projects.map(listIn));
      return all
        .flat()
        .map((id) => `gemini:${id}`)
        .sort();
    },
    resume: async (session: SessionRecord, prompt: string) => {
      const run = await print(session.namespace, prompt, "--resume", session.id.replace(/^gemini:/, ""));
      return { ...run, stdout: run.response || run.stdout };
    },
    // Gemini names a chat's file by its first 8 characters, its folders by the whole id.
    namesOf: (session) => {
      const id = session.id.replace(/^gemini:/, "");
      return [id, `-${id.slice(0, 8)}.json`];
    },
  };
}
