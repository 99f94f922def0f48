// `session-retention audit`: the append-only log of every change, newest first.
import { parseArgs } from "node:util";
import { formatBytes } from "../../shared/format.js";
import { visible } from "../../shared/visible-text.js";
import { readAudit } from "../state/audit-log.js";
import { statePaths } from "../state/state-dir.js";
import { parseDuration } from "./duration.js";
import type { CliIo } from "./io.js";
import { UsageError } from "./errors.js";

export const AUDIT_HELP = `Usage: session-retention audit [--json] [--since 7d|2026-11-01]

Prints the audit log (<agentDir>/session-retention/audit.jsonl), newest first: time, actor,
action, mode, result, bytes, and every item with its outcome.

Examples:
  session-retention audit
  session-retention audit --since 7d
  session-retention audit --since 2026-11-01 --json`;

export async function runAudit(args: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      json: { type: "boolean", default: false },
      since: { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
    strict: true,
  });
  if (values.help) {
    io.stdout(AUDIT_HELP);
    return 0;
  }
  let since = -Infinity;
  if (values.since !== undefined) {
    since = /^\d{4}-\d{2}-\d{2}/.test(values.since)
      ? Date.parse(values.since)
      : Date.now() - parseDuration(values.since, "--since");
    if (Number.isNaN(since))
      throw new UsageError(`--since wants a date or a duration, got "${values.since}"`);
  }
  const { entries, unreadableLines } = readAudit(statePaths().auditLog);
  const shown = entries.filter((e) => Date.parse(e.time) >= since);
  if (values.json) {
    io.stdout(JSON.stringify({ entries: shown, unreadableLines }));
    return 0;
  }
  if (shown.length === 0) io.stdout("No audit entries.");
  for (const e of shown) {
    io.stdout(
      `${e.time}  ${e.actor}  ${e.action}${e.mode ? ` (${e.mode})` : ""}  ${e.result}` +
        (e.bytes !== undefined ? `  ${formatBytes(e.bytes)}` : "") +
        (e.detail ? `  — ${visible(e.detail)}` : ""),
    );
    for (const item of e.items)
      io.stdout(
        `    ${item.result}  ${visible(item.path || item.id)}${item.destination ? ` → ${visible(item.destination)}` : ""}${item.reason ? `  (${visible(item.reason)})` : ""}`,
      );
  }
  if (unreadableLines > 0) io.stderr(`note: ${unreadableLines} unreadable line(s) in the audit log`);
  return 0;
}
