// Our metrics as Prometheus itself sees them: `promtool check metrics` lints the textfile the CLI
// writes, and a real Prometheus server — set up as docs/monitoring.md tells a team to — scrapes a
// real `serve` with its bearer token from a file and a real node_exporter shipping the CLI's
// textfile, runs our alert rules, and answers queries with the numbers the dashboard shows. Needs
// Debian's `prometheus` and `prometheus-node-exporter` packages (CI installs them); on a machine
// without them these are skipped, except under CI, where that is a failure.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { freePort, monitoredHome, toolsAvailable } from "../../test-support/prometheus.js";
import { setModified, writeSession } from "../../test-support/pi-store.js";
import { writeClaudeTranscript } from "../../test-support/claude-transcript.js";
import { BIN, startServe } from "../../test-support/serve-child.js";
import type { SummaryResponse } from "../../shared/api.js";
import { type TrashList, trashTotals } from "../../shared/trash.js";
import { softDelete } from "../delete/deletion-engine.js";
import { scanStores } from "../scan/scanner.js";
import { runCli } from "../cli/main.js";
import { piStores } from "../../test-support/pi-stores.js";

const available =
  toolsAvailable(["promtool", "prometheus"], "prometheus") &&
  toolsAvailable(["prometheus-node-exporter"], "prometheus-node-exporter");
