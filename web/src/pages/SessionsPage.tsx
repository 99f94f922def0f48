// Sessions: every session of the last look, sortable by each column (TanStack Table), filtered,
// and windowed — only the rows in view (plus a margin) are in the DOM, so 100,000 scroll smoothly.
// Rows that may not be deleted show why and cannot be selected.
import {
  createColumnHelper,
  createSortedRowModel,
  rowSortingFeature,
  type SortingState,
  sortFn_text,
  tableFeatures,
  useTable,
} from "@tanstack/preact-table";
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import type { SessionRow } from "../../../shared/api.js";
import { Bytes } from "../components/Bytes.js";
import { RelativeTime } from "../components/RelativeTime.js";
import type { CleanSource } from "../components/CleanWizard.js";
import { clickRow, selectAll } from "../state/selection.js";
import type { SessionsStore } from "../state/sessions-store.js";

const ROW_HEIGHT = 36;
/** Rows rendered above and below the visible ones. */
const OVERSCAN = 20;

const features = tableFeatures({
  rowSortingFeature,
  sortedRowModel: createSortedRowModel(),
  sortFns: { text: sortFn_text },
});
const column = createColumnHelper<typeof features, SessionRow>();

type Compare = (a: { original: SessionRow }, b: { original: SessionRow }) => number;
// Comparators on the row objects themselves: at 100,000 rows the generic ones (a value lookup
// per comparison) take most of a sort's time.
const byNumber =
  (key: "sizeBytes" | "messageCount"): Compare =>
  (a, b) =>
    a.original[key] - b.original[key];
/** ISO times compare as strings. */
const byTime =
  (key: "createdAt" | "modifiedAt" | "lastUsedAt"): Compare =>
  (a, b) =>
    a.original[key] < b.original[key] ? -1 : a.original[key] > b.original[key] ? 1 : 0;

/** Stable across renders: TanStack recomputes what depends on the columns when they change. */
const columns = column.columns([
  column.accessor("path", { header: "Session", sortFn: "text" }),
  column.accessor("namespace", { header: "Namespace", sortFn: "text" }),
  column.accessor("sizeBytes", { header: "Size", sortFn: byNumber("sizeBytes"), sortDescFirst: true }),
  column.accessor("createdAt", { header: "Created", sortFn: byTime("createdAt") }),
  column.accessor("modifiedAt", { header: "Modified", sortFn: byTime("modifiedAt") }),
  column.accessor("lastUsedAt", { header: "Last used", sortFn: byTime("lastUsedAt") }),
  column.accessor("messageCount", {
    header: "Entries",
    sortFn: byNumber("messageCount"),
    sortDescFirst: true,
  }),
]);

/** "pinned" → what the badge says. */
const KEPT_LABELS: Record<string, string> = {
  active: "active",
  pinned: "pinned",
  protected: "protected",
  "unknown-age": "unknown age",
  recent: "recent",
  "last-in-namespace": "last in namespace",
};

