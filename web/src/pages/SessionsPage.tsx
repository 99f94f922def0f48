// Sessions: every session of the last look, sortable by each column (TanStack Table), filtered,
// and windowed — only the rows in view (plus a margin) are in the DOM, so 100,000 scroll smoothly.
// Rows that may not be deleted show why and cannot be selected.
import {
  createColumnHelper,
  rowSortingFeature,
  type SortingState,
  tableFeatures,
  useTable,
} from "@tanstack/preact-table";
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import type { SessionRow } from "../../../shared/api.js";
import { AGENT_LABELS, STORE_KINDS } from "../../../shared/session-record.js";
import { fileName, sessionTitle } from "../../../shared/session-title.js";
import { wouldClean } from "../../../shared/verdict.js";
import { Bytes } from "../components/Bytes.js";
import type { CleanSource } from "../components/CleanWizard.js";
import { RelativeTime } from "../components/RelativeTime.js";
import { SessionName } from "../components/SessionName.js";
import { pageParams, setPageParams } from "../router.js";
import { clickRow, selectAll } from "../state/selection.js";
import type { SessionsStore } from "../state/sessions-store.js";
import { sortRows } from "../state/sort-rows.js";
import { fromParams, toParams } from "../state/url-state.js";

const ROW_HEIGHT = 36;
/** Rows rendered above and below the visible ones. */
const OVERSCAN = 20;

// TanStack keeps the headers and the sorting state (clicks, shift-click for several columns); the
// rows are sorted by sortRows, on keys taken once per row — no row model of 100,000 objects. Every
// column says its first direction, so TanStack never looks at the rows to guess it.
const features = tableFeatures({ rowSortingFeature });
const column = createColumnHelper<typeof features, SessionRow>();

/** Stable across renders: TanStack recomputes what depends on the columns when they change. */
const columns = column.columns([
  column.accessor("path", { header: "Session", sortDescFirst: false }),
  column.accessor("store", { header: "Agent", sortDescFirst: false }),
  column.accessor("namespace", { header: "Namespace", sortDescFirst: false }),
  column.accessor("sizeBytes", { header: "Size", sortDescFirst: true }),
  column.accessor("createdAt", { header: "Created", sortDescFirst: false }),
  column.accessor("modifiedAt", { header: "Modified", sortDescFirst: false }),
  column.accessor("lastUsedAt", { header: "Last used", sortDescFirst: false }),
  column.accessor("messageCount", { header: "Entries", sortDescFirst: true }),
]);

/** "pinned" → what the badge says. */
const KEPT_LABELS: Record<string, string> = {
  active: "active",
  pinned: "pinned",
  protected: "protected",
  "fork-parent": "fork parent",
  recent: "recent",
  "last-in-namespace": "last in namespace",
  "cannot-move": "cannot be moved",
};

