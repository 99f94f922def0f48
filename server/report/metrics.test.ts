import { spawnSync } from "node:child_process";
import {
  chmodSync,
  chownSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { quotaState } from "../../shared/quota.js";
import { lenientConfig } from "../../test-support/config-file.js";
import { setModified, writeSession } from "../../test-support/pi-store.js";
import { BIN } from "../../test-support/serve-child.js";
import { canRunAsNobody, runAsNobody } from "../../test-support/unprivileged.js";
import { runCli } from "../cli/main.js";
import { softDelete } from "../delete/deletion-engine.js";
import { createApp } from "../http/app.js";
import { createDashboardService } from "../http/dashboard-service.js";
import { scanStores } from "../scan/scanner.js";
import { growthFile } from "../state/growth-store.js";
import { statePaths } from "../state/state-dir.js";
import { collectMetrics, renderMetrics } from "./metrics.js";
import { piStores } from "../../test-support/pi-stores.js";

const OLD = new Date("2025-01-01T00:00:00Z");

describe("renderMetrics", () => {
  it("writes the exposition format: help, type, samples, escaped labels", () => {
    const text = renderMetrics({
      summary: { totalBytes: 1500, sessionCount: 3 },
      namespaces: [
        {
          namespace: '/home/me/"q"\\x',
          sessionCount: 3,
          totalBytes: 1500,
          lastUsedAt: "2026-01-01T00:00:00Z",
        },
      ],
      durationMs: 250,
      agents: [
        { kind: "pi", sessionCount: 2, totalBytes: 1000, namespaces: [] },
        { kind: "claude", sessionCount: 1, totalBytes: 500, namespaces: [] },
      ],
      externalSweeps: [
        {
          agent: "claude",
          storeRoot: "/home/me/.claude",
          setting: "cleanupPeriodDays = 30 (Claude Code's default)",
          days: 30,
          ids: ["claude:x"],
          bytes: 500,
          keptByYou: 0,
          keepable: true,
          message: "…",
        },
      ],
      quota: quotaState(1500, 3, { maxTotalSizeBytes: 2000, maxSessionCount: 10 }),
      agentQuotas: { claude: quotaState(500, 1, { maxTotalSizeBytes: 1000 }) },
      trash: { count: 2, bytes: 4096 },
      forecast: { ratePerDay: 100, daysToFull: 5 },
      problems: [{ code: "unreadable" }, { code: "unreadable" }, { code: "symlink" }],
      audit: [
        {
          time: "2026-01-01T00:00:00.000Z",
          actor: "cli",
          action: "soft-delete",
          items: [
            { id: "a", path: "/a", result: "moved" },
            { id: "b", path: "/b", result: "skipped" },
          ],
          result: "partial",
        },
        {
          time: "2026-01-01T00:00:00.000Z",
          actor: "ui",
          action: "restore",
          items: [{ id: "a", path: "/a", result: "restored" }],
          result: "ok",
        },
      ],
    });
    const lines = text.trimEnd().split("\n");
    expect(lines).toContain("# TYPE session_retention_bytes gauge");
    expect(lines).toContain("session_retention_bytes 1500");
    expect(lines).toContain("session_retention_sessions 3");
    expect(lines).toContain('session_retention_quota_ratio{measure="size"} 0.75');
    expect(lines).toContain('session_retention_quota_ratio{measure="count"} 0.3');
    expect(lines).toContain('session_retention_quota_level{level="info"} 1');
    expect(lines).toContain('session_retention_namespace_bytes{namespace="/home/me/\\"q\\"\\\\x"} 1500');
    expect(lines).toContain("session_retention_scan_duration_seconds 0.25");
    expect(lines).toContain('session_retention_agent_bytes{agent="claude"} 500');
    expect(lines).toContain('session_retention_agent_sessions{agent="pi"} 2');
    expect(lines).toContain(
      'session_retention_agent_sweep_bytes{agent="claude",store="/home/me/.claude"} 500',
    );
    expect(lines).toContain('session_retention_agent_quota_ratio{agent="claude",measure="size"} 0.5');
    expect(lines.filter((l) => l.startsWith("session_retention_agent_quota_ratio{"))).toHaveLength(1);
    expect(lines).toContain('session_retention_agent_quota_level{agent="claude"} 0');
    expect(lines).toContain("session_retention_trash_bytes 4096");
    expect(lines).toContain("session_retention_trash_sessions 2");
    expect(lines).toContain("session_retention_growth_bytes_per_day 100");
    expect(lines).toContain("session_retention_forecast_full_seconds 432000");
    // Every code has a series, 0 when the scan found none of it: "no problems" is not "no data".
    expect(lines).toContain('session_retention_scan_problems{code="unreadable"} 2');
    expect(lines).toContain('session_retention_scan_problems{code="symlink"} 1');
    expect(lines).toContain('session_retention_scan_problems{code="permission-denied"} 0');
    expect(lines).toContain("session_retention_soft_deleted_total 1");
    expect(lines).toContain("session_retention_restored_total 1");
    expect(lines).toContain("session_retention_purged_total 0");
    // Every sample line is "name{labels} value".
    for (const line of lines.filter((l) => !l.startsWith("#")))
      expect(line).toMatch(/^session_retention_[a-z_]+(\{[^}]*\})? [-0-9.e+NaN]+$/);
  });
});

