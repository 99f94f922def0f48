// Cleanup reports, Markdown and JSON: for a plan before anything is touched, and for cleanups that
// happened (from the audit log). Pure, so the CLI and the dashboard export the same document.
import type { AuditEntry } from "./audit.js";
import { formatBytes } from "./format.js";
import { describeSweep, type Plan } from "./plan.js";
import { describeQuota } from "./quota.js";
import { AGENT_LABELS, type StoreKind } from "./store-kinds.js";

/** Markdown table cells: pipes and newlines would break the row. */
const cell = (text: string) => text.replaceAll("|", "\\|").replaceAll("\n", " ");

const table = (headers: string[], rows: string[][]) =>
  [
    `| ${headers.join(" | ")} |`,
    `| ${headers.map(() => "---").join(" | ")} |`,
    ...rows.map((row) => `| ${row.map(cell).join(" | ")} |`),
  ].join("\n");

interface GroupRow {
  sessions: number;
  bytes: number;
  candidates: number;
  toFree: number;
}

/** Per group (a namespace, an agent): sessions and bytes now, and what the plan would remove. */
function groupRows<K extends string>(
  plan: Plan,
  keyOf: (s: Pick<Plan["kept"][number], "namespace" | "store">) => K,
) {
  const rows = new Map<K, GroupRow>();
  const row = (key: K) => {
    let r = rows.get(key);
    if (!r) rows.set(key, (r = { sessions: 0, bytes: 0, candidates: 0, toFree: 0 }));
    return r;
  };
  for (const k of plan.kept) {
    const r = row(keyOf(k));
    r.sessions++;
    r.bytes += k.sizeBytes;
  }
  for (const c of plan.candidates) {
    const r = row(keyOf(c));
    r.sessions++;
    r.bytes += c.sizeBytes;
    r.candidates++;
    r.toFree += c.sizeBytes;
  }
  return [...rows].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

const groupCells = (r: GroupRow) => [
  String(r.sessions),
  formatBytes(r.bytes),
  String(r.candidates),
  formatBytes(r.toFree),
];

/**
 * Per agent, when there is more than one or an agent has a quota or a cleanup of its own: what each
 * holds and loses, where its quota stands before and after, and what the agent itself will delete
 * whatever this plan says. A plan of pi's store alone gets nothing here.
 */
function agentSection(plan: Plan): string[] {
  const rows = groupRows(plan, (s) => s.store.kind);
  const sweeps = plan.externalSweeps ?? [];
  if (rows.length < 2 && plan.agentQuotas.length === 0 && sweeps.length === 0) return [];
  const quotaOf = new Map<StoreKind, Plan["agentQuotas"][number]>(plan.agentQuotas.map((q) => [q.agent, q]));
  const out = [
    "## Per agent",
    "",
    table(
      ["agent", "sessions", "size", "to remove", "to free", "quota before", "quota after"],
      rows.map(([kind, r]) => {
        const quota = quotaOf.get(kind);
        return [
          AGENT_LABELS[kind],
          ...groupCells(r),
          quota ? `${describeQuota(quota.before)} → ${quota.before.level}` : "none",
          quota ? `${describeQuota(quota.after)} → ${quota.after.level}` : "none",
        ];
      }),
    ),
  ];
  if (sweeps.length > 0)
    out.push(
      "",
      "### The agents' own cleanups",
      "",
      "They delete for good, with no trash, whatever this plan says:",
      "",
      ...sweeps.map((sweep) => `- ${describeSweep(sweep)}`),
    );
  return [...out, ""];
}

export function planReportMarkdown(plan: Plan): string {
  const p = plan.policy;
  const out = [
    `# Cleanup plan — ${plan.evaluatedAt.slice(0, 16).replace("T", " ")} UTC`,
    "",
    "Nothing has been deleted: this is what the policy would do.",
    "",
    "## Policy",
    "",
    `- mode: ${plan.mode}; eviction: ${plan.eviction}`,
    `- quota: ${p.quota.maxTotalSizeBytes === null ? "no size limit" : formatBytes(p.quota.maxTotalSizeBytes)}, ${p.quota.maxSessionCount === null ? "no count limit" : `${p.quota.maxSessionCount} sessions`} (info ${p.quota.infoRatio}, warn ${p.quota.warnRatio})`,
    `- retention: max age ${p.retention.maxAgeDays === null ? "off" : `${p.retention.maxAgeDays} days`}, keep ${p.retention.minKeepRecentCount} most recent, keep ${p.retention.keepLastPerNamespace} per namespace`,
    `- protected patterns: ${p.protection.protectedPatterns.length ? p.protection.protectedPatterns.map((x) => `\`${x}\``).join(", ") : "none"}`,
    "",
    "## Totals",
    "",
    table(
      ["", "sessions", "size", "quota", "level"],
      [
        [
          "before",
          String(plan.before.sessionCount),
          formatBytes(plan.before.totalBytes),
          describeQuota(plan.quotaBefore),
          plan.quotaBefore.level,
        ],
        [
          "after",
          String(plan.after.sessionCount),
          formatBytes(plan.after.totalBytes),
          describeQuota(plan.quotaAfter),
          plan.quotaAfter.level,
        ],
      ],
    ),
    "",
    `Bytes to free: ${formatBytes(plan.bytesToFree)} (${plan.bytesToFree} bytes) in ${plan.candidates.length} sessions.`,
    "",
    "## Per namespace",
    "",
    table(
      ["namespace", "sessions", "size", "to remove", "to free"],
      groupRows(plan, (s) => s.namespace).map(([ns, r]) => [ns, ...groupCells(r)]),
    ),
    "",
    ...agentSection(plan),
    "## Would be removed",
    "",
    plan.candidates.length === 0
      ? "Nothing."
      : table(
          ["session", "title", "size", "last used", "rule", "why"],
          plan.candidates.map((c) => [
            c.path,
            c.title ?? "",
            formatBytes(c.sizeBytes),
            c.lastUsedAt.slice(0, 10),
            c.rule,
            c.detail,
          ]),
        ),
    "",
    "## Kept",
    "",
    plan.kept.length === 0
      ? "Nothing."
      : table(
          ["session", "size", "last used", "reason", "why"],
          plan.kept.map((k) => [
            k.path,
            formatBytes(k.sizeBytes),
            k.lastUsedAt.slice(0, 10),
            k.reason,
            k.detail,
          ]),
        ),
  ];
  for (const w of plan.warnings) out.push("", `> ⚠ ${w.message}`);
  if (plan.refusal) out.push("", `> ⛔ ${plan.refusal.message}`);
  return `${out.join("\n")}\n`;
}

/** What cleanups did, from the audit log: soft deletes, auto-cleans, restores and purges. */
export interface CleanupReport {
  since: string;
  generatedAt: string;
  operations: AuditEntry[];
  totals: { moved: number; bytesFreed: number; skipped: number; restored: number; purged: number };
}

const CLEANUP_ACTIONS = new Set<AuditEntry["action"]>(["soft-delete", "auto-clean", "restore", "purge"]);

export function cleanupReport(audit: readonly AuditEntry[], since: Date, now: Date): CleanupReport {
  const operations = audit
    .filter(
      (e) => CLEANUP_ACTIONS.has(e.action) && e.mode !== "dry-run" && Date.parse(e.time) >= since.getTime(),
    )
    .sort((a, b) => (a.time < b.time ? -1 : 1));
  const totals = { moved: 0, bytesFreed: 0, skipped: 0, restored: 0, purged: 0 };
  for (const e of operations)
    for (const item of e.items) {
      if (item.result === "moved") {
        totals.moved++;
        totals.bytesFreed += item.bytes ?? 0;
      } else if (item.result === "skipped") totals.skipped++;
      else if (item.result === "restored") totals.restored++;
      else if (item.result === "purged") totals.purged++;
    }
  return { since: since.toISOString(), generatedAt: now.toISOString(), operations, totals };
}

export function cleanupReportMarkdown(report: CleanupReport): string {
  const t = report.totals;
  const out = [
    `# Cleanups since ${report.since.slice(0, 10)}`,
    "",
    `Generated ${report.generatedAt.slice(0, 16).replace("T", " ")} UTC.`,
    "",
    `Moved to the trash (still on disk until emptied): ${t.moved} sessions, ${formatBytes(t.bytesFreed)} (${t.bytesFreed} bytes). Skipped: ${t.skipped}. Restored: ${t.restored}. Purged: ${t.purged}.`,
  ];
  for (const e of report.operations) {
    out.push(
      "",
      `## ${e.time.slice(0, 19).replace("T", " ")} — ${e.action}${e.mode ? ` (${e.mode})` : ""} by ${e.actor}: ${e.result}${e.bytes !== undefined ? `, ${formatBytes(e.bytes)}` : ""}`,
      "",
      table(
        // The title as recorded with the item; older entries have none.
        ["session", "title", "result", "size", "where", "reason"],
        e.items.map((i) => [
          i.path || i.id,
          i.title ?? "",
          i.result,
          i.bytes !== undefined ? formatBytes(i.bytes) : "",
          i.destination ?? "",
          i.reason ?? "",
        ]),
      ),
    );
  }
  if (report.operations.length === 0) out.push("", "No cleanups in this period.");
  return `${out.join("\n")}\n`;
}
