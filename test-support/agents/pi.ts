// pi as the real-agent suite drives it: the pinned CLI (test-agents) pointed at the mock model
// through a models.json provider (`openai-completions`), `--offline`; print mode, interactive in
// tmux, and its own list of sessions — `SessionManager.listAll()` of the same package, run as a
// child with the sandbox's environment.
import { join } from "node:path";
import type { SessionRecord } from "../../shared/session-record.js";
import type { AgentInTmux } from "../agent-tmux.js";
import { MOCK_MODEL, startPiInTmux, useMockModel } from "../pi-tmux.js";
import { agentBin, TEST_AGENTS } from "../test-agents.js";
import type { AgentUnderTest } from "./checks.js";
import { runCommand, type Run, type Sandbox } from "./sandbox.js";

const PACKAGE = join(TEST_AGENTS, "node_modules", "@mariozechner", "pi-coding-agent", "dist", "index.js");

export interface PiDriver extends AgentUnderTest {
  /** `pi <args> -p <prompt>` in `cwd`. */
  print(cwd: string, prompt: string, ...args: string[]): Promise<Run>;
  /** pi interactive in tmux in `cwd`, ready for input. */
  interactive(cwd: string, ...args: string[]): Promise<AgentInTmux>;
}

export function piDriver(sandbox: Sandbox, modelUrl: string): PiDriver {
  const cli = agentBin("pi");
  const modelArgs = useMockModel(sandbox.env.PI_CODING_AGENT_DIR!, modelUrl);
  const print = (cwd: string, prompt: string, ...args: string[]) =>
    runCommand(process.execPath, [cli, ...modelArgs, ...args, "-p", prompt], { cwd, env: sandbox.env });
  return {
    kind: "pi",
    print,
    interactive: (cwd, ...args) =>
      startPiInTmux({ cwd, cli, args: [...modelArgs, ...args], env: sandbox.env, readyText: MOCK_MODEL }),
    async list() {
      const script = `const { SessionManager } = await import(${JSON.stringify(PACKAGE)});
        const all = await SessionManager.listAll();
        console.log(JSON.stringify(all.map((s) => s.id)));`;
      const run = await runCommand(process.execPath, ["--input-type=module", "-e", script], {
        cwd: sandbox.home,
        env: sandbox.env,
      });
      if (run.status !== 0) throw new Error(`pi's SessionManager.listAll() failed: ${run.stderr}`);
      return (JSON.parse(run.stdout) as string[]).sort();
    },
    resume: (session: SessionRecord, prompt: string) =>
      print(session.namespace, prompt, "--session", session.id),
    namesOf: (session) => [session.id],
  };
}
