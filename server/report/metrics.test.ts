import { mkdtempSync, readFileSync, realpathSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { quotaState } from "../../shared/quota.js";
import { writeSession } from "../../test-support/pi-store.js";
import { runCli } from "../cli/main.js";
import { createApp } from "../http/app.js";
import { createDashboardService } from "../http/dashboard-service.js";
import { renderMetrics } from "./metrics.js";

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
    expect(lines).toContain("session_retention_soft_deleted_total 1");
    expect(lines).toContain("session_retention_restored_total 1");
    expect(lines).toContain("session_retention_purged_total 0");
    // Every sample line is "name{labels} value".
    for (const line of lines.filter((l) => !l.startsWith("#")))
      expect(line).toMatch(/^session_retention_[a-z_]+(\{[^}]*\})? [-0-9.e+NaN]+$/);
  });
});

describe("metrics endpoints", () => {
  it("GET /metrics needs the token and answers Prometheus text; the CLI writes a textfile atomically", async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), "sr-metrics-")));
    writeSession(root, "/work/app", 2);
    const service = createDashboardService({
      roots: [root],
      adapterStores: [],
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
