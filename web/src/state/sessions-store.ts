// Signal store for the sessions table: every row of the last look (decoded once), the filters,
// and the selection. Sorting belongs to the table itself; filtering happens here, once per change.
import { computed, signal } from "@preact/signals";
import type { SessionRow } from "../../../shared/api.js";
import { filterSessions, NO_FILTER, type SessionFilter } from "../../../shared/session-filter.js";
import { type ApiClient, createApiClient } from "../api/client.js";

/** The same filter the server evaluates for "clean everything matching" (shared/session-filter.ts). */
export type SessionFilters = SessionFilter;

export function createSessionsStore(api: Pick<ApiClient, "sessions"> = createApiClient()) {
  const rows = signal<SessionRow[]>([]);
  const namespaces = signal<string[]>([]);
  const loading = signal(false);
  const loaded = signal(false);
  const error = signal<string | undefined>(undefined);
  const filters = signal<SessionFilters>(NO_FILTER);
  const selected = signal<ReadonlySet<string>>(new Set());

  const shown = computed(() => filterSessions(rows.value, filters.value));

  const selectedRows = computed(() => {
    const ids = selected.value;
    return ids.size === 0 ? [] : rows.value.filter((r) => ids.has(r.id));
  });
  const selectedBytes = computed(() => selectedRows.value.reduce((sum, r) => sum + r.sizeBytes, 0));

  async function load() {
    loading.value = true;
    try {
      const table = await api.sessions();
      rows.value = table.rows;
      namespaces.value = table.namespaces;
      // A selection only ever holds rows that still exist and may still go.
      const selectable = new Set(table.rows.filter((r) => !r.kept).map((r) => r.id));
      selected.value = new Set([...selected.value].filter((id) => selectable.has(id)));
      error.value = undefined;
      loaded.value = true;
    } catch (caught) {
      error.value = caught instanceof Error ? caught.message : String(caught);
    } finally {
      loading.value = false;
    }
  }

  return {
    rows,
    namespaces,
    loading,
    loaded,
    error,
    filters,
    selected,
    shown,
    selectedRows,
    selectedBytes,
    load,
  };
}

export type SessionsStore = ReturnType<typeof createSessionsStore>;
