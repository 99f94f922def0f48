// Signal store for the scan summary: server payload, loading flag, scan progress and error kept apart.
// The summary follows the live look: each look from the server's event stream replaces it. What the
// page derives from it by asking the server again (the plan, the trash, growth, a namespace's
// sessions in the treemap) follows `settled`, which moves at once after a refresh and at most every
// FOLLOW_MS while looks come, so an agent writing does not make the page ask for a plan each time.
import { signal } from "@preact/signals";
import type { SummaryResponse } from "../../../shared/api.js";
import type { ScanProgress } from "../../../shared/scan-report.js";
import { type ApiClient, createApiClient, type LookChange } from "../api/client.js";

/** The least time between two moves of `settled` made by looks. */
export const FOLLOW_MS = 3000;

export function createSummaryStore(
  api: Pick<ApiClient, "summary" | "startScan" | "followScan"> = createApiClient(),
) {
  const data = signal<SummaryResponse | undefined>(undefined);
  const loading = signal(false);
  /** The running scan's progress, from the server's event stream; undefined when none runs. */
  const progress = signal<ScanProgress | undefined>(undefined);
  const error = signal<string | undefined>(undefined);
  /** Moves when what is derived from the summary should be asked for again (see above). */
  const settled = signal(0);

  /** The look `data` comes from, when known: an older look is not taken over it. */
  let version: number | undefined;
  /** Looks taken so far: a refresh that saw one arrive keeps it rather than its own, older answer. */
  let looks = 0;
  let settledAt = -Infinity;
  let timer: ReturnType<typeof setTimeout> | undefined;

  function settle() {
    clearTimeout(timer);
    timer = undefined;
    settledAt = Date.now();
    settled.value += 1;
  }

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
      settle();
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
    if (timer === undefined) {
      const wait = settledAt + FOLLOW_MS - Date.now();
      if (wait <= 0) settle();
      else timer = setTimeout(settle, wait);
    }
  }

  /** The stream was cut: the server may have restarted and counts its looks from anew. */
  function forgetVersion() {
    version = undefined;
  }

  return { data, loading, progress, error, settled, refresh, applyLook, forgetVersion };
}

export type SummaryStore = ReturnType<typeof createSummaryStore>;