/** The selection without the rows shown (the header box unchecked). */
function withoutShown(selected: ReadonlySet<string>, shown: readonly SessionRow[]) {
  const next = new Set(selected);
  for (const r of shown) next.delete(r.id);
  return next;
}

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
  // Filters and sort come from the address when it has them (a reload, a shared link); by default
  // least recently used first: the sessions a cleanup would look at first.
  const [sorting, setSorting] = useState<SortingState>(() => {
    const fromAddress = fromParams(pageParams());
    if (location.hash.includes("?")) store.filters.value = fromAddress.filters;
    return fromAddress.sorting;
  });
  // …and go back to the address as they change.
  useEffect(
    () => setPageParams("sessions", toParams(store.filters.value, sorting)),
    [store.filters.value, sorting],
  );
  const [anchor, setAnchor] = useState<string | undefined>(undefined);
  const shown = store.shown.value;
  const selected = store.selected.value;
  const verdicts = store.verdicts.value;
  const rows = store.rows.value;
  const anyArchived = useMemo(() => rows.some((r) => r.archived), [rows]);

  const table = useTable({
    features,
    columns,
    data: shown,
    state: { sorting },
    onSortingChange: (updater) =>
      setSorting((old) => (typeof updater === "function" ? updater(old) : updater)),
    enableSortingRemoval: false,
  });
  // Memoized: scrolling re-renders, it must not re-sort.
  const ordered = useMemo(() => sortRows(shown, sorting), [shown, sorting]);

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

  // Keyboard: the rows are one tab stop (a roving tabindex on the session's name): arrows move it,
  // Space selects, Enter opens. Without it reaching the selection bar took a Tab per row.
  const [activeId, setActiveId] = useState<string | undefined>(undefined);
  const focusActive = useRef(false);
  const tabStop = visible.some((r) => r.id === activeId) ? activeId : visible[0]?.id;
  useEffect(() => {
    if (!focusActive.current || !activeId) return;
    focusActive.current = false;
    viewport.current
      ?.querySelector<HTMLElement>(`tr[data-id="${CSS.escape(activeId)}"] [data-testid="open-session"]`)
      ?.focus();
  });
  const onRowKey = (event: KeyboardEvent) => {
    const tr = (event.target as HTMLElement).closest<HTMLElement>("tr[data-id]");
    const element = viewport.current;
    if (!tr || !element) return;
    const index = ordered.findIndex((r) => r.id === tr.dataset.id);
    const row = ordered[index];
    if (!row) return;
    const onCheckbox = (event.target as HTMLElement).matches("input[type=checkbox]");
    if (event.key === " " && !onCheckbox) {
      event.preventDefault();
      // The same rule as the checkbox: a kept row can only be taken out of the selection.
      if (partial || (row.kept !== undefined && !selected.has(row.id))) return;
      store.selected.value = clickRow(selected, ordered, row, anchor, event.shiftKey);
      setAnchor(row.id);
      return;
    }
    if (event.key === "Enter" && onCheckbox) {
      event.preventDefault();
      onOpen(row.id);
      return;
    }
    const page = Math.max(1, Math.floor(height / ROW_HEIGHT) - 1);
    const moves: Record<string, number> = {
      ArrowDown: index + 1,
      ArrowUp: index - 1,
      PageDown: index + page,
      PageUp: index - page,
      Home: 0,
      End: ordered.length - 1,
    };
    const target = moves[event.key];
    if (target === undefined) return;
    event.preventDefault();
    const next = Math.max(0, Math.min(ordered.length - 1, target));
    // Scroll the row into the window (below the sticky header) so it is rendered, then focus it.
    const header = element.querySelector("thead")?.getBoundingClientRect().height ?? ROW_HEIGHT;
    const top = next * ROW_HEIGHT;
    let scroll = element.scrollTop;
    if (top < scroll) scroll = top;
    else if (top + ROW_HEIGHT + header > scroll + element.clientHeight)
      scroll = top + ROW_HEIGHT + header - element.clientHeight;
    element.scrollTop = scroll;
    setScrollTop(scroll);
    setActiveId(ordered[next]!.id);
    focusActive.current = true;
  };

  const filters = store.filters.value;
  /** Only the first page is in: filtering, sorting and selecting would see part of the rows. */
  const partial = !store.complete.value;
  const setFilter = (patch: Partial<typeof filters>) => (store.filters.value = { ...filters, ...patch });
  // One pass over the shown rows per change of rows or selection, not per render (scrolling).
  const { selectable, everyShownSelected } = useMemo(() => {
    let count = 0;
    let every = true;
    for (const r of shown)
      if (!r.kept) {
        count += 1;
        if (every && !selected.has(r.id)) every = false;
      }
    return { selectable: count, everyShownSelected: count > 0 && every };
  }, [shown, selected]);
  // The selection is exactly "everything the filter shows that may go" (a selection only ever
  // holds rows that may go): then the filter is sent instead of the ids, so any number works.
  const allMatching = everyShownSelected && selected.size === selectable;

  if (store.error.value)
    return (
      <div class="banner error" role="alert">
        {store.error.value}
      </div>
    );
  if (!store.loaded.value) return <p class="empty">Loading sessions…</p>;

  return (
    <section class="sessions" aria-label="Sessions" data-complete={!partial}>
      <form class="filters" role="search" onSubmit={(e) => e.preventDefault()}>
        <label>
          Search
          <input
            type="search"
            data-testid="filter-text"
            placeholder="name, message, path…"
            value={filters.text}
            disabled={partial}
            onInput={(e) => setFilter({ text: e.currentTarget.value })}
          />
        </label>
        <label>
          Namespace
          <select
            data-testid="filter-namespace"
            value={filters.namespace}
            disabled={partial}
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
          Agent
          <select
            data-testid="filter-agent"
            value={filters.store}
            disabled={partial}
            onChange={(e) => setFilter({ store: e.currentTarget.value as typeof filters.store })}
          >
            <option value="">all</option>
            {STORE_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {AGENT_LABELS[kind]}
              </option>
            ))}
          </select>
        </label>
        <label>
          Status
          <select
            data-testid="filter-status"
            value={filters.status}
            disabled={partial}
            onChange={(e) => setFilter({ status: e.currentTarget.value as typeof filters.status })}
          >
            <option value="">all</option>
            <option value="policy">cleaned by the policy</option>
            <option value="deletable">not kept (may be picked by hand)</option>
            <option value="kept">kept (active, pinned, protected…)</option>
          </select>
        </label>
        <label class="check">
          <input
            type="checkbox"
            checked={filters.warningsOnly}
            disabled={partial}
            onChange={(e) => setFilter({ warningsOnly: e.currentTarget.checked })}
          />
          with warnings
        </label>
        {/* Only where some session is archived (Claude Code's archive), or the address asks for it. */}
        {(anyArchived || filters.archivedOnly) && (
          <label class="check">
            <input
              type="checkbox"
              data-testid="filter-archived"
              checked={filters.archivedOnly}
              disabled={partial}
              onChange={(e) => setFilter({ archivedOnly: e.currentTarget.checked })}
            />
            archived only
          </label>
        )}
        {partial ? (
          <span class="count" role="status" data-testid="sessions-loading">
            Loading all {store.total.value.toLocaleString("en-US")} sessions… the first{" "}
            {shown.length.toLocaleString("en-US")} (least recently used) are shown
          </span>
        ) : (
          <span class="count" data-testid="shown-count">
            {shown.length.toLocaleString("en-US")} of {store.rows.value.length.toLocaleString("en-US")}
          </span>
        )}
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
                    disabled={partial || selectable === 0}
                    checked={everyShownSelected}
                    title="Select every session that matches the filter (any number: the filter itself is sent)"
                    onChange={(e) =>
                      (store.selected.value = e.currentTarget.checked
                        ? selectAll(selected, shown)
                        : withoutShown(selected, shown))
                    }
                  />
                </th>
                {group.headers.map((header) => {
                  const sorted = header.column.getIsSorted();
                  return (
                    <th
                      key={header.id}
                      scope="col"
                      class={`col-${header.column.id}${
                        header.column.id === "sizeBytes" || header.column.id === "messageCount" ? " num" : ""
                      }`}
                      aria-sort={sorted === "asc" ? "ascending" : sorted === "desc" ? "descending" : "none"}
                    >
                      <button
                        type="button"
                        class="sort"
                        data-testid={`sort-${header.column.id}`}
                        disabled={partial}
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
                <th scope="col" class="col-verdict">
                  Policy
                </th>
                <th scope="col" class="col-status">
                  Status
                </th>
              </tr>
            ))}
          </thead>
          <tbody onKeyDown={onRowKey}>
            {first > 0 && <tr style={{ height: `${first * ROW_HEIGHT}px` }} aria-hidden="true" />}
            {visible.map((row, i) => {
              const isSelected = selected.has(row.id);
              return (
                <tr
                  key={row.id}
                  data-testid="session-row"
                  data-id={row.id}
                  aria-rowindex={first + i + 2}
                  class={`${isSelected ? "selected" : ""}${row.id === tabStop ? " active" : ""}`}
                >
                  <td class="select">
                    <input
                      type="checkbox"
                      data-testid="row-select"
                      tabIndex={-1}
                      aria-label={`Select ${sessionTitle(row).title} (${fileName(row.path)})`}
                      checked={isSelected}
                      // A kept row is in the selection only with its family (a fork parent): it can be taken out.
                      disabled={partial || (row.kept !== undefined && !isSelected)}
                      title={
                        row.kept
                          ? isSelected
                            ? `Selected with its family: it goes only with the forks that read from it`
                            : `Cannot be cleaned: ${KEPT_LABELS[row.kept] ?? row.kept}`
                          : undefined
                      }
                      onClick={(e) => {
                        store.selected.value = clickRow(selected, ordered, row, anchor, e.shiftKey);
                        setAnchor(row.id);
                      }}
                    />
                  </td>
                  <td class="title col-path" title={row.path}>
                    <button
                      type="button"
                      class="link"
                      data-testid="open-session"
                      tabIndex={row.id === tabStop ? 0 : -1}
                      aria-keyshortcuts="ArrowUp ArrowDown Space Enter"
                      onFocus={() => setActiveId(row.id)}
                      onClick={() => onOpen(row.id)}
                    >
                      {/* Before the title, so that a long one is cut and not this. */}
                      {row.archived && (
                        <span
                          class="badge archived"
                          data-testid="archived-badge"
                          title="Archived in its agent: its session list hides it until you prompt in it again"
                        >
                          archived
                        </span>
                      )}
                      <SessionName session={row} namespace={row.namespace} />
                    </button>
                    {row.tags?.map((tag) => (
                      <span key={tag} class="tag">
                        {tag}
                      </span>
                    ))}
                  </td>
                  <td class="col-store" data-testid="session-agent">
                    {AGENT_LABELS[row.store]}
                  </td>
                  <td class="path col-namespace" title={row.namespace}>
                    {row.namespace}
                  </td>
                  <td class="num col-sizeBytes" data-bytes={row.sizeBytes}>
                    <Bytes value={row.sizeBytes} />
                  </td>
                  <td class="col-createdAt">
                    <RelativeTime iso={row.createdAt} now={now} />
                  </td>
                  <td class="col-modifiedAt">
                    <RelativeTime iso={row.modifiedAt} now={now} />
                  </td>
                  <td class="col-lastUsedAt">
                    <RelativeTime iso={row.lastUsedAt} now={now} />
                  </td>
                  <td class="num col-messageCount">{row.messageCount.toLocaleString("en-US")}</td>
                  <td class="col-verdict">
                    {row.verdict !== undefined && verdicts[row.verdict] !== undefined && (
                      <span
                        class={wouldClean(row.verdict) ? "badge verdict clean" : "verdict kept"}
                        data-testid="verdict"
                        data-verdict={row.verdict}
                        title={verdicts[row.verdict]}
                      >
                        {verdicts[row.verdict]}
                      </span>
                    )}
                  </td>
                  <td class="col-status">
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

      <footer
        class="selection-bar"
        id="selection-bar"
        tabIndex={-1}
        data-focus-return
        data-testid="selection-bar"
      >
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
