// What the Activity page's Result column says of a cleanup: how many of how many moved, and why the
// rest did not — "128 of 1,428 moved · stopped by you" — where the audit's one word ("partial")
// left a stopped run looking like a failed one. Other actions keep that word.
import type { AuditEntry } from "../../../shared/audit.js";
import { STOPPED_REASON } from "../../../shared/trash.js";

/** The actions that move sessions out: their items say moved or skipped, and why. */
const MOVES = new Set<AuditEntry["action"]>(["soft-delete", "auto-clean"]);
const count = (n: number) => n.toLocaleString("en-US");

/** The Result column's words for one audit entry. */
export function outcomeText(entry: Pick<AuditEntry, "action" | "actor" | "items" | "result">): string {
  if (!MOVES.has(entry.action) || entry.result === "dry-run" || entry.result === "refused")
    return entry.result;
  // A session lost to an agent's own delete was outside the selection: said apart, never counted in.
  const lost = entry.items.filter((i) => i.result === "lost").length;
  const chosen = entry.items.filter((i) => i.result !== "lost");
  const moved = chosen.filter((i) => i.result === "moved").length;
  const stopped = chosen.some((i) => i.reason === STOPPED_REASON);
  const parts = [
    moved === chosen.length ? `${count(moved)} moved` : `${count(moved)} of ${count(chosen.length)} moved`,
    ...(stopped ? [entry.actor === "auto" ? "stopped" : "stopped by you"] : []),
    ...(!stopped && moved < chosen.length ? [`${count(chosen.length - moved)} skipped`] : []),
    ...(lost > 0 ? [`${count(lost)} LOST outside the selection`] : []),
  ];
  return parts.join(" · ");
}
