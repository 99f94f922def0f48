// Signal store for the scan summary: server payload, loading flag and error kept apart.
import { signal } from "@preact/signals";
import type { SummaryResponse } from "../../../shared/api.js";
import { fetchSummary } from "../api/client.js";

export function createSummaryStore(
  load: (options: { rescan?: boolean }) => Promise<SummaryResponse> = fetchSummary,
) {
  const data = signal<SummaryResponse | undefined>(undefined);
  const loading = signal(false);
  const error = signal<string | undefined>(undefined);

  /** Loads the summary; `rescan` asks the server to look at the disk again first. */
  async function refresh(options: { rescan?: boolean } = {}) {
    loading.value = true;
    try {
      data.value = await load(options);
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
