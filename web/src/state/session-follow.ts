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
  let followed: string | undefined;
  const changed = throttledCounter(ms);
  /** The followed session's file went (deleted or moved by something else). */
  const gone = signal(false);

  /** The drawer now shows `id` (undefined: it closed). */
  function follow(id: string | undefined) {
    followed = id;
    gone.value = false;
  }

  function applyLook({ sessions }: LookChange) {
    if (followed === undefined) return;
    // As the sessions table applies a change: an id both gone and upserted is gone.
    if (sessions.removed.includes(followed)) gone.value = true;
    else if (sessions.upserted.some((row) => row.id === followed)) {
      gone.value = false;
      changed.soon();
    }
  }

  /** Looks were missed (the stream was cut): whatever the session became, the drawer asks again. */
  function missed() {
    if (followed !== undefined) changed.now();
  }

  return { changed: changed.value, gone, follow, applyLook, missed };
}

export type SessionFollow = ReturnType<typeof createSessionFollow>;
