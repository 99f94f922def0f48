// Signal store for the scan summary: server payload, loading flag, scan progress and error kept apart.
import { signal } from "@preact/signals";
import type { SummaryResponse } from "../../../shared/api.js";
import type { ScanProgress } from "../../../shared/scan-report.js";
import { type ApiClient, createApiClient } from "../api/client.js";

export function createSummaryStore(
  api: Pick<ApiClient, "summary" | "startScan" | "followScan"> = createApiClient(),
) {
  const data = signal<SummaryResponse | undefined>(undefined);
  const loading = signal(false);
  /** The running scan's progress, from the server's event stream; undefined when none runs. */
  const progress = signal<ScanProgress | undefined>(undefined);
  const error = signal<string | undefined>(undefined);

  /** Loads the summary; `rescan` asks the server to look at the disk again first, following its progress. */
  async function refresh(options: { rescan?: boolean } = {}) {
    loading.value = true;
    try {
      if (options.rescan) {
        await api.startScan();
        progress.value = { phase: "walking", filesDone: 0, filesTotal: 0, bytesDone: 0, bytesTotal: 0 };
        await api.followScan((p) => (progress.value = p));
      }
      data.value = await api.summary();
      error.value = undefined;
    } catch (caught) {
      error.value = caught instanceof Error ? caught.message : String(caught);
    } finally {
      progress.value = undefined;
      loading.value = false;
    }
  }

  return { data, loading, progress, error, refresh };
}

export type SummaryStore = ReturnType<typeof createSummaryStore>;
