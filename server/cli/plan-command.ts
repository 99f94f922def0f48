// `session-retention plan`: what the policy would remove and why, what it keeps and why, and where
// the quota stands before and after. Deletes nothing.
import { homedir } from "node:os";
import { parseArgs } from "node:util";
import { formatBytes, formatRelativeTime } from "../../shared/format.js";
import { describeSweep, KEEP_REASONS, type Plan, PlanSchema } from "../../shared/plan.js";
import { describeQuota } from "../../shared/quota.js";
import { withAgentTakes } from "../plan/agent-takes.js";
import { gatherPlanInputs, planFor } from "../plan/plan-inputs.js";
import { visible } from "../../shared/visible-text.js";
import { CONFIG_FLAGS, STORE_FLAGS, configOptions, invalidConfigText } from "./config-command.js";
import type { CliIo } from "./io.js";
import { renderTable, renderTopRows, SHOWN_ROWS } from "./table.js";
import { AGENT_LABELS, STORE_KINDS } from "../../shared/session-record.js";
import { scanProgressLine } from "./progress.js";
import { storeFlagsOf } from "./store-flags.js";

export const PLAN_HELP = `Usage: session-retention plan [options]

Shows what the retention policy would remove (each session with the rule that chose it), the
bytes that would be freed, the quota before and after, and the riskiest targets. Deletes nothing.

Options:
  --json            print the plan as one JSON object (candidates, kept, bytesToFree, quotaBefore, …)
  --all             list every candidate (without it: the first ${SHOWN_ROWS}, and how many more)
  --list-kept       also list every kept session with the reason it is kept
  --config FILE     use this config file instead of <agentDir>/session-retention.json
  --set KEY=VALUE   override one setting for this run, e.g. --set retention.maxAgeDays=90 (repeatable)
  --root DIR        use this pi store instead of the configured or default stores (repeatable)
  --store KIND:DIR  use this store (KIND: ${STORE_KINDS.join(", ")}) instead (repeatable)
  -h, --help        this help

Exit status: 0 when a plan was made, 2 when it cannot be (invalid config, unusable store).

Examples:
  session-retention plan
  session-retention plan --set retention.maxAgeDays=90 --all
  session-retention plan --list-kept --json`;

const KEEP_LABEL: Record<Plan["kept"][number]["reason"], string> = {
  active: "active",
  pinned: "pinned",
  protected: "protected",
  "fork-parent": "fork parent",
  recent: "recent",
  "last-in-namespace": "last in namespace",
  "cannot-move": "cannot be moved",
  "within-policy": "within policy",
};

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** How many paths of one left-out group are listed (the rest are counted). */
const LEFT_OUT_LISTED = 10;

/**
 * What a plan leaves out because it cannot be moved now: each reason once, with its sessions
 * under it (each with what holds it back, where that is its own) — never the same paragraph for
 * every session. Empty when nothing is left out.
 */
export function renderLeftOut(groups: Plan["leftOut"], short: (path: string) => string): string[] {
  if (!groups?.length) return [];
  const count = groups.reduce((t, g) => t + g.sessions.length, 0);
  const out = [`Left out: ${plural(count, "session")} that cannot be moved now, not counted above:`];
  for (const group of groups) {
    out.push(`  ${plural(group.sessions.length, "session")}: ${visible(group.reason)}`);
    for (const session of group.sessions.slice(0, LEFT_OUT_LISTED))
      out.push(`    ${short(session.path)}${session.detail ? ` — ${visible(session.detail)}` : ""}`);
    if (group.sessions.length > LEFT_OUT_LISTED)
      out.push(`    …and ${group.sessions.length - LEFT_OUT_LISTED} more`);
  }
  return out;
}

/**
 * What each chosen session's agent will also delete with it (moved with it, in its trash entry):
 * for `plan` and `clean`, said before anything moves. (One whose delete would take what does not
 * go is no candidate: the plan left it out.)
 */
export function agentTakesLines(
  chosen: ReadonlyArray<Pick<Plan["candidates"][number], "path" | "store" | "title" | "alsoDeletes">>,
  short: (path: string) => string,
): string[] {
  const lines: string[] = [];
  for (const c of chosen) {
    const name = c.title ? `“${visible(c.title)}”` : short(c.path);
    for (const t of c.alsoDeletes ?? [])
      lines.push(
        `${AGENT_LABELS[c.store.kind]} will also delete ${visible(t.what)}: “${visible(t.title)}” (${short(t.path)}) goes with ${name}, in its trash entry`,
      );
  }
  return lines;
}

