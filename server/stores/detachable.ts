// Things the engine moves that are no session of the scan. Parts of a session that can be removed on
// their own (a record's `detachable`: Gemini CLI's empty copy of a resumed chat, whose presence makes
// Gemini delete the chat): counted in their session's bundle, never as sessions, removing one goes
// through the engine like any session — a trash entry of its own, journaled and restorable — as the
// item made here: the part's own file, with its session's store and namespace, and nothing else of
// the session. And pi's session-index files whose session is gone.
import { dirname } from "node:path";
import type { SessionRecord } from "../../shared/session-record.js";
import { sessionTitle } from "../../shared/session-title.js";

export interface DetachedPart {
  /** What the engine moves: the part alone. */
  record: SessionRecord;
  /** The session it is a part of. */
  owner: SessionRecord;
}

/** Every detachable part of `sessions`, by its id. */
export function detachableParts(sessions: readonly SessionRecord[]): Map<string, DetachedPart> {
  const parts = new Map<string, DetachedPart>();
  for (const owner of sessions)
    for (const part of owner.detachable ?? [])
      parts.set(part.id, {
        owner,
        record: {
          id: part.id,
          store: owner.store,
          path: part.path,
          namespace: owner.namespace,
          sizeBytes: part.sizeBytes,
          createdAt: owner.createdAt,
          modifiedAt: owner.modifiedAt,
          lastUsedAt: owner.lastUsedAt,
          fingerprint: part.fingerprint,
          messageCount: 0,
          messageCounts: { user: 0, assistant: 0, toolResult: 0, other: 0 },
          // What the trash and the audit log show for it.
          name: `${part.what} (of “${sessionTitle(owner).title}”)`,
          warnings: [],
        },
      });
  return parts;
}

/**
 * Why a part stays although it was chosen, if it does: while its agent runs the session (a live
 * process, not just a recent write), the agent may still be writing the copy — it goes once the
 * agent stopped. Pins and protection do not hold it: removing it is what keeps the session.
 */
export function partStays(
  part: DetachedPart,
  activeIds: ReadonlyMap<string, string>,
): { reason: string; detail: string } | undefined {
  const live = activeIds.get(part.owner.id);
  return live === undefined
    ? undefined
    : { reason: "active", detail: `its session is in use (${live}); remove it once the agent has stopped` };
}

/**
 * An orphaned session-index file (its session is gone) as the engine moves it: an item of its own,
 * with no session's store or namespace to borrow.
 */
export const orphanTarget = (orphan: { path: string; sessionId: string; sizeBytes: number }) => ({
  id: `meta:${orphan.sessionId}`,
  path: orphan.path,
  namespace: "(pi session index)",
  store: { kind: "pi" as const, root: dirname(orphan.path) },
  sizeBytes: orphan.sizeBytes,
});
