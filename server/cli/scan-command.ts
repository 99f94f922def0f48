// `session-retention scan`: what is on disk, as a table for people or one JSON document for scripts.
import { parseArgs } from "node:util";
import { formatBytes, formatRelativeTime } from "../../shared/format.js";
import type { ScanReport } from "../../shared/scan-report.js";
import { describeFinding } from "../../shared/scan-summary.js";
import type { SessionRecord, StoreRef } from "../../shared/session-record.js";
import { AGENT_LABELS, STORE_KINDS } from "../../shared/store-kinds.js";
import { compareSessions, isSortOrder } from "../../shared/sort.js";
import { sessionTitle } from "../../shared/session-title.js";
import { visible } from "../../shared/visible-text.js";
import { scanOverview, type ScanOverview } from "../scan/overview.js";
import { configuredRoot } from "../config/configured-root.js";
import { statePaths } from "../state/state-dir.js";
import { UsageError } from "./errors.js";
import { resolveStores } from "../scan/resolve-roots.js";
import { renderTable } from "./table.js";
import { scanProgressLine } from "./progress.js";
import { notePiWithoutExtension, piWithoutExtension } from "./pi-notice.js";
import { STORE_FLAGS, storeFlagsOf } from "./store-flags.js";
import { adapterOf } from "../stores/store-adapter.js";

export const SCAN_HELP = `Usage: session-retention scan [options]

Scans the session stores (pi's, and agentsh's, Claude Code's, Codex's and Gemini CLI's when this
machine has them) and reports count, size, per-namespace usage and every session.

Options:
  --root DIR       scan this pi store instead of the configured or default stores (repeatable)
  --store KIND:DIR scan this store (KIND: ${STORE_KINDS.join(", ")}) instead (repeatable)
  --config FILE    read the store root ("sessionDir") from this config file
  --json           print one JSON document { summary, namespaces, sessions, problems, … }
  --top N          sessions listed in the table and in summary.largest (default 20)
  --sort ORDER     lru (least recently used first, default) | size (largest first) | created (oldest first)
  --precise        last used = the last entry's timestamp instead of the file's mtime
  --no-cache       read every file (the cache is neither used nor updated)
  -h, --help       this help

Without --root: "sessionDir" of <agentDir>/session-retention.json if set, else pi's locations:
$PI_CODING_AGENT_DIR/sessions (else ~/.pi/agent/sessions), plus the custom dir in
$PI_CODING_AGENT_SESSION_DIR or "sessionDir" in <agentDir>/settings.json; Claude Code's
$CLAUDE_CONFIG_DIR (else ~/.claude) when it has a projects/ folder; Codex's $CODEX_HOME (else
~/.codex) when it has sessions/ or archived_sessions/; Gemini CLI's $GEMINI_CLI_HOME/.gemini (else
~/.gemini) when it has a tmp/ folder; and agentsh's ~/.agentsh/sessions when it exists. The
config's "stores" replaces all of these.
Exit status: 0 on success (warnings included), 2 on an unusable store or bad arguments.

Examples:
  session-retention scan
  session-retention scan --sort size --top 10
  session-retention scan --store claude:~/.claude --json`;

export interface ScanFlags {
  roots: string[];
  stores: string[];
  config?: string;
  json: boolean;
  top: number;
  sort: "lru" | "size" | "created";
  precise: boolean;
  cache: boolean;
}

