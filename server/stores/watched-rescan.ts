// What every adapter's `rescanChanged` shares: the paths a watcher reported are placed, each on the
// session file or bundle part it falls in; the records owning those are made again, the rest of the
// last scan stays as it was. Each adapter says how a path is placed and how a record is made again;
// whatever cannot be placed or made again the same way is the caller's cue to scan the store whole.
import type { SessionRecord } from "../../shared/session-record.js";
import type { StoreScan } from "./adapter-types.js";
import { addMeasuredParts, measurePart } from "./bundle.js";

/**
 * Where a changed path falls: the session file or bundle part it is or is inside; `"unread"` for a
 * path no scan of the store reads (the agent's logs, history, settings); undefined when it may
 * change what the store holds in a way only a whole scan sees.
 */
export type Placed = string | "unread" | undefined;

export function rescanPlaced(
  previous: StoreScan,
  changed: Iterable<string>,
  /** Where `path` falls; `owned` says whether a path is a session file or part of the last scan. */
  place: (path: string, owned: (part: string) => boolean) => Placed,
  /** The record made again from its files now; undefined when it is no longer the same session. */
  remake: (old: SessionRecord) => SessionRecord | undefined,
): StoreScan | undefined {
  /** Each session file and bundle part of the last scan → its record's place. */
  const owners = new Map<string, number>();
  previous.records.forEach((record, i) => {
    owners.set(record.path, i);
    for (const part of record.bundle ?? []) owners.set(part, i);
  });
  const owned = (part: string) => owners.has(part);
  const touched = new Set<number>();
  for (const path of changed) {
    const placed = place(path, owned);
    if (placed === "unread") continue;
    const owner = placed === undefined ? undefined : owners.get(placed);
    if (owner === undefined) return undefined; // a session or part that came, or what a scan must judge
    touched.add(owner);
  }
  if (touched.size === 0) return previous;
  const records = previous.records.slice();
  for (const i of touched) {
    const fresh = remake(records[i]!);
    if (!fresh) return undefined;
    records[i] = fresh;
  }
  return { records, problems: previous.problems };
}

/**
 * Gives `record` the bundle `parts` its last scan found, measured now, as a whole scan would — or
 * false when one went, or is now of another kind than a scan takes it as (`kindOf`: undefined
 * where a scan takes either): a session's folder replaced by a file is no longer its part.
 */
export function rebundle(
  record: SessionRecord,
  parts: readonly string[],
  kindOf: (part: string) => "file" | "folder" | undefined,
): boolean {
  const measured = [];
  for (const path of parts) {
    const part = measurePart(path);
    if (!part) return false;
    const kind = kindOf(path);
    if (kind !== undefined && (kind === "folder") !== part.folder) return false;
    measured.push({ path, part });
  }
  addMeasuredParts(record, measured);
  return true;
}
