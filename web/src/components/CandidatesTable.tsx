// The clean wizard's candidates as a table: every candidate a row — named, with the rule that chose
// it — ticked to start with and untickable, sortable by each column, and windowed like the sessions
// table (only the rows in view are in the DOM), so a plan of thousands opens at once. The wizard
// owns the ticks; a delete sends exactly them.
import {
  createColumnHelper,
  rowSortingFeature,
  type SortingState,
  tableFeatures,
  useTable,
} from "@tanstack/preact-table";
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { type Candidate, RULE_LABELS } from "../../../shared/plan.js";
import { fileName, namespaceBase } from "../../../shared/session-title.js";
import { Bytes } from "./Bytes.js";

const ROW_HEIGHT = 34;
const OVERSCAN = 15;

const features = tableFeatures({ rowSortingFeature });
const column = createColumnHelper<typeof features, Candidate>();
const columns = column.columns([
  column.accessor("path", { header: "Session", sortDescFirst: false }),
  column.accessor("rule", { header: "Rule", sortDescFirst: false }),
  column.accessor("sizeBytes", { header: "Size", sortDescFirst: true }),
  column.accessor("lastUsedAt", { header: "Last used", sortDescFirst: false }),
]);
type SortColumn = "path" | "rule" | "sizeBytes" | "lastUsedAt";

/** Each column's sort key, taken once per row. */
const KEYS: Record<SortColumn, (c: Candidate) => string | number> = {
  path: (c) => (c.title ?? fileName(c.path)).toLowerCase(),
  rule: (c) => RULE_LABELS[c.rule],
  sizeBytes: (c) => c.sizeBytes,
  lastUsedAt: (c) => Date.parse(c.lastUsedAt),
};

/** The candidates in the sorting's order; the plan's own order (eviction order) when unsorted. */
export function sortCandidates(
  candidates: readonly Candidate[],
  sorting: SortingState,
): readonly Candidate[] {
  const by = sorting[0];
  if (!by || !(by.id in KEYS)) return candidates;
  const key = KEYS[by.id as SortColumn];
  const keys = candidates.map(key);
  const order = candidates.map((_, i) => i);
  const sign = by.desc ? -1 : 1;
  order.sort((a, b) => {
    const x = keys[a]!;
    const y = keys[b]!;
    return x < y ? -sign : x > y ? sign : a - b;
  });
  return order.map((i) => candidates[i]!);
}

export function CandidatesTable({
  candidates,
  ticked,
  onTicked,
  onOpen,
}: {
  candidates: readonly Candidate[];
  ticked: ReadonlySet<string>;
  onTicked: (ticked: ReadonlySet<string>) => void;
  /** Opens a session's details, when the page can. */
  onOpen?: ((id: string) => void) | undefined;
}) {
  // The plan's own order first: the rules' order, then eviction order within a rule.
  const [sorting, setSorting] = useState<SortingState>([]);
  const table = useTable({
    features,
    columns,
    data: candidates as Candidate[],
    state: { sorting },
    onSortingChange: (updater) =>
      setSorting((old) => (typeof updater === "function" ? updater(old) : updater)),
    enableSortingRemoval: false,
    enableMultiSort: false,
  });
  const ordered = useMemo(() => sortCandidates(candidates, sorting), [candidates, sorting]);

  const viewport = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(360);
  useEffect(() => {
    const element = viewport.current;
    if (!element) return;
    const observer = new ResizeObserver(() => setHeight(element.clientHeight));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  const first = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(ordered.length, Math.ceil((scrollTop + height) / ROW_HEIGHT) + OVERSCAN);

  const toggle = (id: string, on: boolean) => {
    const next = new Set(ticked);
    if (on) next.add(id);
    else next.delete(id);
    onTicked(next);
  };

  return (
    <>
      <p class="candidate-tools">
        <button
          type="button"
          data-testid="tick-all"
          onClick={() => onTicked(new Set(candidates.map((c) => c.id)))}
        >
          Tick all
        </button>
        <button type="button" data-testid="tick-none" onClick={() => onTicked(new Set())}>
          Tick none
        </button>
      </p>
      <div
        class="table-viewport candidates-viewport"
        ref={viewport}
        onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
        data-testid="candidates-viewport"
      >
        <table class="data candidates-table" aria-rowcount={ordered.length + 1} aria-label="Candidates">
          <thead>
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                <th scope="col" class="select">
                  Clean
                </th>
                {group.headers.map((header) => {
                  const sorted = header.column.getIsSorted();
                  return (
                    <th
                      key={header.id}
                      scope="col"
                      class={`col-${header.column.id}${header.column.id === "sizeBytes" ? " num" : ""}`}
                      aria-sort={sorted === "asc" ? "ascending" : sorted === "desc" ? "descending" : "none"}
                    >
                      <button
                        type="button"
                        class="sort"
                        data-testid={`candidates-sort-${header.column.id}`}
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
              </tr>
            ))}
          </thead>
          <tbody>
            {first > 0 && <tr style={{ height: `${first * ROW_HEIGHT}px` }} aria-hidden="true" />}
            {ordered.slice(first, last).map((c, i) => {
              const name = c.title ?? fileName(c.path);
              return (
                <tr key={c.id} data-testid="wizard-candidate" data-id={c.id} aria-rowindex={first + i + 2}>
                  <td class="select">
                    <input
                      type="checkbox"
                      data-testid="candidate-tick"
                      aria-label={`Clean ${name}`}
                      checked={ticked.has(c.id)}
                      onChange={(e) => toggle(c.id, e.currentTarget.checked)}
                    />
                  </td>
                  <td class="path" title={c.path}>
                    {onOpen ? (
                      <button
                        type="button"
                        class="link"
                        data-testid="candidate-open"
                        onClick={() => onOpen(c.id)}
                      >
                        <span data-testid="session-title">{name}</span>
                      </button>
                    ) : (
                      <span data-testid="session-title">{name}</span>
                    )}{" "}
                    <span class="hint" title={c.namespace}>
                      {namespaceBase(c.namespace)}
                    </span>
                  </td>
                  <td class="rule" title={c.detail}>
                    <span class="badge">{RULE_LABELS[c.rule]}</span> <span class="hint">{c.detail}</span>
                  </td>
                  <td class="num" data-bytes={c.sizeBytes}>
                    <Bytes value={c.sizeBytes} />
                  </td>
                  <td>{new Date(c.lastUsedAt).toLocaleDateString("en-US")}</td>
                </tr>
              );
            })}
            {last < ordered.length && (
              <tr style={{ height: `${(ordered.length - last) * ROW_HEIGHT}px` }} aria-hidden="true" />
            )}
          </tbody>
        </table>
      </div>
    </>
  );
}
