// pi's real CLI, interactive, in a terminal of its own (agent-tmux.ts), talking to a mock model on
// 127.0.0.1: what a person runs, left running while a test looks at it. The test's sandboxed HOME
// and agent dir are pi's; nothing is downloaded (`--offline`).
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type AgentInTmux, startInTmux } from "./agent-tmux.js";

export { until } from "./agent-tmux.js";

/** pi's CLI script in this checkout's node_modules. */
export const PI_CLI = fileURLToPath(
  new URL("../node_modules/@mariozechner/pi-coding-agent/dist/cli.js", import.meta.url),
);

export const MOCK_PROVIDER = "mock";
export const MOCK_MODEL = "mock-1";

/**
 * Points pi at a mock model: `<agentDir>/models.json` gains a provider speaking OpenAI Chat
 * Completions at `modelUrl` (pi's custom-provider format, docs/models.md in pi's package). Returns
 * the arguments that choose it.
 */
export function useMockModel(agentDir: string, modelUrl: string): string[] {
  mkdirSync(agentDir, { recursive: true });
  writeFileSync(
    join(agentDir, "models.json"),
    `${JSON.stringify(
      {
        providers: {
          [MOCK_PROVIDER]: {
            baseUrl: `${modelUrl}/v1`,
            api: "openai-completions",
            apiKey: "mock",
            models: [{ id: MOCK_MODEL }],
          },
        },
      },
      null,
      2,
    )}\n`,
  );
  return ["--offline", "--provider", MOCK_PROVIDER, "--model", MOCK_MODEL];
}

/** pi in a terminal of its own (agent-tmux.ts). */
export type PiInTmux = AgentInTmux;

/**
 * Starts pi's CLI (`cli`: this checkout's, or another install's) in `cwd` in a fresh tmux terminal,
 * with `env` as its whole environment (the sandbox's HOME and PI_CODING_AGENT_DIR among it), and
 * resolves once pi shows its editor — the footer naming `model` — and /proc shows it under its own
 * title.
 */
export function startPiInTmux(options: {
  cwd: string;
  args: readonly string[];
  env: NodeJS.ProcessEnv;
  /** What the footer shows once pi is ready for input. */
  readyText: string;
  cli?: string;
}): Promise<PiInTmux> {
  return startInTmux({
    cwd: options.cwd,
    command: [process.execPath, options.cli ?? PI_CLI, ...options.args],
    env: options.env,
    readyText: options.readyText,
    processName: "pi",
  });
}
