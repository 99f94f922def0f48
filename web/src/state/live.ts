// The page's end of the live look: it keeps the server's event stream open, hands each look to the
// summary and sessions stores, and says how the server follows the stores (watching them, or
// rescanning because it cannot watch). A stream that ends or fails is opened again after a pause
// that grows from 1 s to 30 s; once it is open again the stores reload, since looks were missed.
import { signal } from "@preact/signals";
import type { WatchStatus } from "../../../shared/api.js";
import { ApiError, type ApiClient, createApiClient, type LookChange } from "../api/client.js";

/** Pause before the n-th reconnection in a row (0 first): 1 s, 2 s, 4 s… at most 30 s. */
export const reconnectDelay = (attempt: number) => Math.min(30_000, 1000 * 2 ** Math.min(attempt, 5));

export interface LiveTargets {
  /** A look from the stream. */
  look: (change: LookChange) => void;
  /** The stream is open again after it ended or failed: looks were missed. */
  reopened: () => void;
}

export function createLiveFeed(
  targets: LiveTargets,
  api: Pick<ApiClient, "events"> = createApiClient(),
  wait = (ms: number, signal: AbortSignal) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      signal.addEventListener("abort", () => {
        clearTimeout(timer);
        resolve();
      });
    }),
) {
  /** How the server follows the stores, while the stream is open; undefined when it is not. */
  const watch = signal<WatchStatus | undefined>(undefined);
  /**
   * Why the page is not following the stores although it was: `lost` while the stream, once open,
   * cannot be opened again (tried again and again); `refused` when the server no longer takes this
   * page's token (it was restarted: its new address has a new one), with what to do.
   */
  const trouble = signal<{ kind: "lost" } | { kind: "refused"; message: string } | undefined>(undefined);

  /** Opens the stream and keeps it open until the returned function is called. */
  function start(): () => void {
    const stop = new AbortController();
    void (async () => {
      let attempt = 0;
      let everOpen = false;
      while (!stop.signal.aborted) {
        let opened = false;
        /** The first event of a stream: the server answered with a stream (it sends `watch` at once). */
        const open = () => {
          if (opened) return;
          opened = true;
          attempt = 0;
          trouble.value = undefined;
          if (everOpen) targets.reopened();
          everOpen = true;
        };
        try {
          await api.events(
            {
              watch: (status) => {
                open();
                watch.value = status;
              },
              look: (change) => {
                open();
                targets.look(change);
              },
            },
            stop.signal,
          );
        } catch (error) {
          // A token the server does not take will not be taken later: open its new address.
          if (error instanceof ApiError && error.status === 401) {
            trouble.value = {
              kind: "refused",
              message:
                "The dashboard's server no longer takes this page's access token: it was restarted. Open the address it printed (it ends in #token=…).",
            };
            watch.value = undefined;
            return;
          }
          // Not reachable, or cut: tried again below.
        }
        watch.value = undefined;
        if (stop.signal.aborted) break;
        if (everOpen && !opened) trouble.value = { kind: "lost" };
        await wait(reconnectDelay(attempt), stop.signal);
        attempt += 1;
      }
    })();
    return () => stop.abort();
  }

  return { watch, trouble, start };
}

export type LiveFeed = ReturnType<typeof createLiveFeed>;
