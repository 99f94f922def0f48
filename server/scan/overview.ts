// What the `scan` table shows — totals, namespaces, the first sessions in an order, what is not a
// session — and the warm way to it. A full scan builds a record per session (~1 KB of objects each,
// from its facts) to sum a few of their fields and show twenty: at 20,000 sessions that was 2.4× a
// bare walk of the store. Here the facts store (state/facts-store.ts) keeps a row per pi session —
// its file's identity and the few fields the table sums — and the walk hands each `.jsonl` file to
// the row of its path: an unchanged one costs a comparison, with no object made for it. Only the
// files that changed get records, made as the full scan makes them (its functions, its facts), and
// their rows are written; then the sums, the duplicate ids and the sessions shown are queries of
// the rows. The records shown are kept on their rows, so the same table asked for again needs no
// facts. Display only: nothing is deleted on what the table says.
//
// With no rows yet (a first run, `cache clear`), the same way reads every file, cold: each record
// made becomes a row, written as it goes, and is let go — a full scan holds every record (~1.6 KiB
// a session) until the table is drawn. The full scan stays the way wherever this one could not be
// sure to show the same: `--precise` (last use from each file's content), other agents' stores
// (their scans are warm through the facts store), pi's session index (sessions-meta) present, many
// files changed since the rows, or times outside years 1970–9999. It writes the rows for the next
// time.
import { lstatSync, readdirSync } from "node:fs";
import { identityOf, lstatMs } from "../fs/file-identity.js";
import type {
  AgentUsage,
  NamespaceUsage,
  ScanProblem,
  ScanReport,
  ScanStats,
} from "../../shared/scan-report.js";
import {
  byUsage,
  findingsOf,
  type StoreFinding,
  storeFindings,
  summarizeAgents,
} from "../../shared/scan-summary.js";
import type { SessionRecord, StoreRef } from "../../shared/session-record.js";
import { comparatorOf, compareSessions, firstN, type SortOrder } from "../../shared/sort.js";
// Last uses are compared as milliseconds: ISO strings sort as those do up to this (years 1970–9999).
import { isoFromMs, LAST_FOUR_DIGIT_YEAR_MS } from "../stores/pi/iso-time.js";
import { adapterOf } from "../stores/store-adapter.js";
import { growthFile, readGrowth, recordGrowth } from "../state/growth-store.js";
import { FactsStore, factsFileIn, FolderShelf, TableColumns, type TableRow } from "../state/facts-store.js";
import { gatedStores } from "./resolve-roots.js";
import { duplicateHolders } from "./duplicate-ids.js";
import type { CacheEntry } from "../stores/pi/pi-facts.js";
import { type Compare, type FoundFile, type FoundFiles, walkPiRoot } from "../stores/pi/walker.js";
import type { ScanRequest } from "./scanner.js";

export interface ScanOverview {
  stores: StoreRef[];
  sessionCount: number;
  totalBytes: number;
  namespaceCount: number;
  sessionsWithWarnings: number;
  namespaces: NamespaceUsage[];
  /** Per agent, when the stores are of more than one. */
  agents: AgentUsage[];
  findings: StoreFinding[];
  problems: ScanProblem[];
  orphanedMeta: NonNullable<ScanReport["orphanedMeta"]>;
  /** The first sessions in the order asked for, whole. */
  shown: SessionRecord[];
  stats: ScanStats;
  /** Made the warm way (from rows kept before, only the files changed since read), not by a full or cold scan. */
  warm: boolean;
}

/** Up to this many rows are picked from the sessions without sorting them all. */
const PICKED_ROWS = 1000;

/**
 * The first `top` of `items` in `compare` order. The table shows a few: they are picked in one pass,
 * where sorting 100,000 sessions took ~40 ms.
 */
const firstOf = <T>(items: readonly T[], top: number, compare: (a: T, b: T) => number) =>
  top <= PICKED_ROWS ? firstN(items, top, compare) : [...items].sort(compare).slice(0, top);