describe("renderMetrics: a label value holding control characters", () => {
  it("escapes what the format escapes and shows every other control as text", () => {
    const text = renderMetrics({
      summary: { totalBytes: 1, sessionCount: 1 },
      namespaces: [
        {
          namespace: 'a"b\\c\nd\re\u001bf\u0000g\u007fh\u009bi\u202ej',
          sessionCount: 1,
          totalBytes: 1,
          lastUsedAt: "2026-01-01T00:00:00Z",
        },
      ],
      durationMs: 1,
      audit: [],
    });
    expect(text.split("\n")).toContain(
      'session_retention_namespace_bytes{namespace="a\\"b\\\\c\\nd\\\\u000de\\\\u001bf\\\\u0000g\\\\u007fh\\\\u009bi\\\\u202ej"} 1',
    );
    // Nothing a terminal acts on, and no escape the format does not know (\u… must be \\u…).
    // eslint-disable-next-line no-control-regex -- finding control characters is the point
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/);
    expect(text).not.toMatch(/(^|[^\\])(\\\\)*\\u/m);
  });
});

describe("renderMetrics without a forecast to give", () => {
  const base = { summary: { totalBytes: 1, sessionCount: 1 }, namespaces: [], durationMs: 1, audit: [] };

  it("leaves out the time to full when the stores are not filling, and the growth with too little history", () => {
    const shrinking = renderMetrics({ ...base, forecast: { ratePerDay: -5, daysToFull: null } });
    expect(shrinking).toMatch(/^session_retention_growth_bytes_per_day -5$/m);
    expect(shrinking).not.toContain("session_retention_forecast_full_seconds");
    const none = renderMetrics(base);
    expect(none).not.toContain("session_retention_growth_bytes_per_day");
    expect(none).not.toContain("session_retention_agent_quota_level");
  });
});

describe("collectMetrics", () => {
  it("exports the trash, the forecast from the growth history and the scan's problems of real stores", async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), "sr-metrics-")));
    for (let i = 0; i < 3; i++) setModified(writeSession(root, `/work/p${i}`, 2).getSessionFile()!, OLD);
    writeFileSync(join(root, "--work-p0--", "broken.jsonl"), "not json\n");
    lenientConfig("quarantine", { quota: { maxTotalSizeBytes: 1_000_000 } });
    const { sessions, stores, summary } = await scanStores({ stores: piStores(root) });
    const gone = sessions[0]!;
    const moved = await softDelete(
      { items: [{ id: gone.id, fingerprint: gone.fingerprint }], stores: piStores(root), via: "selection" },
      { actor: "cli" },
    );
    expect(moved.moved).toHaveLength(1);
    // A week of history: 7,000 bytes a day less than now, so the 1 MB quota is some days away.
    const now = Date.now();
    const bytesNow = summary.totalBytes - gone.sizeBytes;
    const point = (daysAgo: number, bytes: number) => ({
      t: new Date(Math.floor((now - daysAgo * 86_400_000) / 3_600_000) * 3_600_000).toISOString(),
      bytes,
      count: 2,
    });
    const file = growthFile(statePaths().dir, stores);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify({ version: 1, points: [point(7, bytesNow - 49_000)] }));

    const text = await collectMetrics({ stores: piStores(root), config: {} });
    const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, "m").exec(text)?.[1]);
    expect(value("session_retention_trash_sessions")).toBe(1);
    expect(value("session_retention_trash_bytes")).toBe(gone.sizeBytes);
    expect(value("session_retention_sessions")).toBe(2);
    expect(text).toMatch(/^session_retention_scan_problems\{code="not-a-session"\} 1$/m);
    // The scan just recorded "now" into the history, so the rate is 49,000 bytes over 7 days.
    expect(value("session_retention_growth_bytes_per_day")).toBeCloseTo(7_000, -1);
    expect(value("session_retention_forecast_full_seconds") / 86_400).toBeCloseTo(
      (1_000_000 - bytesNow) / 7_000,
      0,
    );
  });
});

