// The monitoring files a team installs (docs/monitoring/), as Prometheus and Grafana will read
// them: promtool checks the alert rules and runs their unit tests, and the Grafana dashboard is
// JSON whose every query is PromQL that promtool parses and that reads only metrics we emit — the
// names taken from what the real CLI writes for a home with every kind of metric in it.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  monitoredHome,
  promqlMetricNames,
  toolsAvailable,
  withoutGrafanaVariables,
} from "../../test-support/prometheus.js";
import { BIN } from "../../test-support/serve-child.js";

const available = toolsAvailable(["promtool"], "prometheus");
const DIR = fileURLToPath(new URL("../../docs/monitoring/", import.meta.url));
const RULES = join(DIR, "session-retention.rules.yml");

interface Panel {
  title: string;
  type: string;
  targets?: Array<{ expr: string }>;
}
const dashboard = JSON.parse(readFileSync(join(DIR, "grafana-dashboard.json"), "utf8")) as {
  uid: string;
  panels: Panel[];
  templating: { list: Array<{ name: string; definition?: string }> };
};
const queries = dashboard.panels.flatMap((p) =>
  (p.targets ?? []).map((t) => ({ panel: p.title, expr: t.expr })),
);
/** The rules' expressions, read out of the YAML by line (each rule's `expr:` is on one line). */
const ruleExprs = [...readFileSync(RULES, "utf8").matchAll(/^\s+expr: (.+)$/gm)].map((m) => m[1]!);

/** The metric names the CLI writes for a home with stores, quotas, a forecast, the trash and sweeps (one run). */
let emitted: Set<string> | undefined;
function emittedNames(): Set<string> {
  if (emitted) return emitted;
  const { home, env } = monitoredHome();
  const file = join(home, "session_retention.prom");
  const run = spawnSync(process.execPath, [BIN, "metrics", "--textfile", file], { env, encoding: "utf8" });
  expect(run.status, run.stderr).toBe(0);
  emitted = new Set([...readFileSync(file, "utf8").matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]!));
  return emitted;
}

describe("the Grafana dashboard", () => {
  it("is JSON with panels, each query reading only metrics we emit, and each metric shown or alerted on", () => {
    expect(dashboard.uid).toBe("session-retention-fleet");
    expect(queries.length).toBeGreaterThan(10);
    const names = emittedNames();
    // The forecast and the agent quota level exist only in some states: the home has them all.
    expect(names).toContain("session_retention_forecast_full_seconds");
    expect(names).toContain("session_retention_agent_quota_level");
    const unknown = queries.flatMap(({ panel, expr }) =>
      promqlMetricNames(expr)
        .filter((name) => !names.has(name))
        .map((name) => `${panel}: ${name}`),
    );
    expect(unknown).toEqual([]);
    const instances = dashboard.templating.list.find((v) => v.name === "instance")!;
    expect(instances.definition).toBe("label_values(session_retention_bytes, instance)");
    const used = new Set([...queries.map((q) => q.expr), ...ruleExprs].flatMap(promqlMetricNames));
    expect([...names].filter((name) => !used.has(name))).toEqual([]);
  });

  it("finds the metric names in PromQL, not the functions, keywords, labels or strings around them", () => {
    expect(
      promqlMetricNames(
        'sum by (instance) (increase(a_total{x=~"y_z"}[$__range])) / ignoring(k) b or vector(0) > bool 2',
      ),
    ).toEqual(["a_total", "b"]);
  });
});

describe("docs/monitoring.md", () => {
  it("lists every metric we emit", () => {
    const page = readFileSync(join(DIR, "..", "monitoring.md"), "utf8");
    expect([...emittedNames()].filter((name) => !page.includes(`| \`${name}\``))).toEqual([]);
  });
});

describe("the alert rules", () => {
  it("read only metrics we emit, or node_exporter's textfile mtime", () => {
    const names = emittedNames();
    expect(ruleExprs.flatMap(promqlMetricNames).filter((n) => !names.has(n))).toEqual([
      "node_textfile_mtime_seconds",
    ]);
  });
});

describe.skipIf(!available)("promtool", () => {
  it("checks the alert rules", () => {
    const check = spawnSync("promtool", ["check", "rules", RULES], { encoding: "utf8" });
    expect({ status: check.status, output: check.stdout + check.stderr }).toEqual({
      status: 0,
      output: expect.stringContaining("SUCCESS: 8 rules found"),
    });
  });

  it("runs the rules' unit tests: each alert fires on its case and stays quiet on the ones next to it", () => {
    const run = spawnSync("promtool", ["test", "rules", "session-retention.rules.test.yml"], {
      cwd: DIR,
      encoding: "utf8",
    });
    expect({ status: run.status, output: run.stdout + run.stderr }).toEqual({
      status: 0,
      output: expect.stringContaining("SUCCESS"),
    });
  });

  it("parses every query of the dashboard as PromQL (as recording rules)", () => {
    const file = join(mkdtempSync(join(tmpdir(), "sr-grafana-")), "dashboard-queries.yml");
    const rules = queries.map(
      ({ expr }, i) =>
        `      - record: dashboard:query_${i}\n        expr: ${JSON.stringify(withoutGrafanaVariables(expr))}`,
    );
    writeFileSync(file, ["groups:", "  - name: dashboard", "    rules:", ...rules, ""].join("\n"));
    const check = spawnSync("promtool", ["check", "rules", file], { encoding: "utf8" });
    expect({ status: check.status, output: check.stdout + check.stderr }).toEqual({
      status: 0,
      output: expect.stringContaining(`SUCCESS: ${queries.length} rules found`),
    });
  });

  it("would tell a broken query", () => {
    const file = join(mkdtempSync(join(tmpdir(), "sr-grafana-")), "broken.yml");
    writeFileSync(
      file,
      'groups:\n  - name: x\n    rules:\n      - record: x:y\n        expr: "sum by (instance (a)"\n',
    );
    expect(spawnSync("promtool", ["check", "rules", file], { encoding: "utf8" }).status).not.toBe(0);
  });
});