/** The overview of a full scan's report. */
export function overviewOf(report: ScanReport, top: number, order: SortOrder): ScanOverview {
  const { summary } = report;
  return {
    stores: report.stores,
    sessionCount: summary.sessionCount,
    totalBytes: summary.totalBytes,
    namespaceCount: summary.namespaceCount,
    sessionsWithWarnings: summary.sessionsWithWarnings,
    namespaces: report.namespaces,
    agents:
      new Set(report.stores.map((s) => s.kind)).size > 1
        ? summarizeAgents(report.stores, report.sessions)
        : [],
    findings: storeFindings(report),
    problems: report.problems,
    orphanedMeta: report.orphanedMeta ?? [],
    shown: firstOf(report.sessions, top, compareSessions(order)),
    stats: report.stats,
    warm: false,
  };
}

export interface OverviewRequest extends Omit<ScanRequest, "previous" | "changed" | "memoryCache" | "topN"> {
  top: number;
  order: SortOrder;
  /** Over this share of files changed since the rows were written, the full scan is taken. Default 0.1. */
  mostChanged?: number;
}

/**
 * The table's row of a record the readers made (before the steps over all sessions). A record no
 * later look may take its row for — read again every time (unreadable), or its path not its file's
 * name — gets a row that no file matches, so it is counted and read again each time.
 */
const rowOf = (r: SessionRecord, duplicate: boolean): TableRow => ({
  path: r.path,
  dev: r.warnings.some((w) => w.code === "unreadable" || w.code === "non-utf8-name") ? -1 : r.fingerprint.dev,
  ino: r.fingerprint.ino,
  size: r.fingerprint.size,
  mtime: lstatMs(r.fingerprint.mtimeNs),
  lastUsed: Date.parse(r.lastUsedAt),
  id: r.id,
  namespace: r.namespace,
  createdAt: r.createdAt,
  warnings: r.warnings.length,
  duplicate,
});

/**
 * What records are made with: the scanner's own functions, loaded when a record is needed — a run
 * that finds nothing changed and its shown records kept loads none of its modules (each module
 * loaded is ~0.4 ms of a warm `scan`).
 */
const scanner = () => import("./scanner.js");
type Scanner = Awaited<ReturnType<typeof scanner>>;
type PiFacts = typeof import("../stores/pi/pi-facts.js");

/** The rows of a full scan's pi records, by root. */
function* tableRowsOf(
  report: ScanReport,
  basePiRecords: Scanner["basePiRecords"],
): Generator<readonly [string, TableRow]> {
  const duplicates = new Set<string>();
  for (const s of report.sessions)
    if (s.warnings.some((w) => w.code === "duplicate-id")) duplicates.add(s.path);
  for (const group of basePiRecords(report)?.values() ?? [])
    for (const record of group) yield [record.store.root, rowOf(record, duplicates.has(record.path))];
}

/** Whether pi's session index has files (joined onto the records by the full scan). */
function hasSessionIndex(metaDir: string | undefined): boolean {
  if (metaDir === undefined) return false;
  try {
    return readdirSync(metaDir).some((name) => name.endsWith(".meta.json"));
  } catch {
    return false;
  }
}

/** Over this share of files changed since the rows were written, the full scan is taken. */
const MOST_CHANGED = 0.1;
/** Rows written per transaction as files are read. */
const ROWS_BATCH = 1000;

/**
 * The overview of the stores, the warm way when it can be (see the top of this file), else by a full
 * scan. Records growth as `scan` does.
 */
