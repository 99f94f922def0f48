// The deletion's report of "nothing outside the selection, ever" (plan/agent-takes.ts asks the
// agents and judges, decide.ts puts a session taken along in its taker's item): the result says
// what went with what, and, loudly, anything lost outside the selection.
import type { SoftDeleteResult } from "../../shared/trash.js";
import type { TakenWith } from "../plan/agent-takes.js";

/**
 * The sessions an item took along, reported with it: moved (each with its own bytes, where its file
 * went) once the item moved, with a note; skipped with the item's reason otherwise.
 */
export function reportTaken(
  result: SoftDeleteResult,
  id: string,
  taken: readonly TakenWith[] | undefined,
  whereIs: (path: string) => string | undefined,
) {
  if (!taken?.length) return;
  const moved = result.moved.find((m) => m.id === id);
  if (!moved) {
    const reason = result.skipped.find((s) => s.id === id)?.reason ?? "not moved";
    for (const t of taken)
      result.skipped.push({
        id: t.id,
        path: t.path,
        reason: `goes with ${id}, which was not moved: ${reason}`,
      });
    return;
  }
  for (const t of taken) {
    moved.bytes -= t.sizeBytes;
    result.moved.push({
      id: t.id,
      path: t.path,
      title: t.title,
      bytes: t.sizeBytes,
      destination: whereIs(t.path) ?? moved.destination,
      target: moved.target,
    });
    if (!result.dryRun)
      result.notes = [
        ...(result.notes ?? []),
        `${id}: ${t.agent}'s own delete also took ${t.what} (session ${t.id}, selected too): it is in ${id}'s trash entry and comes back with it`,
      ];
  }
}

/**
 * Sessions outside the item that were gone after its agent's own delete ran: lost for good (no
 * trash entry holds them). Never expected — the agent was asked first — and said loudly.
 */
export function reportLost(
  result: SoftDeleteResult,
  id: string,
  vanished: ReadonlyArray<{ id: string; path: string }>,
) {
  for (const { id: lost, path } of vanished) {
    const reason = `gone after the agent's own delete of ${id}, though it was not part of it: lost, not in the trash`;
    result.lost = [...(result.lost ?? []), { id: lost, path, reason }];
    result.notes = [...(result.notes ?? []), `LOST: ${lost} (${path}) ${reason}`];
  }
}
