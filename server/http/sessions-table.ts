// The sessions table of one look, built once: each row's JSON kept as bytes, the kept reasons and
// the order of each sort, so a request only filters, picks indexes and copies bytes. At 100,000
// sessions the rows are ~16 MB of JSON; serializing them for every request made ~35 MB of garbage
// per request (the objects, one giant string, its UTF-8 copy) that V8 let pile up to ~600 MB.
import { rowPath, type SessionsQuery, type SessionsResponse } from "../../shared/api.js";
import type { SessionRecord } from "../../shared/session-record.js";
import { compareSessions } from "../../shared/sort.js";
import { verdictLabels, wouldClean } from "../../shared/verdict.js";
import { type PlanInputs, verdictsFor } from "../plan/plan-inputs.js";

type Row = SessionsResponse["rows"][number];

/**
 * Rows are written into buffers of this size (a row never spans two), and a streamed answer is cut
 * into pieces of it. Under glibc's first mmap threshold (128 KiB), so a new look's table reuses the
 * memory the last one freed. With 1 MiB buffers the first table was mmapped, and freeing it raised
 * glibc's threshold: the later tables took fresh heap that glibc kept (~20 MB more RSS).
 */
const CHUNK_BYTES = 64 * 1024;
const COMMA = 0x2c;
/** The order the page asks for first (SessionsQuerySchema's default), which the rows are stored in. */
const DEFAULT_SORT: SessionsQuery["sort"] = "lru";

export interface SessionsTable {
  /** The answer to `query` as objects (what `JSON.parse` of `json(query)` gives). */
  query(query: SessionsQuery): SessionsResponse;
  /** The same answer as JSON bytes: its length, and its pieces (each fresh, to hand to a stream). */
  json(query: SessionsQuery): { byteLength: number; pieces: () => Generator<Uint8Array> };
  /** The policy's verdict on one session in words, when the policy is valid. */
  verdict(id: string): { clean: boolean; text: string } | undefined;
}

/** How one look's records become rows: the plan's verdicts and kept reasons, the roots and namespaces. */
export interface RowEncoder {
  rowOf(record: SessionRecord): Row;
  roots: SessionsResponse["roots"];
  namespaces: string[];
  labels: Pick<SessionsResponse, "verdicts">;
  verdicts: ReadonlyMap<string, string>;
  kept: ReadonlyMap<string, string>;
}

export function rowEncoder(inputs: PlanInputs, now = new Date()): RowEncoder {
  const all = inputs.report.sessions;
  // The policy's verdicts give both the kept reasons (its exemptions) and what it would clean.
  const verdicts: ReadonlyMap<string, string> = inputs.config.ok
    ? verdictsFor({ ...inputs, config: inputs.config }, now)
    : new Map();
  const kept = new Map<string, string>();
  for (const [id, code] of verdicts) if (!wouldClean(code) && code !== "within-policy") kept.set(id, code);
  const labels = inputs.config.ok ? { verdicts: verdictLabels(inputs.config.config) } : {};
  const roots = inputs.report.stores;
  const rootIndex = new Map(roots.map((r, i) => [r.root, i]));
  const namespaces: string[] = [];
  const namespaceIndex = new Map<string, number>();
  // Numbered in record order, whatever order the rows are written in.
  for (const s of all) {
    if (!namespaceIndex.has(s.namespace)) namespaceIndex.set(s.namespace, namespaces.push(s.namespace) - 1);
  }
  const rowOf = (s: SessionRecord): Row => {
    const ns = namespaceIndex.get(s.namespace)!;
    return [
      s.id,
      rootIndex.get(s.store.root)!,
      rowPath(s.path.slice(s.store.root.length + 1), s.id),
      ns,
      s.sizeBytes,
      Math.floor(Date.parse(s.createdAt) / 1000),
      Math.floor(Date.parse(s.modifiedAt) / 1000),
      // Last used is the mtime unless --precise: a 0 here is the common case, and cheap to send.
      Math.floor(Date.parse(s.lastUsedAt) / 1000) - Math.floor(Date.parse(s.modifiedAt) / 1000),
      s.messageCount,
      s.name ?? null,
      s.tags ?? null,
      s.warnings.length,
      kept.get(s.id) ?? null,
      s.firstMessage ?? null,
      verdicts.get(s.id) ?? null,
      s.lastPrompt ?? null,
      s.archivedAt !== undefined ? 1 : null,
    ];
  };
  return { rowOf, roots, namespaces, labels, verdicts, kept };
}

