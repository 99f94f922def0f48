// Signal store for the scan summary: server payload, loading flag, scan progress and error kept apart.
// The summary follows the live look: each look from the server's event stream replaces it. What the
// page derives from it by asking the server again follows two counters that move at once after a
// refresh and, while looks come, at most every FOLLOW_MS (the trash, growth, a namespace's sessions
// in the treemap) or every PLAN_FOLLOW_MS (the policy's plan, seconds of work for the server at
// 100,000 sessions) — so an agent writing does not make the page ask for them at every look.
import { signal } from "@preact/signals";
import type { SummaryResponse } from "../../../shared/api.js";
import type { ScanProgress } from "../../../shared/scan-report.js";
import { type ApiClient, createApiClient, type LookChange } from "../api/client.js";
import { throttledCounter } from "./throttled-counter.js";

/** The least time between two moves of `settled` made by looks. */
export const FOLLOW_MS = 3000;
/** The least time between two moves of `planSettled` made by looks. */
export const PLAN_FOLLOW_MS = 30_000;

export function createSummaryStore(
  api: Pick<ApiClient, "summary" | "startScan" | "followScan"> = createApiClient(),
) {
  const data = signal<SummaryResponse | undefined>(undefined);
  const loading = signal(false);
  /** The running scan's progress, from the server's event stream; undefined when none runs. */
  const progress = signal<ScanProgress | undefined>(undefined);
  const error = signal<string | undefined>(undefined);
  /** Moves when what is derived from the summary is to be asked for again (see above). */
  const settled = throttledCounter(FOLLOW_MS);
  /** The same for the policy's plan. */
  const planSettled = throttledCounter(PLAN_FOLLOW_MS);

  /** The look `data` comes from, when known: an older look is not taken over it. */
  let version: number | undefined;
  /** Looks taken so far: a refresh that saw one arrive keeps it rather than its own, older answer. */
  let looks = 0;

  /** Loads the summary; `rescan` asks the server to look at the disk again first, following its progress. */
  async function refresh(options: { rescan?: boolean } = {}) {
    loading.value = true;
    try {
      if (options.rescan) {
        await api.startScan();
        progress.value = { phase: "walking", filesDone: 0, filesTotal: 0, bytesDone: 0, bytesTotal: 0 };
        await api.followScan((p) => (progress.value = p));
      }
      const seen = looks;
      const answer = await api.summary();
      if (looks === seen) {
        data.value = answer;
        version = answer.version;
      }
      error.value = undefined;
      settled.now();
      planSettled.now();
    } catch (caught) {
      error.value = caught instanceof Error ? caught.message : String(caught);
    } finally {
      progress.value = undefined;
      loading.value = false;
    }
  }

  /** A look from the live stream: its summary is the summary now. */
  function applyLook(change: LookChange) {
    if (version !== undefined && change.version <= version) return;
    data.value = change.summary;
    version = change.version;
    looks += 1;
    settled.soon();
    planSettled.soon();
  }

  /** The stream was cut: the server may have restarted and counts its looks from anew. */
  function forgetVersion() {
    version = undefined;
  }

  return {
    data,
    loading,
    progress,
    error,
    settled: settled.value,
    planSettled: planSettled.value,
    refresh,
    applyLook,
    forgetVersion,
  };
}

export type SummaryStore = ReturnType<typeof createSummaryStore>;
