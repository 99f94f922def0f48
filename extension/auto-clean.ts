// Opt-in auto-clean on pi session start: at most once a day, soft delete only,
// at most `autoCleanMaxDeletesPerRun` of the policy's candidates, audited as actor "auto". The
// first run after it is switched on only reports what it would do, and `retention.dryRun` keeps
// it report-only. The deletion engine takes a fresh look of its own, so the current session (its
// marker is written first), pins, protected and recent sessions are kept even if the plan is stale.
// After any change to the config file, the next run only reports too: a new policy is shown
// before it acts.
import { statSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "../shared/config.js";
import { formatBytes } from "../shared/format.js";
import type { Plan } from "../shared/plan.js";
import type { SoftDeleteResult } from "../shared/trash.js";
import { visible } from "../shared/visible-text.js";
import { softDelete } from "../server/delete/deletion-engine.js";
import { type PlanInputs, scannedStores } from "../server/plan/plan-inputs.js";
import { LockedError, withLock } from "../server/fs/lock-file.js";
import { readSmallTextFile } from "../server/fs/read-small-file.js";
import { writePrivateFile } from "../server/fs/private-files.js";
import { statePaths } from "../server/state/state-dir.js";
import { COMMAND } from "./words.js";

/** `<stateDir>/auto-clean.json`: when it last ran, and whether the first-run warning was given. */
export interface AutoCleanState {
  lastRunAt?: string;
  /** Set by the report-only run that warns before the first destructive one; cleared when switched off. */
  warnedAt?: string;
}

export type AutoCleanDecision =
  | { run: false; why: "off" | "disabled" | "ran-today" | "busy" }
  | { run: true; dryRun: true; why: "dry-run" | "first-run" | "policy-changed" }
  | { run: true; dryRun: false };

/** The local calendar day of a date: "once a day" means once per day of the user's clock. */
const dayOf = (date: Date) => `${date.getFullYear()}-${date.getMonth() + 1}-${date.getDate()}`;

/** Pure: whether to run now, and how. `configChangedAt`: when the config file was last written. */
export function decideAutoClean(
  config: Config,
  state: AutoCleanState,
  now: Date,
  configChangedAt?: Date,
): AutoCleanDecision {
  if (!config.enabled) return { run: false, why: "disabled" };
  if (!config.retention.autoClean) return { run: false, why: "off" };
  if (state.lastRunAt && dayOf(new Date(state.lastRunAt)) === dayOf(now))
    return { run: false, why: "ran-today" };
  if (config.retention.dryRun) return { run: true, dryRun: true, why: "dry-run" };
  if (!state.warnedAt) return { run: true, dryRun: true, why: "first-run" };
  if (configChangedAt && configChangedAt > new Date(state.warnedAt))
    return { run: true, dryRun: true, why: "policy-changed" };
  return { run: true, dryRun: false };
}

/** The state after a decision: a run is recorded; switching off (or to dry-run) re-arms the warning. */
export function nextState(state: AutoCleanState, decision: AutoCleanDecision, now: Date): AutoCleanState {
  if (!decision.run)
    return decision.why === "ran-today" || decision.why === "busy"
      ? state
      : { ...state, warnedAt: undefined };
  const at = now.toISOString();
  if (decision.dryRun) return { lastRunAt: at, ...(decision.why === "dry-run" ? {} : { warnedAt: at }) };
  return { ...state, lastRunAt: at };
}

const stateFile = (env: NodeJS.ProcessEnv) => join(statePaths(env).dir, "auto-clean.json");

function readState(file: string): AutoCleanState {
  try {
    const text = readSmallTextFile(file, { maxBytes: 64 * 1024, what: "auto-clean state" });
    const raw = JSON.parse(text) as AutoCleanState;
    const iso = (v: unknown) => (typeof v === "string" && !Number.isNaN(Date.parse(v)) ? v : undefined);
    const lastRunAt = iso(raw?.lastRunAt);
    const warnedAt = iso(raw?.warnedAt);
    return { ...(lastRunAt ? { lastRunAt } : {}), ...(warnedAt ? { warnedAt } : {}) };
  } catch {
    return {}; // none yet; a damaged file only means one more report-only run
  }
}

export interface AutoCleanOutcome {
  decision: AutoCleanDecision;
  result?: SoftDeleteResult;
  /** What to tell the user; absent when there is nothing to say. */
  message?: string;
}

/** When the config file was last written; undefined when there is none (the defaults apply). */
function changedAt(path: string): Date | undefined {
  try {
    return statSync(path).mtime;
  } catch {
    return undefined;
  }
}

/**
 * Decides and records today's run under a lock, so that two pi processes starting at once run it
 * once between them.
 */
function claimToday(
  config: Config,
  configPath: string,
  env: NodeJS.ProcessEnv,
  now: Date,
): AutoCleanDecision {
  const file = stateFile(env);
  try {
    return withLock(`${file}.lock`, () => {
      const before = readState(file);
      const decision = decideAutoClean(config, before, now, changedAt(configPath));
      const after = nextState(before, decision, now);
      if (JSON.stringify(after) !== JSON.stringify(before))
        writePrivateFile(file, `${JSON.stringify(after)}\n`);
      return decision;
    });
  } catch (error) {
    if (error instanceof LockedError) return { run: false, why: "busy" };
    throw error;
  }
}

/** Runs auto-clean for a look's inputs and plan, if it is due. */
export async function autoClean(
  inputs: PlanInputs,
  plan: Plan | undefined,
  options: { env?: NodeJS.ProcessEnv; now?: Date } = {},
): Promise<AutoCleanOutcome> {
  const env = options.env ?? process.env;
  const now = options.now ?? new Date();
  if (!inputs.config.ok || !plan) return { decision: { run: false, why: "off" } };
  const config = inputs.config.config;
  const decision = claimToday(config, inputs.config.path, env, now);
  if (!decision.run) return { decision };
  if (plan.refusal) return { decision, message: `Auto-clean did not run: ${visible(plan.refusal.message)}` };

  const max = config.retention.autoCleanMaxDeletesPerRun;
  const chosen = plan.candidates.slice(0, max);
  if (chosen.length === 0)
    return decision.dryRun && decision.why !== "dry-run"
      ? {
          decision,
          message: `Auto-clean is on: no session is a candidate today. From the next day on, it moves up to ${max} of the policy's candidates a day to the trash (never deleting for good).`,
        }
      : { decision };
  const result = await softDelete(
    {
      items: chosen.map((c) => (c.fingerprint ? { id: c.id, fingerprint: c.fingerprint } : { id: c.id })),
      ...scannedStores(inputs.report),
      via: "auto-clean",
      dryRun: decision.dryRun,
    },
    { actor: "auto", env },
  );
  return { decision, result, message: describe(decision, result, plan.candidates.length, env.HOME ?? "") };
}

/** What auto-clean did, or would do, with the sessions named (the first five). */
function describe(
  decision: AutoCleanDecision & { run: true },
  result: SoftDeleteResult,
  planned: number,
  home: string,
) {
  const n = (count: number) => `${count} session${count === 1 ? "" : "s"}`;
  const bytes = result.moved.reduce((total, m) => total + m.bytes, 0);
  const more = planned > result.moved.length + result.skipped.length ? ` (${planned} are candidates)` : "";
  const short = (path: string) =>
    visible(home && path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path);
  const named = [
    ...result.moved
      .slice(0, 5)
      .map(
        (m) =>
          `\n  ${formatBytes(m.bytes).padStart(8)}  ${m.title !== undefined ? `${visible(m.title)} — ` : ""}${short(m.path)}`,
      ),
    ...(result.moved.length > 5 ? [`\n  …and ${result.moved.length - 5} more`] : []),
  ].join("");
  if (result.refused) return `Auto-clean refused: ${visible(result.refused)}`;
  // Never expected (an agent's own delete took what was not chosen): said before anything else.
  const lost = (result.lost ?? [])
    .map((l) => `\nWARNING: LOST, NOT IN THE TRASH: ${short(l.path)}: ${visible(l.reason)}`)
    .join("");
  if (lost) return `Auto-clean moved ${n(result.moved.length)}, and lost what it was not asked to:${lost}`;
  if (decision.dryRun) {
    const would = `${n(result.moved.length)} (${formatBytes(bytes)}) to the trash${more}`;
    switch (decision.why) {
      case "first-run":
        return `Auto-clean is on: from the next day it will move ${would}. This first run only reports. See them with /${COMMAND} clean.${named}`;
      case "policy-changed":
        return `Auto-clean: the config changed since its last report, so this run only reports. From the next day it will move ${would}.${named}`;
      case "dry-run":
        return `Auto-clean (dry run): would move ${would}. Set retention.dryRun to false to let it.${named}`;
    }
  }
  if (result.moved.length === 0)
    return `Auto-clean moved nothing: ${result.skipped.map((s) => visible(s.reason)).join("; ")}`;
  return `Auto-clean moved ${n(result.moved.length)} (${formatBytes(result.bytesFreed)}) to the trash${more} — still on disk until emptied. Undo with /${COMMAND} undo.${named}`;
}