export function SessionsPage({
  store,
  now,
  onClean,
  onOpen,
}: {
  store: SessionsStore;
  now: Date;
  /** A hand selection, or — when the selection is every session the filter shows — the filter. */
  onClean: (source: Extract<CleanSource, { kind: "selection" | "filter" }>) => void;
  /** Opens a session's details. */
  onOpen: (id: string) => void;
}) {
  useEffect(() => {
    if (!store.loaded.value) void store.load();
  }, [store]);
  // Least recently used first: the sessions a cleanup would look at first.
  const [sorting, setSorting] = useState<SortingState>([{ id: "lastUsedAt", desc: false }]);
  const [anchor, setAnchor] = useState<string | undefined>(undefined);
  const shown = store.shown.value;
  const selected = store.selected.value;

  const table = useTable({
    features,
    columns,
    data: shown,
    state: { sorting },
    onSortingChange: (updater) =>
      setSorting((old) => (typeof updater === "function" ? updater(old) : updater)),
    enableSortingRemoval: false,
  });
  const rowModel = table.getRowModel().rows;
  // Memoized by the table's own (memoized) row model: scrolling re-renders, it must not re-map.
  const ordered = useMemo(() => rowModel.map((r) => r.original), [rowModel]);

  const viewport = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(600);
  useEffect(() => {
    const element = viewport.current;
    if (!element) return;
    const observer = new ResizeObserver(() => setHeight(element.clientHeight));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  const first = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(ordered.length, Math.ceil((scrollTop + height) / ROW_HEIGHT) + OVERSCAN);
  const visible = ordered.slice(first, last);

  const filters = store.filters.value;
  const setFilter = (patch: Partial<typeof filters>) => (store.filters.value = { ...filters, ...patch });
  const selectable = shown.filter((r) => !r.kept).length;
  const shownIds = useMemo(() => new Set(shown.map((r) => r.id)), [shown]);
  // The selection is exactly "everything the filter shows that may go" (a selection only ever
  // holds rows that may go): then the filter is sent instead of the ids, so any number works.
  const allMatching =
    selectable > 0 && selected.size === selectable && shown.every((r) => r.kept || selected.has(r.id));

  if (store.error.value)
    return (
      <div class="banner error" role="alert">
        {store.error.value}
      </div>
    );
  if (!store.loaded.value) return <p class="empty">Loading sessions…</p>;

  return (
    <section class="sessions" aria-label="Sessions">
      <form class="filters" role="search" onSubmit={(e) => e.preventDefault()}>
        <label>
          Search
          <input
            type="search"
            data-testid="filter-text"
            placeholder="path, name or namespace"
            value={filters.text}
            onInput={(e) => setFilter({ text: e.currentTarget.value })}
          />
        </label>
        <label>
          Namespace
          <select
            data-testid="filter-namespace"
            value={filters.namespace}
            onChange={(e) => setFilter({ namespace: e.currentTarget.value })}
          >
            <option value="">all</option>
            {store.namespaces.value.map((ns) => (
              <option key={ns} value={ns}>
                {ns}
              </option>
            ))}
          </select>
        </label>
        <label>
          Store
          <select
            value={filters.store}
            onChange={(e) => setFilter({ store: e.currentTarget.value as typeof filters.store })}
          >
            <option value="">all</option>
            <option value="pi">pi</option>
            <option value="agentsh">agentsh</option>
            <option value="workspace">workspace</option>
          </select>
        </label>
        <label>
          Status
          <select
            data-testid="filter-status"
            value={filters.status}
            onChange={(e) => setFilter({ status: e.currentTarget.value as typeof filters.status })}
          >
            <option value="">all</option>
            <option value="deletable">may be cleaned</option>
            <option value="kept">kept (active, pinned, protected…)</option>
          </select>
        </label>
        <label class="check">
          <input
            type="checkbox"
            checked={filters.warningsOnly}
            onChange={(e) => setFilter({ warningsOnly: e.currentTarget.checked })}
          />
          with warnings
        </label>
        <span class="count" data-testid="shown-count">
          {shown.length.toLocaleString("en-US")} of {store.rows.value.length.toLocaleString("en-US")}
        </span>
      </form>

      <div
        class="table-viewport"
        ref={viewport}
        onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
        data-testid="sessions-viewport"
      >
        <table class="data sessions-table" aria-rowcount={ordered.length + 1}>
          <thead>
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                <th scope="col" class="select">
                  <input
                    type="checkbox"
                    aria-label="Select every session that matches the filter"
                    data-testid="select-all"
                    disabled={selectable === 0}
                    checked={selectable > 0 && shown.every((r) => r.kept || selected.has(r.id))}
                    title="Select every session that matches the filter (any number: the filter itself is sent)"
                    onChange={(e) =>
                      (store.selected.value = e.currentTarget.checked
                        ? selectAll(selected, shown)
                        : new Set([...selected].filter((id) => !shownIds.has(id))))
                    }
                  />
                </th>
                {group.headers.map((header) => {
                  const sorted = header.column.getIsSorted();
                  return (
                    <th
                      key={header.id}
                      scope="col"
                      class={
                        header.column.id === "sizeBytes" || header.column.id === "messageCount" ? "num" : ""
                      }
                      aria-sort={sorted === "asc" ? "ascending" : sorted === "desc" ? "descending" : "none"}
                    >
                      <button
                        type="button"
                        class="sort"
                        data-testid={`sort-${header.column.id}`}
                        onClick={header.column.getToggleSortingHandler()}
                      >
                        <table.FlexRender header={header} />
                        <span aria-hidden="true">
                          {sorted === "asc" ? " ▲" : sorted === "desc" ? " ▼" : ""}
                        </span>
                      </button>
                    </th>
                  );
                })}
                <th scope="col">Status</th>
              </tr>
            ))}
          </thead>
          <tbody>
            {first > 0 && <tr style={{ height: `${first * ROW_HEIGHT}px` }} aria-hidden="true" />}
            {visible.map((row, i) => {
              const isSelected = selected.has(row.id);
              return (
                <tr
                  key={row.id}
                  data-testid="session-row"
                  data-id={row.id}
                  aria-rowindex={first + i + 2}
                  class={isSelected ? "selected" : ""}
                >
                  <td class="select">
                    <input
                      type="checkbox"
                      data-testid="row-select"
                      aria-label={`Select ${row.path}`}
                      checked={isSelected}
                      disabled={row.kept !== undefined}
                      title={row.kept ? `Cannot be cleaned: ${KEPT_LABELS[row.kept] ?? row.kept}` : undefined}
                      onClick={(e) => {
                        store.selected.value = clickRow(selected, ordered, row, anchor, e.shiftKey);
                        setAnchor(row.id);
                      }}
                    />
                  </td>
                  <td class="path" title={row.path}>
                    <button
                      type="button"
                      class="link"
                      data-testid="open-session"
                      onClick={() => onOpen(row.id)}
                    >
                      {row.name && <strong class="name">{row.name} </strong>}
                      {row.path.slice(row.path.lastIndexOf("/") + 1)}
                    </button>
                    {row.tags?.map((tag) => (
                      <span key={tag} class="tag">
                        {tag}
                      </span>
                    ))}
                  </td>
                  <td class="path" title={row.namespace}>
                    {row.namespace}
                  </td>
                  <td class="num" data-bytes={row.sizeBytes}>
                    <Bytes value={row.sizeBytes} />
                  </td>
                  <td>
                    <RelativeTime iso={row.createdAt} now={now} />
                  </td>
                  <td>
                    <RelativeTime iso={row.modifiedAt} now={now} />
                  </td>
                  <td>
                    <RelativeTime iso={row.lastUsedAt} now={now} />
                  </td>
                  <td class="num">{row.messageCount.toLocaleString("en-US")}</td>
                  <td>
                    {row.kept && (
                      <span class={`badge kept-${row.kept}`} data-testid="kept-badge">
                        {KEPT_LABELS[row.kept] ?? row.kept}
                      </span>
                    )}
                    {row.warnings > 0 && (
                      <span class="badge warning" title="Open the session for its warnings">
                        {row.warnings} warning{row.warnings === 1 ? "" : "s"}
                      </span>
                    )}
                  </td>
                </tr>
              );
            })}
            {last < ordered.length && (
              <tr style={{ height: `${(ordered.length - last) * ROW_HEIGHT}px` }} aria-hidden="true" />
            )}
          </tbody>
        </table>
        {shown.length === 0 && <p class="empty">No session matches these filters.</p>}
      </div>

      <footer class="selection-bar" data-testid="selection-bar">
        <span data-testid="selection-count">
          {selected.size.toLocaleString("en-US")} selected · <Bytes value={store.selectedBytes.value} />
          {allMatching && (
            <span class="hint" data-testid="selection-all-matching">
              {" "}
              — every session matching the filter that may be cleaned
            </span>
          )}
        </span>
        <button
          type="button"
          disabled={selected.size === 0}
          onClick={() => (store.selected.value = new Set())}
        >
          Clear
        </button>
        <button
          type="button"
          class="primary"
          data-testid="clean-selected"
          disabled={selected.size === 0}
          onClick={() =>
            onClean(
              allMatching
                ? { kind: "filter", filter: filters, ids: [...selected] }
                : { kind: "selection", ids: [...selected] },
            )
          }
        >
          Clean selected…
        </button>
      </footer>
    </section>
  );
}
