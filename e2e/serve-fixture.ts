// Starts the real CLI (`session-retention serve --port 0`) on a temporary home and store, and gives
// each test its URL. The server is reached only through the browser and HTTP.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test as base } from "@playwright/test";
import { startServe } from "../test-support/serve-child.js";

export interface RunningServer {
  url: string;
  home: string;
  agentDir: string;
  output: () => string;
}

/** A config under which the policy's own rules keep nothing: a pin or protection is then the only reason. */
export const KEEP_NOTHING = { retention: { minKeepRecentCount: 0, keepLastPerNamespace: 0 } };

/** pi's agent folder inside `home`, with `config` as session-retention's config file; and its sessions folder. */
export function agentDirWith(home: string, config: object): { agentDir: string; root: string } {
  const agentDir = join(home, ".pi", "agent");
  mkdirSync(agentDir, { recursive: true });
  writeFileSync(join(agentDir, "session-retention.json"), JSON.stringify(config));
  return { agentDir, root: join(agentDir, "sessions") };
}

/** Spawns the server with HOME, PI_CODING_AGENT_DIR and XDG_DATA_HOME inside `home`. */
async function startServer(
  home: string,
  extraArgs: string[] = [],
): Promise<RunningServer & { stop: () => Promise<void> }> {
  const agentDir = join(home, ".pi", "agent");
  const server = await startServe(["--no-open", ...extraArgs], {
    ...process.env,
    HOME: home,
    PI_CODING_AGENT_DIR: agentDir,
    XDG_DATA_HOME: join(home, ".local", "share"),
    PI_CODING_AGENT_SESSION_DIR: "",
  });
  return { url: server.url, home, agentDir, output: server.output, stop: () => server.stop() };
}

export const test = base.extend<{
  /** A fresh temporary home per test, removed afterwards. */
  home: string;
  /** Starts a server on the test's home; every server started is stopped when the test ends. */
  serve: (extraArgs?: string[]) => Promise<RunningServer & { stop: () => Promise<void> }>;
}>({
  // Playwright fixtures take their dependencies as a destructured object, even when there are none.
  // eslint-disable-next-line no-empty-pattern
  home: async ({}, use) => {
    const home = mkdtempSync(join(tmpdir(), "sr-e2e-"));
    await use(home);
    rmSync(home, { recursive: true, force: true });
  },
  serve: async ({ home }, use) => {
    const started: Array<{ stop: () => Promise<void> }> = [];
    await use(async (extraArgs = []) => {
      const server = await startServer(home, extraArgs);
      started.push(server);
      return server;
    });
    for (const server of started) await server.stop(); // a stopped one returns at once
  },
});

export { expect } from "@playwright/test";
