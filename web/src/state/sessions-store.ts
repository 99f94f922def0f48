// Signal store for the sessions table: every row of the last look (decoded once), the filters,
// and the selection. Sorting belongs to the table itself; filtering happens here, once per change.
import { computed, signal } from "@preact/signals";
import type { SessionRow } from "../../../shared/api.js";
import { type ApiClient, createApiClient } from "../api/client.js";

export interface SessionFilters {
  text: string;
  namespace: string;
  store: string;
  /** "" = any; "keepable" = may be deleted; "kept" = kept for some reason. */
  status: "" | "deletable" | "kept";
  warningsOnly: boolean;
}

const NO_FILTERS: SessionFilters = { text: "", namespace: "", store: "", status: "", warningsOnly: false };

export function createSessionsStore(api: Pick<ApiClient, "sessions"> = createApiClient()) {
  const rows = signal<SessionRow[]>([]);
  const namespaces = signal<string[]>([]);
  const loading = signal(false);
  const loaded = signal(false);
  const error = signal<string | undefined>(undefined);
  const filters = signal<SessionFilters>(NO_FILTERS);
  const selected = signal<ReadonlySet<string>>(new Set());

  const shown = computed(() => {
    const f = filters.value;
    const text = f.text.trim().toLowerCase();
    if (!text && !f.namespace && !f.store && !f.status && !f.warningsOnly) return rows.value;
    return rows.value.filter(
      (r) =>
        (!f.namespace || r.namespace === f.namespace) &&
        (!f.store || r.store === f.store) &&
        (!f.status || (f.status === "kept") === (r.kept !== undefined)) &&
        (!f.warningsOnly || r.warnings > 0) &&
        (!text ||
          r.path.toLowerCase().includes(text) ||
          (r.name?.toLowerCase().includes(text) ?? false) ||
          r.namespace.toLowerCase().includes(text)),
    );
  });

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