export function renderPlan(
  plan: Plan,
  context: {
    configPath: string;
    configSource: "file" | "defaults";
    listKept: boolean;
    /** Every candidate listed, not the first `SHOWN_ROWS`. */
    all?: boolean;
    home?: string;
  },
  now: Date,
): string {
  const home = context.home ?? homedir();
  // Paths as shown: home as ~, and visible.
  const short = (path: string) => visible(path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path);
  const out: string[] = [];
  out.push(
    `Policy: ${context.configSource === "defaults" ? `defaults (no file at ${short(context.configPath)})` : short(context.configPath)} · mode ${plan.mode} · eviction ${plan.eviction}`,
  );
  out.push(
    `Now:    ${formatBytes(plan.before.totalBytes)} in ${plural(plan.before.sessionCount, "session")} · ${describeQuota(plan.quotaBefore)} → ${plan.quotaBefore.level}`,
  );
  out.push(
    `After:  ${formatBytes(plan.after.totalBytes)} in ${plural(plan.after.sessionCount, "session")} · ${describeQuota(plan.quotaAfter)} → ${plan.quotaAfter.level}`,
  );
  for (const ns of plan.namespaceQuotas)
    out.push(
      `        ${visible(ns.namespace)} (pattern "${visible(ns.pattern)}"): ${describeQuota(ns.before)} → ${ns.before.level}; after: ${ns.after.level}`,
    );
  for (const agent of plan.agentQuotas)
    out.push(
      `        ${agent.agent} sessions: ${describeQuota(agent.before)} → ${agent.before.level}; after: ${agent.after.level}`,
    );
  out.push("");

  if (plan.candidates.length === 0) out.push("Candidates: none — nothing would be removed.");
  else {
    out.push(
      `Candidates: ${plural(plan.candidates.length, "session")}, ${formatBytes(plan.bytesToFree)} (${plan.bytesToFree} bytes) to free`,
    );
    out.push(
      renderTopRows(
        // The path last: it is the long one.
        ["RULE", "SIZE", "LAST USED", "WHY", "TITLE", "SESSION"],
        plan.candidates.map((c) => [
          c.rule,
          formatBytes(c.sizeBytes),
          formatRelativeTime(c.lastUsedAt, now),
          c.detail,
          c.title ?? "",
          short(c.path),
        ]),
        [1],
        context.all ?? false,
      ),
    );
    out.push(...agentTakesLines(plan.candidates, short));
    out.push("");
    out.push("Riskiest (the largest and the most recently used of what would go):");
    out.push(
      renderTable(
        ["SIZE", "LAST USED", "TITLE", "SESSION"],
        plan.riskiest.map((c) => [
          formatBytes(c.sizeBytes),
          formatRelativeTime(c.lastUsedAt, now),
          c.title ?? "",
          short(c.path),
        ]),
        [0],
      ),
    );
  }
  const leftOut = renderLeftOut(plan.leftOut, short);
  if (leftOut.length > 0) out.push("", ...leftOut);
  out.push("");

  const byReason = KEEP_REASONS.map(
    (reason) => [reason, plan.kept.filter((k) => k.reason === reason).length] as const,
  ).filter(([, n]) => n > 0);
  out.push(
    `Kept: ${plural(plan.kept.length, "session")}` +
      (byReason.length
        ? ` (${byReason.map(([reason, n]) => `${KEEP_LABEL[reason]} ${n}`).join(" · ")})`
        : "") +
      (context.listKept || plan.kept.length === 0 ? "" : " — --list-kept lists them"),
  );
  if (context.listKept && plan.kept.length > 0)
    out.push(
      renderTable(
        ["REASON", "SIZE", "LAST USED", "WHY", "SESSION"],
        plan.kept.map((k) => [
          KEEP_LABEL[k.reason],
          formatBytes(k.sizeBytes),
          formatRelativeTime(k.lastUsedAt, now),
          k.detail,
          short(k.path),
        ]),
        [1],
      ),
    );
  const orphans = plan.orphanedMeta ?? [];
  if (orphans.length > 0)
    out.push(
      `Orphaned session-index files: ${orphans.length} (${formatBytes(orphans.reduce((t, o) => t + o.sizeBytes, 0))}), their sessions are gone — \`clean\` moves them too.`,
    );
  for (const warning of plan.warnings) out.push(`! ${visible(warning.message)}`);
  for (const sweep of plan.externalSweeps ?? []) {
    out.push(
      `! ${visible(describeSweep(sweep))}${sweep.keepable ? " Keep them: session-retention keep --swept" : ""}`,
    );
    for (const rescue of sweep.rescues ?? [])
      out.push(
        `  ${short(rescue.path)}: ${visible(rescue.message)} — session-retention clean --ids ${visible(rescue.id)}`,
      );
  }
  if (plan.refusal) out.push(`REFUSED — ${visible(plan.refusal.message)}`);
  out.push("");
  out.push("This is a preview: `plan` deletes nothing.");
  return out.join("\n");
}

export async function runPlan(args: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      ...CONFIG_FLAGS,
      json: { type: "boolean", default: false },
      "list-kept": { type: "boolean", default: false },
      all: { type: "boolean", default: false },
      ...STORE_FLAGS,
      help: { type: "boolean", short: "h", default: false },
    },
    strict: true,
  });
  if (values.help) {
    io.stdout(PLAN_HELP);
    return 0;
  }
  const progress = scanProgressLine({ quiet: values.json });
  const inputs = await gatherPlanInputs({
    config: configOptions(values),
    flagStores: storeFlagsOf(values),
    onProgress: progress.onProgress,
  }).finally(progress.done);
  for (const note of inputs.notes) io.stderr(`note: ${visible(note)}`);
  const { config } = inputs;
  if (!config.ok) {
    // Read-only: there is no policy to plan with, and the defaults might be harsher than intended.
    io.stderr(invalidConfigText(config));
    return 2;
  }
  // What each candidate's agent will also delete with it, as the agent said (plan/agent-takes.ts).
  const plan = withAgentTakes(
    planFor({ ...inputs, config }),
    inputs.report,
    inputs.agentAnswers ?? new Map(),
  );
  if (values.json) io.stdout(JSON.stringify(PlanSchema.parse(plan)));
  else
    io.stdout(
      renderPlan(
        plan,
        {
          configPath: config.path,
          configSource: config.source,
          listKept: values["list-kept"],
          all: values.all,
        },
        new Date(),
      ),
    );
  return 0;
}