/**
 * The rows that differ between two looks: each session that is new or whose row changed (its
 * record, its kept reason or the policy's verdict on it), encoded against `after`'s roots and
 * namespaces, and the ids of the sessions that are gone. What the page needs to follow the look.
 */
export function changedRows(
  before: { inputs: PlanInputs; rows: RowEncoder },
  after: { inputs: PlanInputs; rows: RowEncoder },
): { upserted: Row[]; removed: string[] } {
  const earlier = new Map(before.inputs.report.sessions.map((s) => [s.id, s]));
  const upserted: Row[] = [];
  for (const record of after.inputs.report.sessions) {
    const was = earlier.get(record.id);
    earlier.delete(record.id);
    const sameJudgement =
      was !== undefined &&
      before.rows.kept.get(record.id) === after.rows.kept.get(record.id) &&
      before.rows.verdicts.get(record.id) === after.rows.verdicts.get(record.id);
    // The same record object is the same file unchanged (a scan shares it); a copy is compared as a row.
    if (sameJudgement && (was === record || sameRow(before.rows, was, after.rows, record))) continue;
    upserted.push(after.rows.rowOf(record));
  }
  return { upserted, removed: [...earlier.keys()] };
}

/** Whether two rows say the same, their root and namespace compared by name, not index. */
function sameRow(a: RowEncoder, ra: SessionRecord, b: RowEncoder, rb: SessionRecord): boolean {
  const x = a.rowOf(ra);
  const y = b.rowOf(rb);
  x[1] = a.roots[x[1]]!.root as never;
  y[1] = b.roots[y[1]]!.root as never;
  x[3] = a.namespaces[x[3]] as never;
  y[3] = b.namespaces[y[3]] as never;
  return JSON.stringify(x) === JSON.stringify(y);
}

