// `/session-retention clean` inside pi with pi's own dialogs: (1) usage and quota,
// (2) the policy's candidates with their rules, (3) a multi-select — pi has a one-choice `select`,
// so each pick toggles a session and the list comes back until the user goes on — sortable by
// last use or size, and switchable to every session the policy lets go, (4) the bytes and the 5
// riskiest, then a typed DELETE, (5) soft delete and the result, with the way back. Executes only
// what it showed: each session goes with the fingerprint the preview saw.
import { formatBytes, formatRelativeTime } from "../shared/format.js";
import { type Plan, RULE_LABELS } from "../shared/plan.js";
import { riskiest } from "../shared/policy.js";
import { describeQuota } from "../shared/quota.js";
import { oneLine } from "../shared/session-title.js";
import { compareSessions } from "../shared/sort.js";
import type { Config } from "../shared/config.js";
import { STILL_ON_DISK, type SoftDeleteResult } from "../shared/trash.js";
import { visible } from "../shared/visible-text.js";
import type { SoftDeleteRequest } from "../server/delete/deletion-engine.js";
import type { Dialogs } from "./tell.js";
import { COMMAND } from "./words.js";

/** A session the wizard may offer: a policy candidate, or one the policy keeps but does not need to. */
interface Choice {
  id: string;
  path: string;
  namespace: string;
  sizeBytes: number;
  lastUsedAt: string;
  createdAt: string;
  fingerprint?: Plan["candidates"][number]["fingerprint"];
  /** The rule that chose it, or "not a candidate". */
  why: string;
  /** Its title (name, else first message, else time); the policy's candidates carry one. */
  title?: string;
}

/**
 * A row's name for a session: its title as pi's picker shows it (shortened), then its namespace and
 * file, the file's middle cut (pi's are 70 characters); visible, so that rows are told apart by
 * what they show.
 */
function rowName(c: Choice, short: (path: string) => string): string {
  const file = visible(c.path.slice(c.path.lastIndexOf("/") + 1));
  const title = c.title === undefined ? "" : `${visible(oneLine(c.title, 40) ?? c.title)} · `;
  return `${title}${visible(short(c.namespace))} › ${file.length > 40 ? `${file.slice(0, 19)}…${file.slice(-16)}` : file}`;
}

/** Longest list one select shows; the rest is said to be there (the dashboard handles thousands). */
const SHOWN = 200;

export type WizardOutcome =
  | { kind: "nothing"; message: string }
  | { kind: "cancelled" }
  | { kind: "done"; result: SoftDeleteResult; message: string };

/**
 * Runs the wizard over a plan; `execute` does the soft delete (the command runs it off pi's
 * thread) and is called only after the typed confirmation. `ui`: pi's dialogs, made visible.
 */
