// Soft delete: sessions go to the desktop trash or the quarantine, never away for good. Everything
// is decided under the deletion lock on fresh facts: the config file as it is now, one new scan of
// the stores (ids are resolved against it, never taken as paths), the pins and the live sessions
// as they are now, what each agent's own delete would take, and the places the gate allows now.
// This file gathers those facts; decide.ts makes the plan of them (pure), execute.ts carries it out:
// just before each move the file must still be the one the preview showed; every move is journaled
// before it happens and verified after.
import type { Plan } from "../../shared/plan.js";
import type { ScanReport } from "../../shared/scan-report.js";
import type { StoreRef } from "../../shared/session-record.js";
import type { SoftDeleteResult } from "../../shared/trash.js";
import { UserError } from "../errors.js";
import { askAgents } from "../plan/agent-takes.js";
import { gatherPlanInputs, planFor } from "../plan/plan-inputs.js";
import { moveChecker, moveContextOf } from "../plan/movable.js";
import { ReadOnlyError } from "../config/config-file.js";
import { decideDelete, type DeleteRequest, policyFor } from "./decide.js";
import { type EngineOptions, exclusive } from "./engine.js";
import { type DeleteControl, executePlan } from "./execute.js";
import { currentFingerprint } from "./movers.js";
import { recoverLocked } from "./recovery.js";

/** A deletion request: what to move (decide.ts), and the stores to look for it in. */
export interface SoftDeleteRequest extends DeleteRequest {
  /** The stores the ids were found in, each with its kind. */
  stores: readonly StoreRef[];
  /**
   * The caller's last look at these stores: the engine's own scan reuses the records of files
   * unchanged since (every file is still looked at). A server has one; without it, a full scan.
   */
  previous?: ScanReport;
}

export async function softDelete(
  request: SoftDeleteRequest,
  options: EngineOptions,
  control: DeleteControl = {},
): Promise<SoftDeleteResult> {
  return exclusive(options, recoverLocked, async (state) => {
    const now = state.now();
    if (request.stores.length === 0) throw new UserError("no store to delete from");
    const inputs = await gatherPlanInputs({
      flagStores: request.stores,
      env: state.env,
      ...(options.config ? { config: options.config } : {}),
      ...(request.previous ? { previous: request.previous } : {}),
    });
    // The config as the file says now (gathered under the lock): an invalid one refuses the deletion.
    if (!inputs.config.ok) throw new ReadOnlyError(inputs.config);
    const config = policyFor(request.via, inputs.config.config);
    const moveContext = inputs.moveContext ?? (await moveContextOf(inputs.report.stores, state.env));
    const checker = moveChecker(moveContext, config.deletion);
    const plan = decideDelete(
      {
        ...inputs,
        config: inputs.config.config,
        now,
        agentAnswers: inputs.agentAnswers ?? (await askAgents(inputs.report, state.env)),
        moveRules: moveContext.stores,
        cannotMove: (target) => checker.whyNot(target),
        ...(request.via === "policy" || request.via === "auto-clean"
          ? { policyChoice: choiceOf(planFor({ ...inputs, config: { ...inputs.config, config } }, now)) }
          : {}),
        orphans: new Map((request.orphanedMeta ?? []).map((path) => [path, currentFingerprint(path)])),
      },
      request,
    );
    return executePlan(plan, {
      state,
      options,
      request,
      stores: inputs.report.stores,
      // Asked afresh when a move fails, now that every part is back: the preview's check, on today's facts.
      cannotMove: (target) => moveChecker(moveContext, config.deletion).whyNot(target),
      now,
      control,
    });
  });
}

/** A plan's candidates, and why it leaves out each session it leaves out. */
function choiceOf(plan: Plan) {
  return {
    chosen: new Set(plan.candidates.map((c) => c.id)),
    leftOut: new Map(
      (plan.leftOut ?? []).flatMap((g) => g.sessions.map((x) => [x.id, x.detail ?? g.reason])),
    ),
  };
}