export async function scanOverview(
  stores: readonly StoreRef[],
  request: OverviewRequest,
): Promise<ScanOverview> {
  // The table's rows are kept for stores the file scanner reads (pi's); with any other, the full way.
  const roots = stores.filter((s) => adapterOf(s.kind).readByFileScanner).map((s) => s.root);
  const othersToo = roots.length < stores.length;
  const { top, order, mostChanged: _, ...options } = request;
  const started = performance.now();
  const factsFile = options.cacheDir !== undefined ? factsFileIn(options.cacheDir) : options.cacheFile;
  const rowsKept = factsFile !== undefined && !options.precise && !othersToo;
  const full = async () => {
    const { scan, basePiRecords } = await scanner();
    const report = await scan(stores, { ...options, topN: top });
    const store = rowsKept ? FactsStore.open(factsFile) : undefined;
    try {
      store?.putTableRows(roots, tableRowsOf(report, basePiRecords), { whole: true });
    } finally {
      store?.close();
    }
    return overviewOf(report, top, order);
  };
  const refs = [...stores];
  const history = options.growth === "read-only" ? undefined : growthFile(options.growth.recordIn, refs);
  const growthBefore = history === undefined ? undefined : readGrowth(history);
  if (!rowsKept || hasSessionIndex(options.metaDir)) return full();
  // Through the place gate as every scan: a root that now leads somewhere it may not is the full
  // scan's to refuse.
  const gated = gatedStores(stores).map((s) => s.root);
  if (gated.join("\n") !== roots.join("\n")) return full();
  const store = FactsStore.open(factsFile);
  if (!store) return full();
  let warm: ScanOverview | undefined;
  try {
    // No rows yet: every file is read, and its row written as it goes (see `warmOverview`).
    const cold = !store.hasTable(roots);
    warm = await warmOverview(store, roots, refs, request, started, cold, growthBefore?.length === 0);
  } catch (error) {
    // An error of the database (damaged since it was opened, say): set aside, and the full way.
    // An error of anything else is the scan's own, as on the full way.
    if ((error as { code?: unknown }).code !== "ERR_SQLITE_ERROR") throw error;
    store.abandon(error);
  } finally {
    store.close();
  }
  return warm ?? (await full());
}

/**
 * The warm way, or undefined where it cannot be sure to show what a full scan shows (the full scan
 * is then taken). `cold`: there are no rows yet — every file is read, as the full scan reads it,
 * and its row written as it goes; no record is held past its row (a full scan holds every one,
 * ~1.6 KiB a session, before the table is drawn). `backfill`: the growth history is empty, and its
 * first point is backfilled from every session's row.
 */