export function parseScanFlags(args: string[]): ScanFlags | "help" {
  const { values } = parseArgs({
    args,
    options: {
      ...STORE_FLAGS,
      config: { type: "string" },
      json: { type: "boolean", default: false },
      top: { type: "string", default: "20" },
      sort: { type: "string", default: "lru" },
      precise: { type: "boolean", default: false },
      "no-cache": { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.help) return "help";
  const top = Number(values.top);
  if (!Number.isInteger(top) || top < 0)
    throw new UsageError(`--top wants a whole number ≥ 0, got "${values.top}"`);
  if (!isSortOrder(values.sort))
    throw new UsageError(`--sort wants lru, size or created, got "${values.sort}"`);
  return {
    roots: values.root,
    stores: values.store,
    ...(values.config !== undefined ? { config: values.config } : {}),
    json: values.json,
    top,
    sort: values.sort,
    precise: values.precise,
    cache: !values["no-cache"],
  };
}

const rootsOf = (stores: readonly StoreRef[]) => stores.map((s) => s.root);

/** How many things that are not sessions the table lists one by one. */
const LISTED_NOT_SESSIONS = 10;

/** The session's name, else its last or first message, quoted after its namespace; its time is in CREATED already. */
function titleOf(session: SessionRecord): string {
  const { title, source } = sessionTitle(session);
  return source === "time" ? "" : `  “${title}”`;
}

function sessionRows(sessions: readonly SessionRecord[], now: Date, withAgent: boolean) {
  return sessions.map((s) => [
    formatRelativeTime(s.lastUsedAt, now),
    formatBytes(s.sizeBytes),
    String(s.messageCount),
    s.createdAt.slice(0, 10),
    ...(withAgent ? [AGENT_LABELS[s.store.kind]] : []),
    `${s.namespace}${titleOf(s)}${s.tags?.length ? `  ${s.tags.map((t) => `#${t}`).join(" ")}` : ""}${s.archivedAt ? "  (archived)" : ""}${s.family ? `  family …${s.family.slice(-8)}` : ""}${s.warnings.length ? `  ⚠ ${s.warnings.map((w) => w.code).join(",")}` : ""}`,
  ]);
}

/** The overview as a table. */
export function renderOverview(report: ScanOverview, flags: Pick<ScanFlags, "sort">, now: Date): string {
  const out: string[] = [];
  out.push(
    `Store${report.stores.length > 1 ? "s" : ""}: ${report.stores.map((s) => `${s.kind} ${visible(s.root)}`).join(", ")}`,
  );
  out.push("");
  const order = { lru: "least recently used first", size: "largest first", created: "oldest created first" }[
    flags.sort
  ];
  const { shown, agents } = report;
  // Which agent a session is from matters once there is more than one; for pi alone it is noise
  // (and the agents' table, which sums every session again, is not made).
  const withAgent = agents.length > 0;
  if (shown.length > 0) {
    out.push(
      `Sessions (${order}${shown.length < report.sessionCount ? `, ${shown.length} of ${report.sessionCount}` : ""}):`,
    );
    out.push(
      renderTable(
        ["LAST USED", "SIZE", "MSGS", "CREATED", ...(withAgent ? ["AGENT"] : []), "NAMESPACE / TITLE"],
        sessionRows(shown, now, withAgent),
        [1, 2],
      ),
    );
    out.push("");
  }
  if (withAgent) {
    out.push("Agents:");
    out.push(
      renderTable(
        ["SIZE", "SESSIONS", "LAST USED", "AGENT"],
        agents.map((a) => [
          formatBytes(a.totalBytes),
          String(a.sessionCount),
          a.lastUsedAt ? formatRelativeTime(a.lastUsedAt, now) : "—",
          AGENT_LABELS[a.kind],
        ]),
        [0, 1],
      ),
    );
    out.push("");
  }
  if (report.namespaces.length > 0) {
    out.push("Namespaces:");
    out.push(
      renderTable(
        ["SIZE", "SESSIONS", "LAST USED", "NAMESPACE"],
        report.namespaces.map((n) => [
          formatBytes(n.totalBytes),
          String(n.sessionCount),
          formatRelativeTime(n.lastUsedAt, now),
          n.namespace,
        ]),
        [0, 1],
      ),
    );
    out.push("");
  }
  for (const finding of report.findings) {
    const sentence = describeFinding(finding, formatBytes);
    if (sentence) out.push(`! ${visible(sentence)}`);
  }
  // Things that are not sessions can be many (a root pointed at the wrong folder): the first few.
  let notSessions = 0;
  for (const problem of report.problems)
    if (problem.code !== "not-a-session" || ++notSessions <= LISTED_NOT_SESSIONS)
      out.push(`! ${visible(problem.path)}: ${visible(problem.message)}`);
  if (notSessions > LISTED_NOT_SESSIONS)
    out.push(
      `! …and ${notSessions - LISTED_NOT_SESSIONS} more that are not sessions (--json lists them all)`,
    );
  const orphans = report.orphanedMeta;
  if (orphans.length > 0)
    out.push(
      `${orphans.length} session-index file${orphans.length === 1 ? " has" : "s have"} no session any more (${formatBytes(orphans.reduce((t, o) => t + o.sizeBytes, 0))}), e.g. ${visible(orphans[0]!.path)}`,
    );
  const warned = report.sessionsWithWarnings;
  const problemCount = report.problems.length;
  out.push(
    `Total: ${report.sessionCount} session${report.sessionCount === 1 ? "" : "s"}, ${formatBytes(report.totalBytes)} (${report.totalBytes} bytes) in ${report.namespaceCount} namespace${report.namespaceCount === 1 ? "" : "s"}` +
      (warned ? ` · ${warned} with warnings` : "") +
      (problemCount ? ` · ${problemCount} other problem${problemCount === 1 ? "" : "s"}` : ""),
  );
  out.push(
    `Scanned in ${Math.round(report.stats.durationMs)} ms: ${report.stats.filesRead} file${report.stats.filesRead === 1 ? "" : "s"} read, ${report.stats.cacheHits} unchanged.`,
  );
  return out.join("\n");
}

/**
 * The report as one JSON document, one session per line, in chunks: at 100,000 sessions a single
 * `JSON.stringify` would hold the whole document in memory at once. Chunks are separated by the
 * newline each `stdout` call adds.
 */
export function* scanReportJson(report: ScanReport, sessionsPerChunk = 100): Generator<string> {
  const { sessions, ...rest } = report;
  const head = JSON.stringify(rest);
  yield `${head.slice(0, -1)},"sessions":[`;
  for (let i = 0; i < sessions.length; i += sessionsPerChunk) {
    const last = i + sessionsPerChunk >= sessions.length;
    const lines = sessions.slice(i, i + sessionsPerChunk).map((s) => JSON.stringify(s));
    yield lines.join(",\n") + (last ? "" : ",");
  }
  yield "]}";
}

export async function runScan(
  args: string[],
  io: { stdout: (s: string) => void; stderr: (s: string) => void },
) {
  const flags = parseScanFlags(args);
  if (flags === "help") {
    io.stdout(SCAN_HELP);
    return 0;
  }
  const configured = configuredRoot(flags.config !== undefined ? { file: flags.config } : {});
  const { stores, notes } = resolveStores(
    { stores: storeFlagsOf({ root: flags.roots, store: flags.stores }) },
    process.env,
    configured,
  );
  for (const note of notes) io.stderr(`note: ${visible(note)}`);
  const progress = scanProgressLine({ quiet: flags.json });
  const options = {
    growth: { recordIn: statePaths().dir },
    onProgress: progress.onProgress,
    ...(flags.cache ? { cacheDir: statePaths().scanCache } : {}),
    metaDir: statePaths().sessionsMeta,
    precise: flags.precise,
  };
  if (!flags.json) {
    // The table needs sums and a few sessions: the overview's warm way (see scan/overview.ts).
    const overview = await scanOverview(stores, { ...options, top: flags.top, order: flags.sort }).finally(
      progress.done,
    );
    notePiWithoutExtension(
      await piWithoutExtension({
        roots: rootsOf(overview.stores),
        namespaces: overview.namespaces.map((n) => n.namespace),
      }),
      io.stderr,
    );
    io.stdout(renderOverview(overview, flags, new Date()));
    return 0;
  }
  const { scan } = await import("../scan/scanner.js");
  const report = await scan(stores, { ...options, topN: flags.top }).finally(progress.done);
  report.sessions.sort(compareSessions(flags.sort));
  const pis = await piWithoutExtension({
    roots: rootsOf(report.stores),
    namespaces: report.sessions.flatMap((s) => (adapterOf(s.store.kind).processes ? [s.namespace] : [])),
  });
  notePiWithoutExtension(pis, io.stderr);
  if (pis.length > 0) report.piWithoutExtension = pis;
  for (const chunk of scanReportJson(report)) io.stdout(chunk);
  return 0;
}
