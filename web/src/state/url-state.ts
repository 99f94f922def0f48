// The Sessions page's filters and sort in the address (`#/sessions?q=api&agent=pi&sort=-sizeBytes`):
// restored on reload and shareable. Pure: parameters in, filters and sorting out, and back. A value
// the page does not know (a hand-edited or old address) is dropped, never an error.
import type { SortingState } from "@tanstack/preact-table";
import { NO_FILTER, type SessionFilter, SessionFilterSchema } from "../../../shared/session-filter.js";
import type { SortableColumn } from "./sort-rows.js";

const COLUMNS: readonly SortableColumn[] = [
  "path",
  "store",
  "namespace",
  "sizeBytes",
  "createdAt",
  "modifiedAt",
  "lastUsedAt",
  "messageCount",
];

/** The table's first order (least recently used first): not written to the address. */
export const DEFAULT_SORTING: SortingState = [{ id: "lastUsedAt", desc: false }];

export function toParams(filters: SessionFilter, sorting: SortingState): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.text) params.set("q", filters.text);
  if (filters.namespace) params.set("ns", filters.namespace);
  if (filters.store) params.set("agent", filters.store);
  if (filters.status) params.set("status", filters.status);
  if (filters.warningsOnly) params.set("warnings", "1");
  if (filters.archivedOnly) params.set("archived", "1");
  const sort = sorting.map((s) => `${s.desc ? "-" : ""}${s.id}`).join(",");
  if (sort !== "lastUsedAt") params.set("sort", sort);
  return params;
}

export function fromParams(params: URLSearchParams): { filters: SessionFilter; sorting: SortingState } {
  // Each field on its own, so one bad value loses only itself.
  const field = <K extends keyof SessionFilter>(key: K, value: unknown): SessionFilter[K] => {
    const parsed = SessionFilterSchema.shape[key].safeParse(value);
    return parsed.success ? (parsed.data as SessionFilter[K]) : NO_FILTER[key];
  };
  const filters: SessionFilter = {
    text: field("text", params.get("q") ?? ""),
    namespace: field("namespace", params.get("ns") ?? ""),
    store: field("store", params.get("agent") ?? ""),
    status: field("status", params.get("status") ?? ""),
    warningsOnly: params.get("warnings") === "1",
    archivedOnly: params.get("archived") === "1",
  };
  const sorting: SortingState = [];
  for (const part of (params.get("sort") ?? "").split(",")) {
    const id = part.replace(/^-/, "");
    if ((COLUMNS as readonly string[]).includes(id) && !sorting.some((s) => s.id === id))
      sorting.push({ id, desc: part.startsWith("-") });
  }
  return { filters, sorting: sorting.length ? sorting : DEFAULT_SORTING };
}
