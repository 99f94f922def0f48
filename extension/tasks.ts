// The work the extension does with the stores — looking, planning, moving, restoring, pinning —
// as plain async functions of plain data. They run on a worker thread (off-thread.ts): a scan of
// a large store, and loading zod, the scanner and the policy engine, cost hundreds of
// milliseconds that pi's own thread — its terminal UI — must not spend.
import type { Config } from "../shared/config.js";
import type { Plan } from "../shared/plan.js";
import { latestOperation, type SoftDeleteResult, type TrashActionResult, undoRefs } from "../shared/trash.js";
import { findSession } from "../server/plan/find-session.js";
import { listTrash, restore, type SoftDeleteRequest, softDelete } from "../server/delete/deletion-engine.js";
import { gatherPlanInputs, planFor, scannedStores } from "../server/plan/plan-inputs.js";
import { setProtection } from "../server/state/protection-list.js";
import { type AutoCleanOutcome, autoClean } from "./auto-clean.js";
import { type Look, lookAtStores, PI_STORES } from "./look.js";

const ACTOR = { actor: "extension" } as const;

export const tasks = {
  /** A look at the stores; on a session start, auto-clean too (and a second look if it moved). */
  async look(input: { autoClean: boolean }): Promise<{ look: Look; autoClean?: AutoCleanOutcome }> {
    let looked = await lookAtStores();
    if (!input.autoClean || !looked.look.enabled) return { look: looked.look };
    const outcome = await autoClean(looked.inputs, looked.plan);
    // What moved is gone from the store: look again, so the status line tells the new truth.
    if (outcome.result && !outcome.result.dryRun && outcome.result.moved.length > 0)
      looked = await lookAtStores();
    return { look: looked.look, autoClean: outcome };
  },

  /** The policy's plan, and what a deletion request needs besides the items. */
  async plan(): Promise<
    | { ok: false; configPath: string }
    | { ok: true; plan: Plan; config: Config; stores: ReturnType<typeof scannedStores> }
  > {
    const inputs = await gatherPlanInputs({ discover: PI_STORES });
    const { config } = inputs;
    if (!config.ok) return { ok: false, configPath: config.path };
    return {
      ok: true,
      plan: planFor({ ...inputs, config }),
      config: config.config,
      stores: scannedStores(inputs.report),
    };
  },

  /** Soft delete: the engine takes its own fresh look and keeps whatever must be kept. */
  delete: (request: SoftDeleteRequest): Promise<SoftDeleteResult> => softDelete(request, ACTOR),

  /** Restores what one operation (default: the latest) moved and is still in the trash. */
  async undo(input: { operation?: string }): Promise<{ operation?: string; result?: TrashActionResult }> {
    const { entries } = listTrash(ACTOR);
    const operation = input.operation ?? latestOperation(entries);
    const refs = operation === undefined ? [] : undoRefs(entries, [operation]);
    if (refs.length === 0) return { ...(operation ? { operation } : {}) };
    return { operation, result: await restore(refs, ACTOR) };
  },

  /** Pins or unpins the session a reference (id, part of one, path) names; throws when none does. */
  async protect(input: { ref: string; protect: boolean }): Promise<{ path: string; changed: boolean }> {
    const { report } = await gatherPlanInputs({ discover: PI_STORES });
    const session = findSession(input.ref, report.sessions);
    const { changed } = setProtection([session], input.protect, "extension");
    return { path: session.path, changed: changed.length > 0 };
  },
};

export type Tasks = typeof tasks;
export type TaskName = keyof Tasks;
