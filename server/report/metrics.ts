// Prometheus text exposition of where the stores stand, for `GET /metrics` and for node_exporter's
// textfile collector (`session-retention metrics --textfile FILE`): a team can watch many machines.
import type { AuditEntry } from "../../shared/audit.js";
import { type Forecast, forecast } from "../../shared/growth.js";
import { agentQuotaStates, QUOTA_LEVELS, type QuotaState, quotaState } from "../../shared/quota.js";
import type { ExternalSweep } from "../../shared/plan.js";
import type { NamespaceUsage, ScanProblem, ScanReport } from "../../shared/scan-report.js";
import { summarizeAgents } from "../../shared/scan-summary.js";
import type { StoreKind, StoreRef } from "../../shared/session-record.js";
import { trashTotals } from "../../shared/trash.js";
import { visibleLines } from "../../shared/visible-text.js";
import { listTrash } from "../delete/list-trash.js";
import { scan } from "../scan/scanner.js";
import { readAudit } from "../state/audit-log.js";
import { type LoadConfigOptions, loadConfig } from "../config/config-file.js";
import { growthFile, readGrowth } from "../state/growth-store.js";
import { statePaths } from "../state/state-dir.js";
import { externalSweepsOf } from "../stores/store-adapter.js";

export interface MetricsInput {
  summary: Pick<ScanReport["summary"], "totalBytes" | "sessionCount">;
  namespaces: readonly NamespaceUsage[];
  /** Per agent (store kind). */
  agents?: ReturnType<typeof summarizeAgents>;
  /** What agents' own retention deletes next (Claude Code's cleanup). */
  externalSweeps?: readonly ExternalSweep[];
  durationMs: number;
  /** Undefined while the config is invalid. */
  quota?: QuotaState;
  /** Agents with a quota of their own (`quota.agents`). */
  agentQuotas?: Partial<Record<StoreKind, QuotaState>>;
  audit: readonly AuditEntry[];
  /** What is in the trash now (entries still in it). */
  trash?: { count: number; bytes: number };
  /** The growth forecast the dashboard shows; undefined with too little history. */
  forecast?: Forecast;
  /** The scan's problems that belong to no session (unreadable files, permission denied…). */
  problems?: readonly Pick<ScanProblem, "code">[];
}

/**
 * Every problem code, so each has a series (0 when none) and an alert can tell "no problems" from
 * "no data". A Record, so a new code in ScanProblemSchema fails the typecheck until it is listed.
 */
const PROBLEM_CODES = Object.keys({
  symlink: true,
  "not-regular": true,
  "permission-denied": true,
  unreadable: true,
  "not-a-session": true,
} satisfies Record<ScanProblem["code"], true>) as ScanProblem["code"][];

const DAY_SECONDS = 86_400;

/**
 * A label value as the exposition format wants it: backslash, double quote and line feed escaped
 * (`\\`, `\"`, `\n`), the only escapes it knows. Every other control character (ESC, CR, DEL, C1,
 * bidi controls) is first made visible as the text `\u001b`, as everywhere we show a name: raw, it
 * would act on a terminal that prints the metrics; JSON-escaped, the format rejects it.
 */
const label = (value: string) =>
  visibleLines(value).replaceAll("\\", "\\\\").replaceAll('"', '\\"').replaceAll("\n", "\\n");

/** A HELP text as the format wants it: backslash and line feed escaped. */
const helpText = (text: string) => text.replaceAll("\\", "\\\\").replaceAll("\n", "\\n");