const RULES = fileURLToPath(new URL("../../docs/monitoring/session-retention.rules.yml", import.meta.url));

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

  // Names are whatever an agent was run in: a label value holding quotes, backslashes, a line feed,
  // ESC, DEL, a C1 control, a bidi override or a name that was not UTF-8 must still make text
  // Prometheus accepts — on stdout, in the textfile and over HTTP alike.
  it("promtool accepts the metrics on stdout, in the textfile and from GET /metrics, whatever names hold", async () => {
    const { home, env, piRoot } = monitoredHome();
    const cwd = '/work/q"b\\c\nd\u001be\u007ff\u009bg\u202eh\udc80i';
    writeSession(piRoot, cwd, 1);
    const claude = join(home, 'agents/cl"au\\de');
    writeClaudeTranscript(claude, {
      id: "0b7c1a52-0000-4000-8000-000000000002",
      cwd: "/work/app",
      modified: new Date(Date.now() - 45 * 86_400_000),
    });
    const configFile = join(env.PI_CODING_AGENT_DIR, "session-retention.json");
    const config = JSON.parse(readFileSync(configFile, "utf8")) as Record<string, unknown>;
    writeFileSync(
      configFile,
      JSON.stringify({
        ...config,
        stores: [
          { kind: "pi", root: piRoot },
          { kind: "claude", root: claude },
        ],
      }),
    );

    const stdout = spawnSync(process.execPath, [BIN, "metrics"], { env, encoding: "utf8" });
    expect(stdout.status, stdout.stderr).toBe(0);
    const textfile = join(home, "session_retention.prom");
    const wrote = spawnSync(process.execPath, [BIN, "metrics", "--textfile", textfile], {
      env,
      encoding: "utf8",
    });
    expect(wrote.status, wrote.stderr).toBe(0);
    const served = await startServe(["--no-open", "--no-watch"], env);
    stops.push(() => served.stop());
    const http = await fetch(`${served.base}/metrics`, {
      headers: { Authorization: `Bearer ${served.token}` },
    });
    expect(http.status).toBe(200);

    // A label value as Prometheus reads it back: only \\, \" and \n are escapes.
    const unescape = (value: string) =>
      value.replace(/\\(["\\n])/g, (_, c: string) => (c === "n" ? "\n" : c));
    const labels = (text: string, name: string) =>
      [
        ...text.matchAll(
          new RegExp(`^session_retention_[a-z_]+\\{[^\\n]*?${name}="((?:[^"\\\\]|\\\\.)*)"`, "gm"),
        ),
      ].map((m) => unescape(m[1]!));
    for (const [channel, text] of [
      ["stdout", stdout.stdout],
      ["textfile", readFileSync(textfile, "utf8")],
      ["GET /metrics", await http.text()],
    ] as const) {
      const check = spawnSync("promtool", ["check", "metrics"], { input: text, encoding: "utf8" });
      expect({ channel, status: check.status, output: check.stdout + check.stderr }).toEqual({
        channel,
        status: 0,
        output: "",
      });
      // The controls are shown as the text \u001b…, as everywhere we show a name; the line feed
      // is the format's own escape; a name that was not UTF-8 reads U+FFFD.
      expect(labels(text, "namespace"), channel).toContain(
        '/work/q"b\\c\nd\\u001be\\u007ff\\u009bg\\u202eh\ufffdi',
      );
      expect(labels(text, "store"), channel).toContain(claude);
      // eslint-disable-next-line no-control-regex -- finding control characters is the point
      expect(text, channel).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/);
    }
  });

  it("a real Prometheus scrapes serve (token from a file) and node_exporter's textfile, runs the alert rules, and holds the dashboard's totals", async () => {
    const { home, env, piRoot } = monitoredHome();
    // Something in the trash, and a file the scan cannot take for a session: their metrics too.
    // (Last touched long ago: a session modified within the grace period is active, never moved.)
    const old = writeSession(piRoot, "/work/old", 1).getSessionFile()!;
    setModified(old, new Date("2025-01-01T00:00:00Z"));
    const { sessions } = await scanStores({ stores: piStores(piRoot) });
    const gone = sessions.find((s) => s.path === old)!;
    const moved = await softDelete(
      { items: [{ id: gone.id, fingerprint: gone.fingerprint }], stores: piStores(piRoot), via: "selection" },
      { actor: "cli", env },
    );
    expect(moved.skipped).toEqual([]);
    expect(moved.moved).toHaveLength(1);
    writeFileSync(join(piRoot, "stray.jsonl"), "not a session\n");

    // The machine's timer: the CLI writes the textfile node_exporter reads.
    const textfiles = join(home, "textfiles");
    mkdirSync(textfiles);
    const wrote = spawnSync(
      process.execPath,
      [BIN, "metrics", "--textfile", join(textfiles, "session_retention.prom")],
      { env, encoding: "utf8" },
    );
    expect(wrote.status, wrote.stderr).toBe(0);
    const exporterPort = await freePort();
    children.push(
      spawn(
        "prometheus-node-exporter",
        [
          `--web.listen-address=127.0.0.1:${exporterPort}`,
          "--collector.disable-defaults",
          "--collector.textfile",
          `--collector.textfile.directory=${textfiles}`,
        ],
        { stdio: "ignore" },
      ),
    );

    const served = await startServe(["--no-open"], env);
    stops.push(() => served.stop());
    const tokenFile = join(home, "session-retention.token");
    writeFileSync(tokenFile, served.token, { mode: 0o600 });
    const port = await freePort();
    const config = join(home, "prometheus.yml");
    writeFileSync(
      config,
      [
        "global: { scrape_interval: 1s, evaluation_interval: 1s }",
        `rule_files: [${JSON.stringify(RULES)}]`,
        "scrape_configs:",
        "  - job_name: session-retention",
        `    authorization: { credentials_file: ${JSON.stringify(tokenFile)} }`,
        `    static_configs: [{ targets: ["${served.base.slice("http://".length)}"] }]`,
        "  - job_name: node",
        `    static_configs: [{ targets: ["127.0.0.1:${exporterPort}"] }]`,
      ].join("\n"),
    );
    children.push(
      spawn(
        "prometheus",
        [
          `--config.file=${config}`,
          `--storage.tsdb.path=${join(home, "tsdb")}`,
          `--web.listen-address=127.0.0.1:${port}`,
        ],
        { stdio: "ignore" },
      ),
    );

    /** Prometheus's answer at `path` once `ready` says it is complete (a scrape and an evaluation every second). */
    const api = async <T>(path: string, ready: (data: T) => boolean): Promise<T> => {
      let last: unknown;
      for (let tries = 0; tries < 60; tries++) {
        try {
          const body = (await (await fetch(`http://127.0.0.1:${port}${path}`)).json()) as { data: T };
          last = body.data;
          if (ready(body.data)) return body.data;
        } catch {
          // not listening yet
        }
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      throw new Error(`Prometheus never answered ${path} as wanted; last: ${JSON.stringify(last)}`);
    };
    type Sample = { metric: Record<string, string>; value: [number, string] };
    /** One query's samples as `"job agent" → value`, once both jobs have them. */
    const query = async (promql: string, each = 2) => {
      const data = await api<{ result: Sample[] }>(
        `/api/v1/query?query=${encodeURIComponent(promql)}`,
        (d) => d.result.length >= each,
      );
      return Object.fromEntries(
        data.result.map((r) => [
          [r.metric.job, r.metric.agent].filter(Boolean).join(" "),
          Number(r.value[1]),
        ]),
      );
    };

    expect(await query("up")).toEqual({ "session-retention": 1, node: 1 });
    // The dashboard's own numbers, read from its API with the same token.
    const dashboard = async (route: string) =>
      (await fetch(`${served.base}/api/${route}`, {
        headers: { Authorization: `Bearer ${served.token}` },
      }).then((r) => r.json())) as never;
    const summary: SummaryResponse = await dashboard("summary");
    const trash: TrashList = await dashboard("trash");
    const both = (value: number) => ({ "session-retention": value, node: value });
    expect(summary.summary.sessionCount).toBe(3);
    expect(summary.problems.map((p) => p.code)).toEqual(["not-a-session"]);
    expect(await query("session_retention_sessions")).toEqual(both(summary.summary.sessionCount));
    expect(await query("session_retention_bytes")).toEqual(both(summary.summary.totalBytes));
    expect(await query("session_retention_agent_sessions", 4)).toEqual(
      Object.fromEntries(
        summary.agents.flatMap((a) => [
          [`session-retention ${a.kind}`, a.sessionCount],
          [`node ${a.kind}`, a.sessionCount],
        ]),
      ),
    );
    expect(await query('session_retention_agent_quota_ratio{measure="count"}')).toEqual({
      "session-retention claude": 0.25,
      "node claude": 0.25,
    });
    const inTrash = trashTotals(trash.entries);
    expect(inTrash).toEqual({ count: 1, bytes: gone.sizeBytes });
    expect(await query("session_retention_trash_bytes")).toEqual(both(inTrash.bytes));
    expect(await query("sum without (code) (session_retention_scan_problems)")).toEqual(
      both(summary.problems.length),
    );
    // The forecast the dashboard shows, in seconds (the two reads are a moment apart).
    const days = summary.forecast?.daysToFull;
    expect(days).toBeGreaterThan(0);
    for (const seconds of Object.values(await query("session_retention_forecast_full_seconds")))
      expect(seconds / 86_400).toBeCloseTo(days!, 1);
    // The stale-textfile rule's matcher finds the file node_exporter really reports.
    expect(await query('node_textfile_mtime_seconds{file=~".*session_retention\\\\.prom"}', 1)).toEqual({
      node: expect.any(Number),
    });

    // The rules are loaded and evaluate cleanly; the scan problem is a pending alert for both jobs.
    const rules = await api<{
      groups: Array<{ name: string; rules: Array<{ name: string; health: string }> }>;
    }>("/api/v1/rules", (d) => d.groups[0]?.rules.every((r) => r.health === "ok") ?? false);
    expect(rules.groups.map((g) => g.name)).toEqual(["session-retention"]);
    expect(rules.groups[0]!.rules.map((r) => r.name)).toHaveLength(8);
    const alerts = await api<{ alerts: Array<{ labels: Record<string, string>; state: string }> }>(
      "/api/v1/alerts",
      (d) => d.alerts.length >= 2,
    );
    expect(alerts.alerts.map((a) => [a.labels.alertname, a.labels.job, a.state]).sort()).toEqual([
      ["SessionRetentionScanProblems", "node", "pending"],
      ["SessionRetentionScanProblems", "session-retention", "pending"],
    ]);
  }, 60_000);
});