async function warmOverview(
  store: FactsStore,
  roots: readonly string[],
  refs: StoreRef[],
  request: OverviewRequest,
  started: number,
  cold: boolean,
  backfill: boolean,
): Promise<ScanOverview | undefined> {
  const { top, order, mostChanged = MOST_CHANGED, ...options } = request;
  const rows = cold ? new TableColumns(0) : store.tableRows(roots);
  const index = new Map<string, number>();
  for (let i = 0; i < rows.length; i++) index.set(rows.paths[i]!, i);
  const matched = new Uint8Array(rows.length);
  let unchanged = 0;
  /** Takes a `.jsonl` file the walk met when its row has it as it is now. */
  const compare: Compare = (_folder, _name, path, stat) => {
    const i = index.get(path);
    if (
      i === undefined ||
      rows.mtime[i] !== stat.mtimeMs ||
      rows.size[i] !== stat.size ||
      rows.ino[i] !== stat.ino ||
      rows.dev[i] !== stat.dev
    )
      return false;
    matched[i] = 1;
    unchanged += 1;
    return true;
  };
  const problems: ScanProblem[] = [];
  // The files the rows do not have as they are now, by root: read after the walk. Cold, the walk
  // takes each file's exact identity (a BigInt lstat), as the full scan's does: no second lstat.
  const toRead: FoundFiles[] = [];
  let changedFiles = 0;
  for (let r = 0; r < roots.length; r++) {
    const walked = await walkPiRoot(roots[r]!, cold ? {} : { compare });
    problems.push(...walked.problems);
    toRead.push(walked.files);
    changedFiles += walked.files.length;
  }
  const filesTotal = unchanged + changedFiles;
  if (!cold && changedFiles > filesTotal * mostChanged) return undefined;

  // Whole records, as the full scan makes them (the same facts, the same functions): of the files
  // that changed, and of the sessions shown.
  let sc: (Scanner & PiFacts) | undefined;
  let buffer: Buffer | undefined;
  const loadScanner = async () => {
    if (sc) return;
    const [scannerModule, piFacts, { READ_CHUNK_BYTES }] = await Promise.all([
      scanner(),
      import("../stores/pi/pi-facts.js"),
      import("../stores/pi/read-session-file.js"),
    ]);
    sc = { ...scannerModule, ...piFacts };
    buffer = Buffer.allocUnsafe(READ_CHUNK_BYTES);
  };
  const shelves = new Map<number, FolderShelf>();
  const shelfOf = (r: number) => {
    let shelf = shelves.get(r);
    if (!shelf) shelves.set(r, (shelf = new FolderShelf(store, sc!.PI_FACTS, roots[r]!)));
    return shelf;
  };
  let filesRead = 0;
  let bytesRead = 0;
  let rowsMade = 0;
  let cacheHits = unchanged;
  /** The record of a file of root `r`, read where its facts do not say it all; undefined when it is gone or not a session (a problem in `into`). */
  const recordOf = (r: number, file: FoundFile, into: ScanProblem[], counted = true) => {
    const { inputOf, factsFor, cacheKey, readFailure, pieceOf, entryOf, storedOf, placeOf } = sc!;
    const input = inputOf(roots[r]!, file, false);
    try {
      // A walk that compared took its lstat without nanoseconds: a record's identity is exact.
      if (file.identity.mtimeNs === "") {
        const stat = lstatSync(file.fsPath, { bigint: true });
        file.identity = identityOf(stat);
        file.birthtimeMs = Number(stat.birthtimeNs / 1_000_000n);
        input.identity = file.identity;
        input.birthtimeMs = file.birthtimeMs;
      }
      const key = cacheKey(file);
      const shelf = shelfOf(r);
      // Kept where the full scan keeps it (a name that is not UTF-8: under its whole key).
      const [folder, name] = placeOf(key, file);
      const kept: CacheEntry | undefined = entryOf(shelf.get(key, folder, name));
      const read = factsFor(file, kept, buffer!);
      if (!read.hit) shelf.put(key, storedOf(read.entry), folder, name);
      if (counted) {
        if (read.hit) cacheHits += 1;
        else filesRead += 1;
        bytesRead += read.bytesRead;
      }
      input.identity = read.identity;
      input.facts = read.entry.facts;
    } catch (error) {
      if (readFailure(input, error, into) || input.readError === undefined) return undefined;
    }
    return pieceOf(input, into);
  };

  if (cold) {
    // Every root's facts are asked for: those of files not found now are forgotten, as a full scan does.
    await loadScanner();
    for (let r = 0; r < roots.length; r++) shelfOf(r);
  }
  // The rows of the files read, written a batch at a time (cold, the first batch replaces any rows
  // of the roots): each is true of its file as read, as the facts are.
  let batch: Array<readonly [string, TableRow]> = [];
  let rowsWritten = false;
  const writeRows = (gone?: Array<[string, string]>) => {
    if (batch.length === 0 && !gone?.length && !(cold && !rowsWritten)) return;
    store.putTableRows(roots, batch, { ...(gone ? { gone } : {}), whole: cold && !rowsWritten });
    rowsWritten = true;
    batch = [];
  };
  // A first table of a large store reads for a while: its progress is said as the full scan's is.
  const bytesTotal = toRead.reduce((n, files) => n + files.totalBytes, 0);
  let bytesDone = 0;
  let filesDone = 0;
  let reported = performance.now();
  for (let r = 0; r < roots.length; r++)
    for (let i = 0; i < toRead[r]!.length; i++) {
      if (!sc) await loadScanner();
      const file = toRead[r]!.at(i);
      bytesDone += file.identity.size;
      filesDone += 1;
      if (options.onProgress && performance.now() - reported >= (options.progressIntervalMs ?? 100)) {
        reported = performance.now();
        options.onProgress({ phase: "reading", filesDone, filesTotal: changedFiles, bytesDone, bytesTotal });
      }
      const record = recordOf(r, file, problems);
      if (!record) continue;
      const row = rowOf(record, false); // its duplicate mark: the query below
      if (!(row.lastUsed >= 0 && row.lastUsed <= LAST_FOUR_DIGIT_YEAR_MS)) return undefined;
      const known = index.get(record.path);
      if (known !== undefined) matched[known] = 1; // changed, not gone
      batch.push([roots[r]!, row]);
      rowsMade += 1;
      if (batch.length >= ROWS_BATCH) writeRows();
    }
  toRead.length = 0;
  for (const shelf of shelves.values()) shelf.settle(cold);
  // Rows of files not found now, as they were or as sessions: gone.
  const gone: Array<[string, string]> = [];
  for (let i = 0; i < rows.length; i++) if (!matched[i]) gone.push([roots[rows.root[i]!]!, rows.paths[i]!]);
  const changed = rowsMade > 0 || gone.length > 0;
  writeRows(gone);

  // Session ids held by more than one file: every holder after the first (by path) is marked (and,
  // shown, gets the whole treatment: `dedupeIds`). The marks change only where rows did.
  let sharedIds: ReturnType<typeof sharedIdsOf> | undefined;
  const shared = () => (sharedIds ??= sharedIdsOf(store, roots));
  if (changed) {
    const { sharing, holders } = shared();
    const marked = new Set<number>();
    for (const list of holders.values()) for (const k of list.slice(1)) marked.add(k);
    const marks: Array<[string, string, boolean]> = [];
    sharing.forEach((row, k) => {
      if (row.duplicate !== marked.has(k)) marks.push([row.root, row.path, marked.has(k)]);
    });
    if (marks.length > 0) store.markDuplicates(marks);
  }

  // The sums, as summarizeSessions and summarizeNamespaces make them.
  const perRoot = store.tableSums(roots);
  const byNamespace = new Map<string, NamespaceUsage>();
  let sessionCount = 0;
  let totalBytes = 0;
  let sessionsWithWarnings = 0;
  for (const group of perRoot.flat()) {
    if (group.outside > 0) return undefined; // a last use outside years 1970–9999
    sessionCount += group.sessions;
    totalBytes += group.bytes;
    sessionsWithWarnings += group.warned;
    const lastUsedAt = isoFromMs(group.lastUsed);
    const usage = byNamespace.get(group.namespace);
    if (!usage)
      byNamespace.set(group.namespace, {
        namespace: group.namespace,
        sessionCount: group.sessions,
        totalBytes: group.bytes,
        lastUsedAt,
      });
    else {
      usage.sessionCount += group.sessions;
      usage.totalBytes += group.bytes;
      if (lastUsedAt > usage.lastUsedAt) usage.lastUsedAt = lastUsedAt;
    }
  }
  const namespaces = [...byNamespace.values()].sort(byUsage);

  // The sessions shown: their records kept on their rows, made now, or made from their facts.
  const picked =
    top > 0
      ? firstOf(
          store.tableTop(roots, order, top),
          top,
          comparatorOf(order, {
            lastUsed: (r) => r.last_used,
            size: (r) => r.size,
            path: (r) => r.path,
            created: (r) => r.created_at,
          }),
        )
      : [];
  const rootIndex = new Map(roots.map((root, r) => [root, r]));
  const keptAll = { value: true };
  const whole = new Map<string, SessionRecord>();
  /** A session's whole record: `kept` (its file's, as last shown), else made from its facts. */
  const wholeOf = async (row: { root: string; path: string }, kept?: SessionRecord) => {
    let record = whole.get(row.path) ?? kept;
    if (!record) {
      keptAll.value = false;
      await loadScanner();
      record = recordOf(rootIndex.get(row.root)!, foundAt(row.path), [], false);
    }
    if (record) whole.set(row.path, record);
    return record;
  };
  const shown: SessionRecord[] = [];
  for (const row of picked) {
    const kept = row.record === null ? undefined : keptRecordOf(row.record);
    const sameFile =
      kept !== undefined &&
      kept.fingerprint.dev === row.dev &&
      kept.fingerprint.ino === row.ino &&
      kept.fingerprint.size === row.size &&
      lstatMs(kept.fingerprint.mtimeNs) === row.mtime_ms;
    let record = await wholeOf(row, sameFile ? kept : undefined);
    if (!record) return undefined; // gone since the walk
    if (row.duplicate) {
      // A holder of a duplicated id after the first: what `dedupeIds` gives it, among all holders.
      const { sharing, holders } = shared();
      const list = holders.get(record.id);
      const others = list?.map((k) => sharing[k]!);
      if (!others) return undefined;
      const records = await Promise.all(others.map((o) => wholeOf(o)));
      if (records.some((r) => !r)) return undefined;
      await loadScanner();
      const copies = records.map((r) => ({ ...r!, warnings: [...r!.warnings] }));
      sc!.dedupeIds(copies, (k) => copies[k]!);
      record = copies[others.findIndex((o) => o.path === row.path)]!;
    }
    shown.push(record);
  }
  // The records shown, kept on their rows for the same table next time.
  const keptBefore = picked.filter((row) => row.record !== null).length;
  if (!keptAll.value || keptBefore !== whole.size) {
    const records = [...whole.values()].map((r) => [r.store.root, r.path, JSON.stringify(r)] as const);
    store.putTableRows(roots, [], { records });
  }

  const summary = { sessionCount, totalBytes };
  const history = options.growth === "read-only" ? undefined : growthFile(options.growth.recordIn, refs);
  if (history !== undefined)
    try {
      recordGrowth(
        history,
        { sessions: backfill ? store.tableGrowthRows(roots) : [], summary, namespaces },
        (options.now ?? (() => new Date()))(),
      );
    } catch {
      // History is a bonus (as in `scan`).
    }
  const stats = { durationMs: performance.now() - started, filesRead, bytesRead, cacheHits };
  options.onProgress?.({ phase: "done", filesDone: filesTotal, filesTotal, bytesDone: 0, bytesTotal: 0 });
  return {
    stores: refs,
    sessionCount,
    totalBytes,
    namespaceCount: namespaces.length,
    sessionsWithWarnings,
    namespaces,
    agents: [],
    findings: findingsOf(
      refs,
      perRoot.map((groups) => groups.reduce((n, g) => n + g.sessions, 0)),
      problems,
    ),
    problems,
    orphanedMeta: [],
    shown,
    stats,
    warm: !cold,
  };
}

/** A record kept on its row, or undefined when it is not one (damaged: it is made again). */
function keptRecordOf(json: string): SessionRecord | undefined {
  try {
    const record = JSON.parse(json) as SessionRecord;
    return typeof record?.fingerprint?.mtimeNs === "string" ? record : undefined;
  } catch {
    return undefined;
  }
}

/** The rows that share an id (or are marked so), and the holders of each shared id, first by path. */
function sharedIdsOf(store: FactsStore, roots: readonly string[]) {
  const sharing = store.tableDuplicates(roots);
  const holders = duplicateHolders(
    sharing.length,
    (k) => sharing[k]!.id,
    (k) => sharing[k]!.path,
  );
  return { sharing, holders };
}

/** A file the walk found unchanged, for a record of it (its exact identity is taken when it is read). */
function foundAt(path: string): FoundFile {
  const dir = path.slice(0, path.lastIndexOf("/"));
  return {
    fsPath: path,
    path,
    folder: dir.slice(dir.lastIndexOf("/") + 1),
    identity: { dev: 0, ino: 0, size: 0, mtimeNs: "", mtimeMs: 0 },
    birthtimeMs: 0,
    nonUtf8Name: false,
  };
}
