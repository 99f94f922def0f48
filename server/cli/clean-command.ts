// `session-retention clean`: the policy's plan (or a hand selection) → preview → typed DELETE →
// soft delete → what moved, what was skipped and why, and the bytes freed.
import { homedir } from "node:os";
import { parseArgs } from "node:util";
import { formatBytes, formatRelativeTime } from "../../shared/format.js";
import type { Candidate, Plan } from "../../shared/plan.js";
import { riskiest } from "../../shared/policy.js";
import { STORE_KINDS, type Fingerprint, type SessionRecord } from "../../shared/session-record.js";
import { STILL_ON_DISK, type SoftDeleteResult } from "../../shared/trash.js";
import { softDelete } from "../delete/deletion-engine.js";
import { gatherPlanInputs, planFor, scannedStores, selectionPlanFor } from "../plan/plan-inputs.js";
import { groupLeftOut, moveChecker } from "../plan/movable.js";
import { withAgentTakes } from "../plan/agent-takes.js";
import { sessionTitle } from "../../shared/session-title.js";
import { visible } from "../../shared/visible-text.js";
import { CONFIG_FLAGS, STORE_FLAGS, configOptions, invalidConfigText } from "./config-command.js";
import { confirmMove } from "./confirm-move.js";
import { agentTakesLines, renderLeftOut } from "./plan-command.js";
import { UsageError } from "./errors.js";
import { sessionFinder } from "../plan/find-session.js";
import type { CliIo } from "./io.js";
import { renderTable, renderTopRows, SHOWN_ROWS } from "./table.js";
import { moveProgressText, progressLine, scanProgressLine } from "./progress.js";
import { storeFlagsOf } from "./store-flags.js";

export const CLEAN_HELP = `Usage: session-retention clean [options]

Moves the retention policy's candidates — or the sessions given with --ids — to the trash (the
desktop's, or the quarantine folder), after a preview and a typed DELETE. Nothing is hard-deleted:
\`session-retention trash restore OPERATION\` (the operation it prints) brings them all back.

Options:
  --dry-run         show what would be moved, and move nothing
  --ids ID…         these sessions instead of the policy's candidates (id, unique part of one, or path)
  --family          with --ids: each named session with its whole family (a Codex thread and its forks)
  --all             list every session in the preview (without it: the first ${SHOWN_ROWS}, and how many more)
  --yes             do not ask for DELETE (needed when there is no terminal)
  --json            print one JSON document (the sessions and the result) instead of tables
  --config FILE     use this config file instead of <agentDir>/session-retention.json
  --set KEY=VALUE   override one setting for this run (repeatable)
  --root DIR        use this pi store instead of the configured or default stores (repeatable)
  --store KIND:DIR  use this store (KIND: ${STORE_KINDS.join(", ")}) instead (repeatable)
  -h, --help        this help

Active, pinned, protected and most-recent sessions are never moved, even when named with --ids;
a session that changed since the preview is skipped; if the output's reader is gone before the
move starts (\`| head\`), nothing moves. Exit status: 0 all moved (or a dry run), 1 some skipped or lost
(a session named with --ids that stays counts), cancelled, or the output closed before anything
moved, 2 refused (invalid config, no confirmation, would empty a store), 130 Ctrl-C or Ctrl-D at
the prompt.

Examples:
  session-retention clean --dry-run
  session-retention clean
  session-retention clean --ids 019a3f2e 019b77c4 --family
  session-retention clean --yes --json`;

/** What `clean --json` prints: the sessions chosen, and what happened to them. */
export interface CleanJson {
  dryRun: boolean;
  sessions: Array<
    { id: string; path: string; sizeBytes: number; why: string } & Pick<Candidate, "alsoDeletes">
  >;
  orphanedMeta: string[];
  /** What was chosen but cannot be moved now, one group per reason (not in `sessions`). */
  leftOut?: Plan["leftOut"];
  /** The move (or the dry run's preview of it); null when nothing was a candidate. */
  result: SoftDeleteResult | null;
}

interface Target {
  record: SessionRecord;
  fingerprint: Fingerprint;
  /** Why the policy chose it, or "selected". */
  why: string;
}

/**
 * The named sessions and, from `all`, every session of their families (same `family`), in the
 * order named; a family is chosen as one, so its forks may go with what they read from.
 */
function withFamilies(named: readonly SessionRecord[], all: readonly SessionRecord[]): SessionRecord[] {
  const families = new Set(named.flatMap((r) => (r.family ? [r.family] : [])));
  const members = all.filter((s) => s.family !== undefined && families.has(s.family));
  return [...new Set([...named, ...members])];
}

