// What a restore or a purge reports for the entries it acted on, and the audit entry it leaves.
import type { AuditEntry } from "../../shared/audit.js";
import type { TrashActionResult, TrashEntry } from "../../shared/trash.js";
import { appendAudit } from "../state/audit-log.js";
import type { EngineOptions, EngineState } from "./engine.js";
import { checksDetail } from "./agent-checks.js";

/** What a restore or purge reports for an entry it acted on. */
export const doneItem = (entry: TrashEntry) => ({
  entryId: entry.entryId,
  id: entry.id,
  path: entry.originalPath,
  ...(entry.title !== undefined ? { title: entry.title } : {}),
  bytes: entry.sizeBytes,
});

export function trashAudit(
  state: EngineState,
  options: EngineOptions,
  action: Extract<AuditEntry["action"], "restore" | "purge">,
  result: TrashActionResult,
) {
  appendAudit(state.paths.auditLog, {
    time: state.now().toISOString(),
    actor: options.actor,
    action,
    ...(action === "purge" ? { mode: "hard" } : {}),
    items: [
      ...result.done.map((d) => ({
        id: d.id,
        path: d.path,
        ...(d.title !== undefined ? { title: d.title } : {}),
        bytes: d.bytes,
        result: action === "restore" ? "restored" : "purged",
      })),
      ...result.skipped.map((s) => ({ id: s.ref, path: "", result: "skipped", reason: s.reason })),
    ],
    bytes: result.done.reduce((t, d) => t + d.bytes, 0),
    result: result.skipped.length > 0 ? (result.done.length > 0 ? "partial" : "failed") : "ok",
    ...(result.checks?.length ? { detail: checksDetail(result.checks).slice(2) } : {}),
  });
}
