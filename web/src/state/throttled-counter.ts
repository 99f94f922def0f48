// A counter for "ask the server again": it moves at once after something the user did, and while
// changes stream in, at most once every `ms` — so the page follows a writing agent without asking
// for the same derived data at every look.
import { signal } from "@preact/signals";

/** A counter that moves at once on `now()`, and on `soon()` once at most every `ms` (at the end of the wait). */
export function throttledCounter(ms: number) {
  const value = signal(0);
  let movedAt = -Infinity;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const now = () => {
    clearTimeout(timer);
    timer = undefined;
    movedAt = Date.now();
    value.value += 1;
  };
  const soon = () => {
    if (timer !== undefined) return;
    const wait = movedAt + ms - Date.now();
    if (wait <= 0) now();
    else timer = setTimeout(now, wait);
  };
  /** Forgets the last move and a move waiting: the next `soon()` moves at once. */
  const reset = () => {
    clearTimeout(timer);
    timer = undefined;
    movedAt = -Infinity;
  };
  return { value, now, soon, reset };
}
