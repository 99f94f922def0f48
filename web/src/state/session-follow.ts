// The detail drawer follows its one session in the live look. A look whose change names the session
// (pi appended to it, its verdict or pin changed) moves `changed` — at once for the first, then at
// most every FOLLOW_MS, since the drawer then asks the server to read the whole file again. A look
// that names it gone sets `gone`: the drawer keeps what it showed and says so, rather than vanish
// under the reader.
import { signal } from "@preact/signals";
import type { LookChange } from "../api/client.js";
import { FOLLOW_MS } from "./summary-store.js";
import { throttledCounter } from "./throttled-counter.js";

export function createSessionFollow(ms = FOLLOW_MS) {
  /** The session the drawer shows; undefined while no drawer is open. */
  const followed = signal<string | undefined>(undefined);
  const changed = throttledCounter(ms);
  /** The followed session's file went (deleted or moved by something else). */
  const gone = signal(false);

  /** The drawer now shows `id` (undefined: it closed): its first change is read at once. */
  function follow(id: string | undefined) {
    followed.value = id;
    gone.value = false;
    changed.reset();
  }

  function applyLook({ sessions }: LookChange) {
    const id = followed.value;
    if (id === undefined) return;
    // As the sessions table applies a change: an id both gone and upserted is gone.
    if (sessions.removed.includes(id)) gone.value = true;
    else if (sessions.upserted.some((row) => row.id === id)) {
      gone.value = false;
      changed.soon();
    }
  }

  /**
   * Looks were missed (the stream was cut): whatever the session became — back from the trash,
   * say — the drawer asks again, and the server's answer says whether it is there.
   */
  function missed() {
    if (followed.value === undefined) return;
    gone.value = false;
    changed.now();
  }

  return { changed: changed.value, gone, followed, follow, applyLook, missed };
}

export type SessionFollow = ReturnType<typeof createSessionFollow>;