export async function cleanWizard(
  ui: Dialogs,
  plan: Plan,
  config: Config,
  execute: (items: SoftDeleteRequest["items"], via: "policy" | "selection") => Promise<SoftDeleteResult>,
  now = new Date(),
): Promise<WizardOutcome> {
  const home = process.env.HOME ?? "";
  const short = (path: string) =>
    home && path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path;

  const candidates: Choice[] = plan.candidates.map((c) => ({ ...c, why: RULE_LABELS[c.rule] }));
  // Everything the policy keeps only because it is within policy may still be picked by hand;
  // active, pinned, protected and recent sessions never appear.
  const others: Choice[] = plan.kept
    .filter((k) => k.reason === "within-policy")
    .map((k) => ({ ...k, why: "not a candidate" }));
  if (candidates.length + others.length === 0)
    return {
      kind: "nothing",
      message: "Nothing to clean: every session is kept (active, pinned, protected or recent).",
    };

  const chosen = new Set(candidates.map((c) => c.id));
  let showAll = candidates.length === 0;
  let order: "lru" | "size" = "lru";
  const header = `Sessions: ${describeQuota(plan.quotaBefore)} — ${plan.quotaBefore.level} (mode ${plan.mode}).\nThe policy suggests ${candidates.length} session${candidates.length === 1 ? "" : "s"} (${formatBytes(plan.bytesToFree)}).`;

  // (2)–(3): choose.
  for (;;) {
    const pool = (showAll ? [...candidates, ...others] : candidates).sort(compareSessions(order));
    const picked = [...candidates, ...others].filter((c) => chosen.has(c.id));
    const bytes = picked.reduce((t, c) => t + c.sizeBytes, 0);
    const go = `Continue with ${picked.length} chosen (${formatBytes(bytes)}) →`;
    const actions = [
      go,
      `Choose all ${pool.length} listed`,
      "Choose none",
      order === "lru"
        ? "Sort: least recently used first (switch to largest first)"
        : "Sort: largest first (switch to least recently used first)",
      showAll
        ? "Showing every session the policy lets go (switch to its candidates only)"
        : `Showing the policy's candidates (switch to every session it lets go: ${candidates.length + others.length})`,
      "Cancel",
    ];
    // pi's select answers with the text of the row, so no two rows may read the same.
    const seen = new Map<string, number>();
    const rows = pool.slice(0, SHOWN).map((c) => {
      const text = `${chosen.has(c.id) ? "[x]" : "[ ]"} ${formatBytes(c.sizeBytes).padStart(8)} · used ${formatRelativeTime(c.lastUsedAt, now)} · ${c.why} · ${rowName(c, short)}`;
      const n = (seen.get(text) ?? 0) + 1;
      seen.set(text, n);
      return n === 1 ? text : `${text} (${n})`;
    });
    const more =
      pool.length > SHOWN ? [`…${pool.length - SHOWN} more (choose all, or use the dashboard)`] : [];
    const answer = await ui.select(`${header}\nPick what moves to the trash:`, [
      ...actions,
      ...rows,
      ...more,
    ]);
    if (answer === undefined || answer === "Cancel") return { kind: "cancelled" };
    if (answer === go) {
      if (picked.length > 0) break;
      ui.notify("Nothing is chosen yet.", "warning");
    } else if (answer === actions[1]) for (const c of pool) chosen.add(c.id);
    else if (answer === actions[2]) chosen.clear();
    else if (answer === actions[3]) order = order === "lru" ? "size" : "lru";
    else if (answer === actions[4]) showAll = !showAll;
    else {
      const row = rows.indexOf(answer);
      const choice = pool[row];
      if (choice && !chosen.delete(choice.id)) chosen.add(choice.id);
    }
  }

  // (4): preview and confirm.
  const picked = [...candidates, ...others].filter((c) => chosen.has(c.id));
  const bytes = picked.reduce((t, c) => t + c.sizeBytes, 0);
  const risky = riskiest(picked)
    .map(
      (c) =>
        `  ${formatBytes(c.sizeBytes).padStart(8)} · used ${formatRelativeTime(c.lastUsedAt, now)} · ${visible(short(c.path))}`,
    )
    .join("\n");
  const where = config.deletion.target === "trash" ? "the trash" : "the quarantine folder";
  const summary = `${picked.length} session${picked.length === 1 ? "" : "s"}, ${formatBytes(bytes)}, go to ${where}. Riskiest:\n${risky}`;
  const byPolicy = picked.some((c) => c.why !== "not a candidate");
  if (picked.length > 1 || byPolicy) {
    const typed = await ui.input(`${summary}\nType DELETE to move them:`, "DELETE");
    if (typed?.trim() !== "DELETE") return { kind: "cancelled" };
  } else if (!(await ui.confirm("Move to the trash?", summary))) return { kind: "cancelled" };

  // (5): soft delete, and the result.
  const result = await execute(
    picked.map((c) => (c.fingerprint ? { id: c.id, fingerprint: c.fingerprint } : { id: c.id })),
    byPolicy ? "policy" : "selection",
  );
  return { kind: "done", result, message: describeResult(result, short) };
}

export function describeResult(result: SoftDeleteResult, short: (path: string) => string = (p) => p): string {
  if (result.refused) return `Nothing moved: ${visible(result.refused)}`;
  const lines = [
    `${result.moved.length} session${result.moved.length === 1 ? "" : "s"} (${formatBytes(result.bytesFreed)}) ${STILL_ON_DISK}.` +
      (result.moved.length > 0 ? ` Undo with /${COMMAND} undo.` : ""),
  ];
  for (const s of result.skipped)
    lines.push(`skipped ${visible(s.path ? short(s.path) : s.id)}: ${visible(s.reason)}`);
  for (const l of result.lost ?? [])
    lines.push(`WARNING: LOST, NOT IN THE TRASH: ${visible(short(l.path))}: ${visible(l.reason)}`);
  return lines.join("\n");
}
