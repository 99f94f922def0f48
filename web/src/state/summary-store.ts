// Signal store for the scan summary: server payload, loading flag and error kept apart.
import { signal } from "@preact/signals";
import type { SummaryResponse } from "../../../shared/api.js";
import { type ApiClient, createApiClient } from "../api/client.js";

export function createSummaryStore(api: Pick<ApiClient, "summary" | "startScan"> = createApiClient()) {
  const data = signal<SummaryResponse | undefined>(undefined);
  const loading = signal(false);
  const error = signal<string | undefined>(undefined);

  /** Loads the summary; `rescan` asks the server to look at the disk again first. */
  async function refresh(options: { rescan?: boolean } = {}) {
    loading.value = true;
    try {
      if (options.rescan) await api.startScan();
      data.value = await api.summary();
      error.value = undefined;
    } catch (caught) {
      error.value = caught instanceof Error ? caught.message : String(caught);
    } finally {
      loading.value = false;
    }
  }

  return { data, loading, error, refresh };
}

export type SummaryStore = ReturnType<typeof createSummaryStore>;