export function renderMetrics(input: MetricsInput): string {
  const lines: string[] = [];
  const metric = (
    name: string,
    help: string,
    type: "gauge" | "counter",
    samples: Array<[string, number]>,
  ) => {
    lines.push(`# HELP ${name} ${helpText(help)}`, `# TYPE ${name} ${type}`);
    for (const [labels, value] of samples)
      lines.push(`${name}${labels} ${Number.isFinite(value) ? value : "NaN"}`);
  };
  metric("session_retention_bytes", "Total size of all sessions in bytes.", "gauge", [
    ["", input.summary.totalBytes],
  ]);
  metric("session_retention_sessions", "Number of sessions.", "gauge", [["", input.summary.sessionCount]]);
  if (input.quota) {
    const measures = (["size", "count"] as const).filter((m) => input.quota![m]);
    metric(
      "session_retention_quota_ratio",
      "Usage as a share of the quota limit (1 = at the limit).",
      "gauge",
      measures.map((m) => [`{measure="${m}"}`, input.quota![m]!.ratio]),
    );
    metric("session_retention_quota_level", "Quota level: 0 ok, 1 info, 2 warn, 3 critical.", "gauge", [
      [`{level="${input.quota.level}"}`, QUOTA_LEVELS.indexOf(input.quota.level)],
    ]);
  }
  metric(
    "session_retention_agent_bytes",
    "Size of each agent's sessions in bytes.",
    "gauge",
    (input.agents ?? []).map((a) => [`{agent="${a.kind}"}`, a.totalBytes]),
  );
  metric(
    "session_retention_agent_sessions",
    "Number of sessions per agent.",
    "gauge",
    (input.agents ?? []).map((a) => [`{agent="${a.kind}"}`, a.sessionCount]),
  );
  const agentMeasures = Object.entries(input.agentQuotas ?? {}).flatMap(([agent, state]) =>
    (["size", "count"] as const).flatMap((m): Array<[string, number]> =>
      state[m] ? [[`{agent="${agent}",measure="${m}"}`, state[m].ratio]] : [],
    ),
  );
  if (agentMeasures.length > 0) {
    metric(
      "session_retention_agent_quota_ratio",
      "An agent's usage as a share of its own quota limit (quota.agents; 1 = at the limit).",
      "gauge",
      agentMeasures,
    );
    // The level as well as the ratio: the thresholds (quota.infoRatio, warnRatio) are in each
    // machine's config, so an alert on the level agrees with what its dashboard shows.
    metric(
      "session_retention_agent_quota_level",
      "An agent's quota level: 0 ok, 1 info, 2 warn, 3 critical.",
      "gauge",
      Object.entries(input.agentQuotas ?? {}).map(([agent, state]) => [
        `{agent="${agent}"}`,
        QUOTA_LEVELS.indexOf(state.level),
      ]),
    );
  }
  metric(
    "session_retention_agent_sweep_bytes",
    "Bytes of the sessions an agent's own retention deletes for good the next time it runs (Claude Code's cleanupPeriodDays).",
    "gauge",
    (input.externalSweeps ?? []).map((s) => [`{agent="${s.agent}",store="${label(s.storeRoot)}"}`, s.bytes]),
  );
  metric(
    "session_retention_namespace_bytes",
    "Size of each namespace's sessions in bytes.",
    "gauge",
    input.namespaces.map((n) => [`{namespace="${label(n.namespace)}"}`, n.totalBytes]),
  );
  metric(
    "session_retention_namespace_sessions",
    "Number of sessions per namespace.",
    "gauge",
    input.namespaces.map((n) => [`{namespace="${label(n.namespace)}"}`, n.sessionCount]),
  );
  metric("session_retention_scan_duration_seconds", "Duration of the last scan.", "gauge", [
    ["", input.durationMs / 1000],
  ]);
  if (input.trash) {
    metric("session_retention_trash_bytes", "Bytes of the sessions in the trash now.", "gauge", [
      ["", input.trash.bytes],
    ]);
    metric("session_retention_trash_sessions", "Number of sessions in the trash now.", "gauge", [
      ["", input.trash.count],
    ]);
  }
  if (input.forecast) {
    metric(
      "session_retention_growth_bytes_per_day",
      "Growth over the last 7 days in bytes per day (negative when shrinking), as the dashboard's forecast.",
      "gauge",
      [["", input.forecast.ratePerDay]],
    );
    // Only when the size quota will be reached at that rate: an absent series means "not filling".
    if (input.forecast.daysToFull !== null)
      metric(
        "session_retention_forecast_full_seconds",
        "Seconds until the size quota is reached at the 7-day growth rate.",
        "gauge",
        [["", input.forecast.daysToFull * DAY_SECONDS]],
      );
  }
  if (input.problems) {
    const problems = input.problems;
    metric(
      "session_retention_scan_problems",
      "Problems the last scan found that belong to no session, by code (unreadable, permission-denied…).",
      "gauge",
      PROBLEM_CODES.map((code) => [`{code="${code}"}`, problems.filter((p) => p.code === code).length]),
    );
  }
  const count = (action: AuditEntry["action"][], result: string) =>
    input.audit
      .filter((e) => action.includes(e.action))
      .reduce((t, e) => t + e.items.filter((i) => i.result === result).length, 0);
  metric("session_retention_soft_deleted_total", "Sessions moved to the trash, ever.", "counter", [
    ["", count(["soft-delete", "auto-clean"], "moved")],
  ]);
  metric("session_retention_restored_total", "Sessions restored from the trash, ever.", "counter", [
    ["", count(["restore"], "restored")],
  ]);
  metric("session_retention_purged_total", "Sessions deleted for good, ever.", "counter", [
    ["", count(["purge"], "purged")],
  ]);
  return `${lines.join("\n")}\n`;
}

/** Scans the stores and renders their metrics (the same for the server and the CLI). */
export async function collectMetrics(stores: {
  stores: readonly StoreRef[];
  config: LoadConfigOptions;
}): Promise<string> {
  const paths = statePaths();
  // A machine that only writes the textfile from a timer builds the history the forecast needs.
  const report = await scan(stores.stores, {
    growth: { recordIn: paths.dir },
    cacheDir: paths.scanCache,
    topN: 0,
  });
  const config = loadConfig(stores.config);
  const ahead = forecast(
    readGrowth(growthFile(paths.dir, report.stores)),
    config.ok ? config.config.quota.maxTotalSizeBytes : null,
    new Date(),
  );
  const sweeps = await externalSweepsOf(report.stores, report.sessions);
  const agents = summarizeAgents(report.stores, report.sessions);
  return renderMetrics({
    summary: report.summary,
    namespaces: report.namespaces,
    agents,
    externalSweeps: sweeps,
    durationMs: report.stats.durationMs,
    ...(config.ok
      ? {
          quota: quotaState(report.summary.totalBytes, report.summary.sessionCount, config.config.quota),
          agentQuotas: agentQuotaStates(agents, config.config.quota),
        }
      : {}),
    audit: readAudit(paths.auditLog).entries,
    trash: trashTotals(listTrash({ actor: "cli" }).entries),
    problems: report.problems,
    ...(ahead ? { forecast: ahead } : {}),
  });
}
