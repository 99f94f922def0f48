// What the tests that run Prometheus's own tools share: whether the tools are here (Debian's
// `prometheus` and `prometheus-node-exporter`; CI installs them, and there a missing one is a
// failure), a free port for a server to listen on, a home with stores worth monitoring, and the
// metric names a PromQL expression reads.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeClaudeTranscript } from "./claude-transcript.js";
import { writeSession } from "./pi-store.js";

const hasTool = (tool: string) => spawnSync(tool, ["--version"], { stdio: "ignore" }).status === 0;

/** Whether every tool runs; under CI a missing one throws (the tests must not be skipped there). */
export function toolsAvailable(tools: readonly string[], debianPackage: string): boolean {
  const missing = tools.filter((tool) => !hasTool(tool));
  if (missing.length > 0 && process.env.CI)
    throw new Error(`CI needs Debian's ${debianPackage} package (${missing.join(", ")})`);
  return missing.length === 0;
}

/** A free loopback port for a server to listen on. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.once("error", reject);
  });
}

const DAY = 86_400_000;

/**
 * A home with a pi store (two sessions written now) and a Claude store (one transcript from 45
 * days ago), and a config with a size quota for all and a count quota for Claude. Its first scan
 * backfills a growth history in which the pi sessions are a week's growth, so there is a forecast.
 */
export function monitoredHome() {
  const home = realpathSync(mkdtempSync(join(tmpdir(), "sr-prom-home-")));
  const agentDir = join(home, ".pi", "agent");
  const piRoot = join(agentDir, "sessions");
  writeSession(piRoot, "/work/a", 2);
  writeSession(piRoot, "/work/b", 3);
  mkdirSync(agentDir, { recursive: true });
  writeFileSync(
    join(agentDir, "session-retention.json"),
    JSON.stringify({
      retention: { minKeepRecentCount: 0, keepLastPerNamespace: 0, allowEmptyStore: true },
      deletion: { target: "quarantine" },
      quota: { maxTotalSizeBytes: 1_000_000, agents: { claude: { maxSessionCount: 4 } } },
    }),
  );
  writeClaudeTranscript(join(home, ".claude"), {
    id: "0b7c1a52-0000-4000-8000-000000000001",
    cwd: "/work/app",
    modified: new Date(Date.now() - 45 * DAY),
  });
  const env = {
    ...process.env,
    HOME: home,
    PI_CODING_AGENT_DIR: agentDir,
    XDG_DATA_HOME: join(home, ".local", "share"),
    PI_CODING_AGENT_SESSION_DIR: "",
    CLAUDE_CONFIG_DIR: "",
  };
  return { home, env, piRoot };
}

/** Grafana's variables, replaced so an expression of the dashboard is plain PromQL. */
export const withoutGrafanaVariables = (expr: string) =>
  expr.replaceAll("$instance", ".*").replaceAll("$__range", "1d").replaceAll("$__rate_interval", "5m");

/**
 * The metric names a PromQL expression reads: what is left once strings, label matchers, ranges,
 * groupings, function calls and keywords are taken out.
 */
export function promqlMetricNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, "")
    .replace(/\[[^\]]*\]/g, "")
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, "");
  const keywords = new Set(["bool", "and", "or", "unless", "offset", "inf", "nan"]);
  const names = [...bare.matchAll(/\b[A-Za-z_:][A-Za-z0-9_:]*\b(?!\s*\()/g)].map((m) => m[0]);
  return [...new Set(names.filter((name) => !keywords.has(name.toLowerCase())))];
}
