// Signal store for the sessions table: every row of the last look (decoded once), the filters,
// and the selection. Sorting belongs to the table itself; filtering happens here, once per change.
// The first load shows the first rows at once (a small page in the table's default order) while
// the whole table — 15 MB at 100,000 sessions — arrives; until then the table is not `complete`
// and the page offers no filter, sort or selection, which would see only part of the rows.
// Then the table follows the live look: each look's change (rows new, changed or gone) is applied
// to the rows held when they are the look it changes from; otherwise the table loads again.
import { batch, computed, signal } from "@preact/signals";
import type { SessionRow } from "../../../shared/api.js";
import { filterSessions, NO_FILTER, type SessionFilter } from "../../../shared/session-filter.js";
import { type ApiClient, createApiClient, type LookChange } from "../api/client.js";

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

  /** The look the complete table in `rows` comes from (undefined: none, or not known). */
  let version: number | undefined;
  /** Each row's place in `rows`, made when a change first needs it (undefined: not made yet). */
  let places: Map<string, number> | undefined;
  /** The load under way, and one more asked for while it runs (all such asks share it). */
  let running: Promise<void> | undefined;
  let again: Promise<void> | undefined;
  /** Looks that came while a load ran: applied, in order, to the table it brings. */
  let waiting: LookChange[] = [];

  /** A selection only ever holds rows that still exist and may still go. */
  function pruneSelection(gone: (id: string) => boolean) {
    if (selected.value.size === 0) return;
    const kept = [...selected.value].filter((id) => !gone(id));
    if (kept.length < selected.value.size) selected.value = new Set(kept);
  }

  function take(table: Awaited<ReturnType<ApiClient["sessions"]>>, whole: boolean) {
    batch(() => {
      total.value = table.total;
      namespaces.value = table.namespaces;
      verdicts.value = table.verdicts ?? {};
      rows.value = table.rows;
      places = undefined;
      loaded.value = true;
      if (!whole) return;
      complete.value = true;
      version = table.version;
      const selectable = new Set(table.rows.filter((r) => !r.kept).map((r) => r.id));
      pruneSelection((id) => !selectable.has(id));
      error.value = undefined;
    });
  }

  async function fetchTable() {
    loading.value = true;
    try {
      if (!loaded.value) {
        // Least recently used first: the server's default order is the table's default order.
        const first = await api.sessions({ sort: "lru", limit: FIRST_PAGE });
        const whole = first.rows.length >= first.total;
        take(first, whole);
        if (whole) return;
      }
      take(await api.sessions(), true);
    } catch (caught) {
      error.value = caught instanceof Error ? caught.message : String(caught);
      waiting = []; // the next look asks again
    } finally {
      loading.value = false;
    }
  }

  /**
   * Loads the whole table. Asked while a load runs, it loads once more after that one (its answer
   * may predate what the caller changed), however many times it is asked meanwhile.
   */
  function load(): Promise<void> {
    if (running) {
      again ??= running.then(() => {
        again = undefined;
        return load();
      });
      return again;
    }
    running = fetchTable().finally(() => {
      running = undefined;
      if (again) return; // that load catches up
      const came = waiting;
      waiting = [];
      for (const change of came) applyLook(change);
    });
    return running;
  }

  /** A change of the table's look `change.from` to look `change.version`, applied to `rows`. */
  function apply({ version: to, sessions }: LookChange) {
    const { upserted, removed } = sessions;
    const old = rows.value;
    let next: SessionRow[];
    if (removed.length === 0) {
      // The usual case, a session written to or a new one: one copy of the array, rows replaced
      // in place by their id's place, new ones added at the end.
      places ??= new Map(old.map((r, i) => [r.id, i]));
      next = old.slice();
      for (const row of upserted) {
        const at = places.get(row.id);
        if (at === undefined) places.set(row.id, next.push(row) - 1);
        else next[at] = row;
      }
    } else {
      const gone = new Set(removed);
      const fresh = new Map(upserted.filter((r) => !gone.has(r.id)).map((r) => [r.id, r]));
      next = [];
      for (const row of old) {
        if (gone.has(row.id)) continue;
        const changed = fresh.get(row.id);
        if (changed) fresh.delete(row.id);
        next.push(changed ?? row);
      }
      next.push(...fresh.values());
      places = undefined;
    }
    batch(() => {
      rows.value = next;
      total.value = sessions.total;
      namespaces.value = sessions.namespaces;
      verdicts.value = sessions.verdicts ?? {};
      version = to;
      const gone = new Set(removed);
      for (const row of upserted) if (row.kept) gone.add(row.id);
      pruneSelection((id) => gone.has(id));
    });
  }

  /**
   * A look from the live stream. The table of its `from` look takes it as a change; any other
   * table reloads (once, however many looks come meanwhile), and a table not loaded yet is left to
   * the Sessions page, which loads the look it opens on.
   */
  function applyLook(change: LookChange) {
    if (running) {
      waiting.push(change);
      return;
    }
    if (!loaded.value) return;
    if (version !== undefined && change.version <= version) return; // already in the table
    if (!complete.value || change.from !== version) {
      waiting.push(change);
      void load();
      return;
    }
    apply(change);
    // Every row the look has, or the table has drifted from the server's: the look's table.
    if (rows.value.length !== change.sessions.total) void load();
  }

  /**
   * The stream was cut and is open again: looks were missed, and a restarted server counts them
   * anew. A table there is loads again; looks that waited for a load are from before: dropped.
   */
  function resync() {
    waiting = [];
    if (loaded.value || running) void load();
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
    applyLook,
    resync,
    /** The look of the complete table held (tests, and the page's data attribute). */
    version: () => version,
  };
}

export type SessionsStore = ReturnType<typeof createSessionsStore>;
