// `session-retention report`: a cleanup report in Markdown or JSON — of the plan, before anything is
// touched, or of the cleanups since a date (from the audit log).
import { parseArgs } from "node:util";
import { cleanupReport, cleanupReportMarkdown, planReportMarkdown } from "../../shared/report.js";
import { gatherPlanInputs, planFor } from "../plan/plan-inputs.js";
import { writeOutputFile } from "../report/output-file.js";
import { readAudit } from "../state/audit-log.js";
import { statePaths } from "../state/state-dir.js";
import { visible } from "../../shared/visible-text.js";
import { CONFIG_FLAGS, STORE_FLAGS, configOptions, invalidConfigText } from "./config-command.js";
import { parseDuration } from "./duration.js";
import { UsageError } from "./errors.js";
import type { CliIo } from "./io.js";
import { storeFlagsOf } from "./store-flags.js";

export const REPORT_HELP = `Usage: session-retention report [--format md|json] [--plan | --since 7d|2026-11-01] [--out FILE]

  --plan            the policy's plan: totals and quota before/after, per namespace, every session
                    with its rule or the reason it is kept (default)
  --since D         the cleanups since a date or for a duration back: what moved, what was skipped
                    and why, bytes freed, restores and purges (from the audit log)
  --format md|json  Markdown (default) or JSON
  --out FILE        write the report to FILE instead of printing it
  --config FILE, --set KEY=VALUE, --root DIR, --store KIND:DIR   as for plan

Examples:
  session-retention report
  session-retention report --since 30d --out cleanups.md
  session-retention report --plan --format json`;

export async function runReport(args: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      ...CONFIG_FLAGS,
      format: { type: "string", default: "md" },
      plan: { type: "boolean", default: false },
      since: { type: "string" },
      out: { type: "string" },
      ...STORE_FLAGS,
      help: { type: "boolean", short: "h", default: false },
    },
    strict: true,
  });
  if (values.help) {
    io.stdout(REPORT_HELP);
    return 0;
  }
  if (values.format !== "md" && values.format !== "json")
    throw new UsageError(`--format wants md or json, got "${values.format}"`);
  if (values.plan && values.since !== undefined)
    throw new UsageError("--plan and --since are two different reports");
  const now = new Date();
  let text: string;
  /** The stores the plan looked at: the report stays out of them. */
  let stores: Array<{ path: string; label: string }> = [];
  if (values.since !== undefined) {
    const since = /^\d{4}-\d{2}-\d{2}/.test(values.since)
      ? new Date(values.since)
      : new Date(now.getTime() - parseDuration(values.since, "--since"));
    if (Number.isNaN(since.getTime()))
      throw new UsageError(`--since wants a date or a duration, got "${values.since}"`);
    const report = cleanupReport(readAudit(statePaths().auditLog).entries, since, now);
    text = values.format === "json" ? `${JSON.stringify(report, null, 2)}\n` : cleanupReportMarkdown(report);
  } else {
    const inputs = await gatherPlanInputs({
      config: configOptions(values),
      flagStores: storeFlagsOf(values),
    });
    if (!inputs.config.ok) {
      io.stderr(invalidConfigText(inputs.config));
      return 2;
    }
    const plan = planFor({ ...inputs, config: inputs.config }, now);
    stores = inputs.report.stores.map((s) => ({ path: s.root, label: `${s.kind} store` }));
    text = values.format === "json" ? `${JSON.stringify(plan, null, 2)}\n` : planReportMarkdown(plan);
  }
  if (values.out) {
    writeOutputFile(values.out, text, { what: "--out", stores });
    io.stdout(`report written to ${visible(values.out)}`);
  } else io.stdout(text.trimEnd());
  return 0;
}