export async function runClean(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: {
      ...CONFIG_FLAGS,
      "dry-run": { type: "boolean", default: false },
      ids: { type: "string", multiple: true, default: [] },
      family: { type: "boolean", default: false },
      all: { type: "boolean", default: false },
      yes: { type: "boolean", default: false },
      json: { type: "boolean", default: false },
      ...STORE_FLAGS,
      help: { type: "boolean", short: "h", default: false },
    },
    allowPositionals: true,
    strict: true,
  });
  if (values.help) {
    io.stdout(CLEAN_HELP);
    return 0;
  }
  // `--ids a b c` and `--ids a,b` both work: the words after --ids are ids too.
  const refs = [...values.ids, ...positionals].flatMap((r) => r.split(",")).filter(Boolean);
  if (values.family && refs.length === 0) throw new UsageError("--family goes with --ids (whose families?)");
  if (positionals.length > 0 && values.ids.length === 0)
    throw new UsageError(`unexpected "${positionals[0]}" (sessions are given with --ids)`);

  const progress = scanProgressLine({ quiet: values.json });
  const inputs = await gatherPlanInputs({
    config: configOptions(values),
    flagStores: storeFlagsOf(values),
    onProgress: progress.onProgress,
  }).finally(progress.done);
  for (const note of inputs.notes) io.stderr(`note: ${visible(note)}`);
  if (!inputs.config.ok) {
    io.stderr(invalidConfigText(inputs.config));
    return 2;
  }
  const config = inputs.config.config;
  const now = new Date();
  const sessions = inputs.report.sessions;

  // Either way the plan counts only what can be moved now — not what an agent's own delete would
  // take more with: the rest is its leftOut, said once per reason.
  let plan: Plan;
  let targets: Target[];
  let orphans: string[] = [];
  let leftOut: Plan["leftOut"];
  const byId = new Map(sessions.map((s) => [s.id, s]));
  /** Sessions named with --ids that will not move (kept, or unable to): the run then exits 1, as a skip does. */
  let namedStaying = 0;
  if (refs.length > 0) {
    const named = withFamilies(refs.map(sessionFinder(sessions)), values.family ? sessions : []);
    const selected = new Set(named.map((r) => r.id));
    plan = selectionPlanFor({ ...inputs, config: inputs.config }, selected, now);
    const kept = new Map(plan.kept.map((k) => [k.id, k]));
    const chosen = new Set(plan.candidates.map((c) => c.id));
    targets = [];
    const check = inputs.moveContext && moveChecker(inputs.moveContext, config.deletion);
    const left: Array<Parameters<typeof groupLeftOut>[0][number]> = (plan.leftOut ?? []).flatMap((g) =>
      g.sessions.map((session) => ({ session, reason: g.reason, detail: session.detail })),
    );
    for (const record of [...new Set(named)]) {
      const why = kept.get(record.id);
      // A part a session lets go on its own (a Gemini resume twin) is in no plan, whose sessions are
      // whole ones: it goes if it can move (the engine judges whether it must stay).
      const part = !byId.has(record.id);
      const cannot = part ? check?.whyNot(record) : undefined;
      if (chosen.has(record.id) || (part && !cannot))
        targets.push({ record, fingerprint: record.fingerprint, why: "selected" });
      else if (cannot)
        left.push({ session: { ...record, title: sessionTitle(record).title }, reason: cannot });
      else if (why && why.reason !== "cannot-move")
        io.stderr(`kept: ${visible(record.path)} — ${why.reason}: ${visible(why.detail)}`);
    }
    namedStaying = new Set(named.map((r) => r.id)).size - targets.length;
    if (plan.refusal) {
      io.stderr(`session-retention: ${visible(plan.refusal.message)}`);
      return 2;
    }
    leftOut = left.length > 0 ? groupLeftOut(left) : undefined;
  } else {
    plan = planFor({ ...inputs, config: inputs.config }, now);
    if (plan.refusal) {
      io.stderr(`session-retention: ${visible(plan.refusal.message)}`);
      return 2;
    }
    orphans = (plan.orphanedMeta ?? []).map((o) => o.path);
    targets = plan.candidates.map((c) => ({
      record: byId.get(c.id)!,
      fingerprint: c.fingerprint ?? byId.get(c.id)!.fingerprint,
      why: `${c.rule}: ${c.detail}`,
    }));
    leftOut = plan.leftOut;
  }

  // What each target's agent will also delete with it, as the agent said (plan/agent-takes.ts).
  const takes = new Map(
    withAgentTakes(plan, inputs.report, inputs.agentAnswers ?? new Map()).candidates.flatMap((c) =>
      c.alsoDeletes ? [[c.id, c.alsoDeletes] as const] : [],
    ),
  );
  const alsoDeletes = (id: string) => {
    const taken = takes.get(id);
    return taken ? { alsoDeletes: taken } : {};
  };
  const json = (result: SoftDeleteResult | null) => {
    const document: CleanJson = {
      dryRun: values["dry-run"],
      sessions: targets.map((t) => ({
        id: t.record.id,
        path: t.record.path,
        sizeBytes: t.record.sizeBytes,
        why: t.why,
        ...alsoDeletes(t.record.id),
      })),
      orphanedMeta: orphans,
      ...(leftOut ? { leftOut } : {}),
      result,
    };
    io.stdout(JSON.stringify(document));
  };
  // With --json the tables are left out: stdout is the one document.
  const say = values.json ? () => {} : io.stdout;
  const home = homedir();
  // Paths as shown: home as ~, and visible.
  const short = (path: string) => visible(path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path);
  const saidLeftOut = renderLeftOut(leftOut, short);
  if (targets.length === 0 && orphans.length === 0) {
    if (values.json) json(null);
    else {
      io.stdout(
        `Nothing to clean: no session ${saidLeftOut.length > 0 ? "that can be moved now " : ""}is a candidate.`,
      );
      for (const line of saidLeftOut) io.stdout(line);
    }
    return namedStaying > 0 && !values["dry-run"] ? 1 : 0;
  }
  const bytes = targets.reduce((t, x) => t + x.record.sizeBytes, 0);
  const where = config.deletion.target === "trash" ? "the trash" : "the quarantine folder";
  say(
    `${targets.length} session${targets.length === 1 ? "" : "s"}, ${formatBytes(bytes)} (${bytes} bytes), would go to ${where}:`,
  );
  say(
    renderTopRows(
      ["SIZE", "LAST USED", "WHY", "TITLE", "SESSION"],
      targets.map((t) => [
        formatBytes(t.record.sizeBytes),
        formatRelativeTime(t.record.lastUsedAt, now),
        t.why,
        sessionTitle(t.record).title,
        short(t.record.path),
      ]),
      [0],
      values.all,
    ),
  );
  for (const line of agentTakesLines(
    targets.map((t) => ({
      path: t.record.path,
      store: t.record.store,
      title: sessionTitle(t.record).title,
      ...alsoDeletes(t.record.id),
    })),
    short,
  ))
    say(line);
  if (orphans.length > 0)
    say(
      `…and ${orphans.length} orphaned session-index file${orphans.length === 1 ? "" : "s"} (their sessions are gone).`,
    );
  for (const line of saidLeftOut) say(line);
  say("Riskiest (the largest and the most recently used):");
  say(
    renderTable(
      ["SIZE", "LAST USED", "TITLE", "SESSION"],
      riskiest(targets.map((t) => t.record)).map((r) => [
        formatBytes(r.sizeBytes),
        formatRelativeTime(r.lastUsedAt, now),
        sessionTitle(r).title,
        short(r.path),
      ]),
      [0],
    ),
  );

  const request = {
    items: targets.map((t) => ({ id: t.record.id, fingerprint: t.fingerprint })),
    orphanedMeta: orphans,
    ...scannedStores(inputs.report),
    via: refs.length > 0 ? ("selection" as const) : ("policy" as const),
    // The engine's own scan under the lock reuses the records of files unchanged since this one.
    previous: inputs.report,
  };
  // The engine reads the config file again under its lock: an edit made while DELETE was being
  // typed counts.
  const engine = { actor: "cli" as const, config: configOptions(values) };
  if (values["dry-run"]) {
    const result = await softDelete({ ...request, dryRun: true }, engine);
    if (values.json) json(result);
    else {
      report(result, io, short);
      io.stdout("Dry run: nothing was moved.");
    }
    return 0;
  }
  const stop = await confirmMove(io, {
    yes: values.yes,
    question: `Type DELETE to move ${targets.length} session${targets.length === 1 ? "" : "s"} (${formatBytes(bytes)}) to ${where}: `,
    refusal: "move sessions",
  });
  if (stop !== undefined) return stop;
  // Followed only where the line can show: an unfollowed run skips the per-item progress calls.
  const moving = progressLine(moveProgressText, { quiet: values.json });
  const result = await softDelete(
    request,
    engine,
    moving.active ? { onProgress: moving.update } : {},
  ).finally(moving.done);
  if (result.refused) {
    io.stderr(`session-retention: ${visible(result.refused)}`);
    return 2;
  }
  if (values.json) json(result);
  else report(result, io, short);
  return result.skipped.length > 0 || (result.lost?.length ?? 0) > 0 || namedStaying > 0 ? 1 : 0;
}

function report(result: SoftDeleteResult, io: CliIo, short: (path: string) => string) {
  for (const r of result.recovered ?? [])
    io.stderr(`recovered an interrupted operation: ${short(r.path)} — ${r.result}: ${visible(r.detail)}`);
  if (!result.dryRun)
    io.stdout(
      `${result.moved.length} session${result.moved.length === 1 ? "" : "s"}, ${formatBytes(result.bytesFreed)} (${result.bytesFreed} bytes): ${STILL_ON_DISK}` +
        (result.operationId
          ? ` — operation ${result.operationId}; undo with \`session-retention trash restore ${result.operationId}\``
          : ""),
    );
  for (const s of result.skipped)
    io.stdout(`skipped: ${s.path ? short(s.path) : visible(s.id)} — ${visible(s.reason)}`);
  for (const note of result.notes ?? []) if (!note.startsWith("LOST: ")) io.stdout(`note: ${visible(note)}`);
  // Never expected: said on stderr, where a script's eye is, and in the exit status.
  for (const lost of result.lost ?? [])
    io.stderr(
      `WARNING: LOST, NOT IN THE TRASH: ${visible(lost.id)} (${short(lost.path)}) — ${visible(lost.reason)}`,
    );
}