export function buildSessionsTable(
  inputs: PlanInputs,
  now = new Date(),
  encoder: RowEncoder = rowEncoder(inputs, now),
  /** The look's number, sent with every answer (see `LookEventSchema`). */
  version?: number,
): SessionsTable {
  /** Everything of an answer but its rows, in the order the schema lists them. */
  const envelope = (matching: number) => ({
    total: all.length,
    matching,
    roots,
    namespaces,
    ...labels,
    ...(version !== undefined ? { version } : {}),
  });
  const all = inputs.report.sessions;
  const { rowOf, roots, namespaces, labels, verdicts } = encoder;

  const orders = new Map<SessionsQuery["sort"], Uint32Array>();
  const sorted = (order: SessionsQuery["sort"]) => {
    let indexes = orders.get(order);
    if (!indexes) {
      const compare = compareSessions(order);
      // Array's sort is stable; a typed array holds the result in half the memory.
      indexes = Uint32Array.from(all.map((_, i) => i).sort((a, b) => compare(all[a]!, all[b]!)));
      orders.set(order, indexes);
    }
    return indexes;
  };

  // Every row's JSON and a comma, once, in buffers of CHUNK_BYTES (a row never spans two); row i is
  // chunks[chunkOf[i]][start[i], end[i]). They are stored in the default order ("lru"), so the
  // table as the page first asks for it is a few contiguous ranges of these buffers, sent as is.
  const storedOrder = sorted(DEFAULT_SORT);
  const chunks: Buffer[] = [];
  const chunkOf = new Uint32Array(all.length);
  const start = new Uint32Array(all.length);
  const end = new Uint32Array(all.length);
  let chunk = Buffer.allocUnsafe(0);
  let used = 0;
  for (const i of storedOrder) {
    const text = JSON.stringify(rowOf(all[i]!));
    const length = Buffer.byteLength(text) + 1;
    if (used + length > chunk.length) {
      if (chunks.length > 0) chunks[chunks.length - 1] = chunk.subarray(0, used);
      chunk = Buffer.allocUnsafe(Math.max(CHUNK_BYTES, length));
      chunks.push(chunk);
      used = 0;
    }
    chunkOf[i] = chunks.length - 1;
    start[i] = used;
    used += chunk.write(text, used);
    end[i] = used;
    chunk[used++] = COMMA;
  }
  if (chunks.length > 0) chunks[chunks.length - 1] = Buffer.from(chunk.subarray(0, used)); // a right-sized copy
  const rowBytes = (i: number) => chunks[chunkOf[i]!]!.subarray(start[i], end[i]);

  /** The indexes of the rows a query asks for, in its order, and how many match before paging. */
  const select = (query: SessionsQuery) => {
    const order = sorted(query.sort);
    const text = query.text?.toLowerCase();
    const filtered =
      query.namespace !== undefined ||
      query.store !== undefined ||
      query.tag !== undefined ||
      text !== undefined;
    const matching = !filtered
      ? order
      : order.filter((i) => {
          const s = all[i]!;
          return (
            (query.namespace === undefined || s.namespace === query.namespace) &&
            (query.store === undefined || s.store.kind === query.store) &&
            (query.tag === undefined || (s.tags ?? []).includes(query.tag)) &&
            (text === undefined ||
              [s.path, s.name, s.lastPrompt, s.firstMessage, s.summary, s.namespace].some((field) =>
                field?.toLowerCase().includes(text),
              ))
          );
        });
    const page = matching.subarray(query.offset, query.offset + query.limit);
    return { matching: matching.length, page, contiguous: !filtered && query.sort === DEFAULT_SORT };
  };

  return {
    verdict(id) {
      const code = verdicts.get(id);
      const text = code === undefined ? undefined : labels.verdicts?.[code as keyof typeof labels.verdicts];
      return text === undefined ? undefined : { clean: wouldClean(code), text };
    },

    query(query) {
      const { matching, page } = select(query);
      return { ...envelope(matching), rows: Array.from(page, (i) => rowOf(all[i]!)) };
    },

    json(query) {
      const { matching, page, contiguous } = select(query);
      // Exactly what JSON.stringify of the answer gives: the head up to `"rows":[`, rows, `]}`.
      const head = Buffer.from(JSON.stringify({ ...envelope(matching), rows: [] }).slice(0, -2));
      const tail = Buffer.from("]}");
      let byteLength = head.length + tail.length + Math.max(0, page.length - 1);
      for (const i of page) byteLength += end[i]! - start[i]!;
      function* pieces(): Generator<Uint8Array> {
        yield head;
        if (contiguous && page.length > 0) {
          // Rows in stored order, commas included: views of the table's own buffers, no copy.
          const first = page[0]!;
          const last = page[page.length - 1]!;
          for (let c = chunkOf[first]!; c <= chunkOf[last]!; c++) {
            const from = c === chunkOf[first] ? start[first]! : 0;
            yield chunks[c]!.subarray(from, c === chunkOf[last] ? end[last]! : chunks[c]!.length);
          }
          yield tail;
          return;
        }
        let piece = Buffer.allocUnsafe(CHUNK_BYTES);
        let filled = 0;
        for (let n = 0; n < page.length; n++) {
          const row = rowBytes(page[n]!);
          const need = row.length + (n > 0 ? 1 : 0);
          if (filled + need > piece.length) {
            if (filled > 0) yield piece.subarray(0, filled);
            piece = Buffer.allocUnsafe(Math.max(CHUNK_BYTES, need));
            filled = 0;
          }
          if (n > 0) piece[filled++] = COMMA;
          filled += row.copy(piece, filled);
        }
        if (filled > 0) yield piece.subarray(0, filled);
        yield tail;
      }
      return { byteLength, pieces };
    },
  };
}
