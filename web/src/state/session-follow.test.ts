import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { SessionRow } from "../../../shared/api.js";
import type { LookChange } from "../api/client.js";
import { createSessionFollow } from "./session-follow.js";

const MS = 3000;
const look = (upserted: string[], removed: string[] = []) =>
  ({
    sessions: { upserted: upserted.map((id) => ({ id }) as SessionRow), removed },
  }) as LookChange;

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe("the drawer follows its session in the live look", () => {
  it("a look naming the session moves `changed`; one naming others, or none followed, does not", () => {
    const follow = createSessionFollow(MS);
    follow.applyLook(look(["a"]));
    expect(follow.changed.value).toBe(0); // no drawer open
    follow.follow("a");
    follow.applyLook(look(["b", "c"]));
    expect(follow.changed.value).toBe(0);
    follow.applyLook(look(["b", "a"]));
    expect(follow.changed.value).toBe(1);
    follow.follow(undefined);
    follow.applyLook(look(["a"]));
    vi.advanceTimersByTime(MS);
    expect(follow.changed.value).toBe(1);
  });

  it("while an agent writes, the drawer reads again at most every few seconds, and the last change is read", () => {
    const follow = createSessionFollow(MS);
    follow.follow("a");
    for (let i = 0; i < 20; i++) {
      follow.applyLook(look(["a"]));
      vi.advanceTimersByTime(250);
    }
    // 5 s of looks: at once, then once 3 s later.
    expect(follow.changed.value).toBe(2);
    vi.advanceTimersByTime(MS);
    expect(follow.changed.value).toBe(3); // the looks after the last read are not left unread
    vi.advanceTimersByTime(10 * MS);
    expect(follow.changed.value).toBe(3);
  });

  it("a look naming it removed says it is gone (removed wins over upserted, as in the table); a new drawer is not", () => {
    const follow = createSessionFollow(MS);
    follow.follow("a");
    follow.applyLook(look(["a"], ["a"]));
    expect(follow.gone.value).toBe(true);
    // The same id back (moved within the store): there again.
    follow.applyLook(look(["a"]));
    expect(follow.gone.value).toBe(false);
    follow.applyLook(look([], ["a"]));
    expect(follow.gone.value).toBe(true);
    follow.follow("b");
    expect(follow.gone.value).toBe(false);
  });

  it("after missed looks a drawer said gone is not any more: it asks the server again", () => {
    const follow = createSessionFollow(MS);
    follow.follow("a");
    follow.applyLook(look([], ["a"]));
    expect(follow.gone.value).toBe(true);
    follow.missed();
    expect(follow.gone.value).toBe(false);
    expect(follow.changed.value).toBe(1);
  });

  it("a session newly followed has its first change read at once, whatever the last one's wait", () => {
    const follow = createSessionFollow(MS);
    follow.follow("a");
    follow.applyLook(look(["a"]));
    follow.applyLook(look(["a"])); // waits for the rest of the 3 s
    expect(follow.changed.value).toBe(1);
    follow.follow("b");
    follow.applyLook(look(["b"]));
    expect(follow.changed.value).toBe(2);
    vi.advanceTimersByTime(10 * MS);
    expect(follow.changed.value).toBe(2); // a's wait went with it
    expect(follow.followed.value).toBe("b");
  });

  it("after missed looks an open drawer reads again at once; a closed one does nothing", () => {
    const follow = createSessionFollow(MS);
    follow.missed();
    expect(follow.changed.value).toBe(0);
    follow.follow("a");
    follow.applyLook(look(["a"]));
    follow.missed();
    expect(follow.changed.value).toBe(2);
  });
});
