// Signal store for the sessions table: every row of the last look (decoded once), the filters,
// and the selection. Sorting belongs to the table itself; filtering happens here, once per change.
// The first load shows the first rows at once (a small page in the table's default order) while
// the whole table — 15 MB at 100,000 sessions — arrives; until then the table is not `complete`
// and the page offers no filter, sort or selection, which would see only part of the rows.
import { computed, signal } from "@preact/signals";
import type { SessionRow } from "../../../shared/api.js";
import { filterSessions, NO_FILTER, type SessionFilter } from "../../../shared/session-filter.js";
import { type ApiClient, createApiClient } from "../api/client.js";

/** The same filter the server evaluates for "clean everything matching" (shared/session-filter.ts). */
export type SessionFilters = SessionFilter;

/** Rows of the first page: a screenful and more. */
export const FIRST_PAGE = 100;

export function createSessionsStore(api: Pick<ApiClient, "sessions"> = createApiClient()) {
  const rows = signal<SessionRow[]>([]);
  /** Every session of the look is in `rows` (false while only the first page is). */
  const complete = signal(false);
  /** How many sessions the look has (known from the first page on). */
  const total = signal(0);
  const namespaces = signal<string[]>([]);
  /** Each verdict code's words for the current policy (none without a valid policy). */
  const verdicts = signal<Record<string, string>>({});
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
      if (!loaded.value) {
        // Least recently used first: the server's default order is the table's default order.
        const first = await api.sessions({ sort: "lru", limit: FIRST_PAGE });
        total.value = first.total;
        namespaces.value = first.namespaces;
        verdicts.value = first.verdicts ?? {};
        rows.value = first.rows;
        loaded.value = true;
        if (first.rows.length >= first.total) {
          complete.value = true;
          error.value = undefined;
          return;
        }
      }
      const table = await api.sessions();
      rows.value = table.rows;
      total.value = table.total;
      complete.value = true;
      namespaces.value = table.namespaces;
      verdicts.value = table.verdicts ?? {};
      // A selection only ever holds rows that still exist and may still go.
      if (selected.value.size > 0) {
        const selectable = new Set(table.rows.filter((r) => !r.kept).map((r) => r.id));
        selected.value = new Set([...selected.value].filter((id) => selectable.has(id)));
      }
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
    verdicts,
    complete,
    total,
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