describe("metrics endpoints", () => {
  it("GET /metrics needs the token and answers Prometheus text; the CLI writes a textfile atomically", async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), "sr-metrics-")));
    writeSession(root, "/work/app", 2);
    const service = createDashboardService({
      stores: piStores(root),
      source: { kind: "pi" },
      config: {},
    });
    const app = createApp({ api: service, port: () => 4997, token: "t" });
    const url = "http://127.0.0.1:4997/metrics";
    expect((await app.request(url, { headers: { Host: "127.0.0.1:4997" } })).status).toBe(401);
    const response = await app.request(url, {
      headers: { Host: "127.0.0.1:4997", Authorization: "Bearer t" },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/plain; version=0.0.4");
    expect(await response.text()).toMatch(/^session_retention_sessions 1$/m);

    const file = join(mkdtempSync(join(tmpdir(), "sr-prom-")), "session_retention.prom");
    expect(
      await runCli(["metrics", "--textfile", file, "--root", root], { stdout: () => {}, stderr: () => {} }),
    ).toBe(0);
    expect(readFileSync(file, "utf8")).toMatch(/^session_retention_sessions 1$/m);
    expect(statSync(file).mode & 0o777).toBe(0o644);
  });
});

describe("metrics --textfile: a place it cannot write", () => {
  /** The real CLI, for its exit status and what it prints (a stack trace would show here). */
  const metrics = (args: string[], env: NodeJS.ProcessEnv = process.env) =>
    spawnSync(process.execPath, [BIN, "metrics", ...args], { env, encoding: "utf8" });
  const store = () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), "sr-metrics-")));
    writeSession(root, "/work/app", 1);
    return root;
  };

  it.each<[string, (folder: string) => string, RegExp]>([
    ["a folder", (folder) => folder, /--textfile .* is a folder: give the path of a file in it$/],
    [
      "a file in a folder that does not exist",
      (folder) => join(folder, "none", "m.prom"),
      /--textfile .*: its folder .*\/none does not exist$/,
    ],
  ])("%s → one line naming it, exit 2, nothing written", (_, target, message) => {
    const folder = realpathSync(mkdtempSync(join(tmpdir(), "sr-textfile-")));
    const run = metrics(["--root", store(), "--textfile", target(folder)]);
    expect(run.status).toBe(2);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr.trim()).toMatch(message);
    expect(readdirSync(folder)).toEqual([]);
  });

  it.skipIf(!canRunAsNobody)(
    "a folder it may not write to → one line, exit 2 (as an unprivileged user)",
    () => {
      const place = mkdtempSync(join("/tmp", "sr-unwritable-"));
      try {
        chmodSync(place, 0o755);
        const home = join(place, "home");
        const out = join(place, "out");
        const root = join(home, "sessions");
        mkdirSync(root, { recursive: true });
        mkdirSync(out);
        for (const path of [home, root]) chownSync(path, 65534, 65534);
        const run = runAsNobody([BIN, "metrics", "--root", root, "--textfile", join(out, "m.prom")], {
          cwd: place,
          env: {
            HOME: home,
            PI_CODING_AGENT_DIR: join(home, ".pi", "agent"),
            XDG_DATA_HOME: join(home, "share"),
          },
        });
        expect(run.status, run.stderr).toBe(2);
        expect(run.stderr.trim()).toBe(
          `session-retention: cannot write --textfile ${join(out, "m.prom")}: permission denied (EACCES)`,
        );
        expect(readdirSync(out)).toEqual([]);
      } finally {
        rmSync(place, { recursive: true, force: true });
      }
    },
  );

  it("replaces the file whole, through a temporary file in the same folder", () => {
    const folder = realpathSync(mkdtempSync(join(tmpdir(), "sr-textfile-")));
    const file = join(folder, "session_retention.prom");
    const root = store();
    expect(metrics(["--root", root, "--textfile", file]).status).toBe(0);
    const first = statSync(file).ino;
    expect(metrics(["--root", root, "--textfile", file]).status).toBe(0);
    // A new inode: renamed over, never rewritten in place (node_exporter never reads half a file).
    expect(statSync(file).ino).not.toBe(first);
    expect(readdirSync(folder)).toEqual(["session_retention.prom"]);
  });
});
