// Our metrics as Prometheus itself sees them: `promtool check metrics` lints the textfile the CLI
// writes, and a real Prometheus server scrapes a real `serve` with its bearer token and answers
// queries on what it stored. Needs Debian's `prometheus` package (CI installs it); on a machine
// without it these are skipped, except under CI, where that is a failure.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { freePort, monitoredHome, toolsAvailable } from "../../test-support/prometheus.js";
import { startServe } from "../../test-support/serve-child.js";
import { runCli } from "../cli/main.js";

const available = toolsAvailable(["promtool", "prometheus"], "prometheus");

const children: ChildProcess[] = [];
const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
  for (const stop of stops.splice(0)) await stop();
});

describe.skipIf(!available)("Prometheus", () => {
  it("promtool accepts the textfile the CLI writes for node_exporter", async () => {
    const { home, env } = monitoredHome();
    const file = join(home, "session_retention.prom");
    const saved = { ...process.env };
    Object.assign(process.env, env);
    try {
      expect(await runCli(["metrics", "--textfile", file], { stdout: () => {}, stderr: () => {} })).toBe(0);
    } finally {
      for (const key of Object.keys(env)) delete process.env[key];
      Object.assign(process.env, saved);
    }
    const text = readFileSync(file, "utf8");
    expect(text).toMatch(/^session_retention_agent_sessions\{agent="claude"\} 1$/m);
    const check = spawnSync("promtool", ["check", "metrics"], { input: text, encoding: "utf8" });
    expect({ status: check.status, output: check.stdout + check.stderr }).toEqual({ status: 0, output: "" });
  });

  it("a real Prometheus scrapes serve's /metrics with the bearer token and stores every agent's numbers", async () => {
    const { home, env } = monitoredHome();
    const served = await startServe(["--no-open"], env);
    stops.push(() => served.stop());
    const port = await freePort();
    const config = join(home, "prometheus.yml");
    writeFileSync(
      config,
      [
        "global: { scrape_interval: 1s }",
        "scrape_configs:",
        "  - job_name: session-retention",
        `    authorization: { credentials: "${served.token}" }`,
        `    static_configs: [{ targets: ["${served.base.slice("http://".length)}"] }]`,
      ].join("\n"),
    );
    const prometheus = spawn(
      "prometheus",
      [
        `--config.file=${config}`,
        `--storage.tsdb.path=${join(home, "tsdb")}`,
        `--web.listen-address=127.0.0.1:${port}`,
      ],
      { stdio: "ignore" },
    );
    children.push(prometheus);

    /** One query's samples as `labels → value`, once Prometheus has any (a scrape every second). */
    const query = async (promql: string) => {
      for (let tries = 0; tries < 60; tries++) {
        try {
          const response = await fetch(
            `http://127.0.0.1:${port}/api/v1/query?query=${encodeURIComponent(promql)}`,
          );
          const body = (await response.json()) as {
            data: { result: Array<{ metric: Record<string, string>; value: [number, string] }> };
          };
          if (body.data.result.length > 0)
            return body.data.result.map((r) => [r.metric.agent ?? r.metric.job, r.value[1]]);
        } catch {
          // not listening yet
        }
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      throw new Error(`Prometheus never answered ${promql}`);
    };
    expect(await query('up{job="session-retention"}')).toEqual([["session-retention", "1"]]);
    expect(await query("session_retention_sessions")).toEqual([["session-retention", "3"]]);
    expect((await query("session_retention_agent_sessions")).sort()).toEqual([
      ["claude", "1"],
      ["pi", "2"],
    ]);
    expect(await query('session_retention_agent_quota_ratio{measure="count"}')).toEqual([["claude", "0.25"]]);
  }, 60_000);
});
