import { describe, expect, it } from "vitest";
import type { WatchStatus } from "../../../shared/api.js";
import { ApiError, type ApiClient, type LookChange } from "../api/client.js";
import { createLiveFeed, reconnectDelay } from "./live.js";

type Handlers = Parameters<ApiClient["events"]>[0];
/** What one opening of the stream does: its events, then how it ends. */
type Script = { events?: Array<["watch", WatchStatus] | ["look", LookChange]>; end: "ends" | "fails" };

const look = (version: number) => ({ version, from: version - 1 }) as LookChange;

/**
 * A feed over a fake stream that plays `scripts` one opening after the other, and a fake clock
 * that records each pause; the last opening stays open until the feed is stopped.
 */
function feedOver(scripts: Script[]) {
  const log: string[] = [];
  let opened = 0;
  const api = {
    events: async (on: Handlers, signal?: AbortSignal) => {
      const script = scripts[opened++];
      log.push("open");
      if (!script) {
        await new Promise<void>((resolve) => signal?.addEventListener("abort", () => resolve()));
        return;
      }
      for (const [kind, data] of script.events ?? []) {
        if (kind === "watch") on.watch(data);
        else on.look(data);
        await Promise.resolve();
      }
      if (script.end === "fails") throw new ApiError("The session-retention server is not reachable.");
    },
  };
  const feed = createLiveFeed(
    {
      look: (change) => log.push(`look ${change.version}`),
      reopened: () => log.push("reopened"),
    },
    api,
    async (ms) => {
      log.push(`wait ${ms}`);
    },
  );
  return { feed, log, done: () => opened > scripts.length };
}

const settle = async (done: () => boolean) => {
  for (let i = 0; i < 100 && !done(); i++) await new Promise((r) => setTimeout(r, 0));
};

describe("the live feed", () => {
  it("waits 1 s, then longer, up to 30 s, while the stream cannot be opened", () => {
    expect([0, 1, 2, 3, 4, 5, 6, 20].map(reconnectDelay)).toEqual([
      1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000,
    ]);
  });

  it("hands each look on, opens the stream again when it ends or fails, and says when looks were missed", async () => {
    const { feed, log, done } = feedOver([
      {
        events: [
          ["watch", { mode: "watching" }],
          ["look", look(1)],
        ],
        end: "ends",
      },
      { end: "fails" },
      { end: "fails" },
      {
        events: [
          ["watch", { mode: "watching" }],
          ["look", look(7)],
        ],
        end: "fails",
      },
    ]);
    const stop = feed.start();
    await settle(done);
    stop();
    expect(log).toEqual([
      "open",
      "look 1",
      "wait 1000", // the stream ended: again after 1 s
      "open",
      "wait 2000", // refused: longer each time
      "open",
      "wait 4000",
      "open",
      "reopened", // open again: what was missed is loaded again, once
      "look 7",
      "wait 1000", // it was open: from 1 s again
      "open",
    ]);
  });

  it("says how the server follows the stores while the stream is open, and nothing once it is cut", async () => {
    let cut: () => void = () => {};
    const api = {
      events: (on: Handlers) =>
        new Promise<void>((_, reject) => {
          on.watch({ mode: "rescanning", message: "The inotify watch limit is reached." });
          cut = () => reject(new ApiError("cut"));
        }),
    };
    const feed = createLiveFeed({ look: () => {}, reopened: () => {} }, api, () => new Promise(() => {}));
    const stop = feed.start();
    await Promise.resolve();
    expect(feed.watch.value).toEqual({ mode: "rescanning", message: "The inotify watch limit is reached." });
    cut();
    await new Promise((r) => setTimeout(r, 0));
    expect(feed.watch.value).toBeUndefined();
    stop();
  });

  it("says the connection is lost while it cannot be opened again, and no more once it is", async () => {
    const troubles: unknown[] = [];
    let opened = 0;
    const api = {
      events: async (on: Handlers) => {
        opened += 1;
        if (opened === 2) throw new ApiError("The session-retention server is not reachable.");
        on.watch({ mode: "watching" });
      },
    };
    const feed = createLiveFeed({ look: () => {}, reopened: () => {} }, api, async () => {
      troubles.push(feed.trouble.value?.kind);
      await new Promise((r) => setTimeout(r, 0));
    });
    const stop = feed.start();
    for (let i = 0; i < 50 && opened < 4; i++) await new Promise((r) => setTimeout(r, 0));
    stop();
    // Open and ended (nothing wrong yet), refused once (lost), open again (all well).
    expect(troubles.slice(0, 3)).toEqual([undefined, "lost", undefined]);
  });

  it("stops trying when the server no longer takes the page's token, and says why", async () => {
    let opened = 0;
    const api = {
      events: async (on: Handlers) => {
        opened += 1;
        if (opened === 1) return on.watch({ mode: "watching" });
        throw new ApiError("This page has no valid access token.", 401);
      },
    };
    const feed = createLiveFeed({ look: () => {}, reopened: () => {} }, api, async () => {});
    feed.start();
    for (let i = 0; i < 50; i++) await new Promise((r) => setTimeout(r, 0));
    expect(opened).toBe(2);
    expect(feed.trouble.value).toEqual({
      kind: "refused",
      message: expect.stringContaining("was restarted"),
    });
    expect(feed.watch.value).toBeUndefined();
  });

  it("stops: the stream is closed and not opened again", async () => {
    let signal: AbortSignal | undefined;
    let opened = 0;
    const api = {
      events: (_on: Handlers, s?: AbortSignal) => {
        opened += 1;
        signal = s;
        return new Promise<void>((resolve) => s?.addEventListener("abort", () => resolve()));
      },
    };
    const feed = createLiveFeed({ look: () => {}, reopened: () => {} }, api);
    const stop = feed.start();
    await Promise.resolve();
    stop();
    expect(signal?.aborted).toBe(true);
    await new Promise((r) => setTimeout(r, 10));
    expect(opened).toBe(1);
  });
});
