// What the `scan` table shows — totals, namespaces, the first sessions in an order, what is not a
// session — and the warm way to it. A full scan builds a record per session (~1 KB of objects each,
// from its whole cache entry) to sum a few of their fields and show twenty: at 20,000 sessions that
// was 2.4× a bare walk of the store. Here the walk hands each `.jsonl` file over as it meets it, and
// one unchanged since the snapshot (overview-snapshot.ts) is its row, summed right there, with no
// object made for it; only the files that changed and the sessions shown get records, made as the
// full scan makes them (its functions, its cache entries). The files read since the snapshot was
// written keep their rows and resume states in its journal. Display only: nothing is deleted on
// what the table says.
//
// The full scan stays the way wherever the warm one could not be sure to show the same: no snapshot
// yet (or one of other roots, or damaged), `--precise` (last use from each file's content), other
// agents' stores, pi's session index (sessions-meta) present, many files changed, or times outside
// years 1970–9999. It writes the snapshot for the next time.
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
  findingsOf,
  NamespaceTally,
  type StoreFinding,
  storeFindings,
  summarizeAgents,
} from "../../shared/scan-summary.js";
import type { SessionRecord, StoreRef } from "../../shared/session-record.js";
import { compareSessions, comparatorOf, firstN, type SortOrder } from "../../shared/sort.js";
// Last uses are compared as milliseconds: ISO strings sort as those do up to this (years 1970–9999).
import { isoFromMs, LAST_FOUR_DIGIT_YEAR_MS } from "../stores/pi/iso-time.js";
import { adapterOf } from "../stores/store-adapter.js";
import { growthFile, readGrowth, recordGrowth } from "../state/growth-store.js";
import { type CacheEntry, cacheFileFor, ScanCacheReader } from "./scan-cache.js";
import { gatedStores } from "./resolve-roots.js";
import { duplicateHolders } from "./duplicate-ids.js";
import type { ScanRequest } from "./scanner.js";
import {
  type JournalRow,
  journalFileOf,
  readJournal,
  writeJournal,
  readShown,
  type SnapshotFolder,
  shownFileOf,
  Snapshot,
  type SnapshotRow,
  snapshotFileOf,
  writeShown,
  writeSnapshot,
} from "./overview-snapshot.js";
import { type Compare, type FoundFile, walkPiRoot } from "./walker.js";

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
  /** Made the warm way (from the snapshot), not by a full scan. */
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
  /** Over this share of files changed since the snapshot, the full scan is taken. Default 0.1. */
  mostChanged?: number;
}

/** A snapshot row from a record the readers made (before the steps over all sessions). */
const rowOf = (r: SessionRecord, duplicate: boolean): SnapshotRow => ({
  path: r.path,
  dev: r.fingerprint.dev,
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

/** A record no later scan may take from the snapshot: read again, or its path is not its file's name. */
const notForSnapshot = (r: SessionRecord) =>
  r.warnings.some((w) => w.code === "unreadable" || w.code === "non-utf8-name");

/**
 * What records are made with: the scanner's own functions, loaded when a record is needed — a run
 * that finds nothing changed and its shown records kept loads none of its modules (each module
 * loaded is ~0.4 ms of a warm `scan`).
 */
const scanner = () => import("./scanner.js");
type Scanner = Awaited<ReturnType<typeof scanner>>;

/** The rows of a full scan's pi records, for the snapshot. */
function* snapshotRowsOf(
  report: ScanReport,
  basePiRecords: Scanner["basePiRecords"],
): Generator<SnapshotRow> {
  const duplicates = new Set<string>();
  for (const s of report.sessions)
    if (s.warnings.some((w) => w.code === "duplicate-id")) duplicates.add(s.path);
  for (const group of basePiRecords(report)?.values() ?? [])
    for (const record of group) if (!notForSnapshot(record)) yield rowOf(record, duplicates.has(record.path));
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

/** Over this share of files changed since the snapshot, the full scan (which also updates the cache file) is taken. */
const MOST_CHANGED = 0.1;
/**
 * Past this share of the snapshot's files in its journal, the snapshot is written anew (and the
 * journal emptied): under `MOST_CHANGED`, so that files read once do not send every scan the full way.
 */
const JOURNAL_SHARE = 1 / 16;

/**
 * The overview of the stores, the warm way when it can be (see the top of this file), else by a full
 * scan. Records growth as `scan` does.
 */
export async function scanOverview(
  stores: readonly StoreRef[],
  request: OverviewRequest,
): Promise<ScanOverview> {
  const roots = stores.filter((s) => adapterOf(s.kind).readByFileScanner).map((s) => s.root);
  const othersToo = roots.length < stores.length;
  const { top, order, mostChanged = MOST_CHANGED, ...options } = request;
  const started = performance.now();
  const now = options.now ?? (() => new Date());
  const cacheFile =
    options.cacheDir !== undefined ? cacheFileFor(options.cacheDir, roots) : options.cacheFile;
  const snapshotFile = cacheFile && snapshotFileOf(cacheFile);
  const full = async () => {
    const { scan, basePiRecords } = await scanner();
    const report = await scan(stores, { ...options, topN: top });
    if (snapshotFile && !options.precise && !othersToo) {
      writeSnapshot(snapshotFile, roots, snapshotRowsOf(report, basePiRecords));
      writeJournal(journalFileOf(cacheFile), undefined, []); // the snapshot has what it held
    }
    return overviewOf(report, top, order);
  };
  const history = options.growth === "read-only" ? undefined : growthFile(options.growth.recordIn, stores);
  const growthBefore = history === undefined ? undefined : readGrowth(history);
  if (
    !snapshotFile ||
    options.precise ||
    othersToo ||
    hasSessionIndex(options.metaDir) ||
    growthBefore?.length === 0 // a first point is backfilled from every session
  )
    return full();
  // Through the place gate as every scan: a root that now leads somewhere it may not is the full
  // scan's to refuse.
  const gated = gatedStores(stores).map((s) => s.root);
  if (gated.join("\n") !== roots.join("\n")) return full();
  const snapshot = Snapshot.read(snapshotFile, roots);
  if (!snapshot) return full();

  const problems: ScanProblem[] = [];
  // The sessions as columns, no object per session: an unchanged file's come from its snapshot row
  // (`rowPlace`, `rowAt`), met in the walk (see `compare`); the others' rows are in `extra`.
  const paths: string[] = [];
  const columns = new SessionColumns(snapshot.rows + 64);
  const nsNames = [...snapshot.namespaces];
  const pathOf = (s: number) => paths[s]!;
  let count = 0;

  /** Takes a `.jsonl` file the walk met when the snapshot has it, unchanged: its row is summed now. */
  let folderPath: string | undefined;
  let folder: SnapshotFolder | undefined;
  let root = 0;
  const compare: Compare = (dir, name, path, stat) => {
    if (dir !== folderPath) {
      folderPath = dir;
      folder = snapshot.folder(dir);
    }
    const at = folder && snapshot.find(folder, name, stat.dev, stat.ino, stat.size, stat.mtimeMs);
    if (at === undefined) return false;
    const ms = Snapshot.lastUsed(folder!, at);
    if (!(ms >= 0 && ms <= LAST_FOUR_DIGIT_YEAR_MS)) return false;
    const c = columns.room(count);
    c.size[count] = stat.size;
    c.lastUsedMs[count] = ms;
    c.ns[count] = folder!.ns[at]!;
    c.warnings[count] = folder!.warnings[at]!;
    c.duplicate[count] = folder!.duplicate[at]!;
    c.root[count] = root;
    c.rowPlace[count] = folder!.place;
    c.rowAt[count] = at;
    paths.push(path);
    count += 1;
    return true;
  };
  // The files the snapshot does not have as they are now: read after the walk.
  const toRead: Array<[root: number, file: FoundFile]> = [];
  let filesTotal = 0;
  for (; root < roots.length; root++) {
    const walked = await walkPiRoot(roots[root]!, { compare });
    problems.push(...walked.problems);
    for (let i = 0; i < walked.files.length; i++) toRead.push([root, walked.files.at(i)]);
    filesTotal += walked.files.length;
  }
  const matched = count;
  filesTotal += matched;
  if (toRead.length > filesTotal * mostChanged) return full();

  // Whole records, as the full scan makes them (the same cache entries, the same functions): of the
  // files read now, and of the sessions shown. The cache file is opened only when a record needs
  // an entry the journal does not have.
  const opened: { reader?: ScanCacheReader | undefined } = {};
  const cacheReader = () =>
    "reader" in opened ? opened.reader : (opened.reader = ScanCacheReader.open(cacheFile));
  // The scanner's functions and a read buffer, loaded by `loadScanner` before the first record.
  let sc: Scanner | undefined;
  let buffer: Buffer | undefined;
  const loadScanner = async () => {
    if (sc) return;
    const [scannerModule, { READ_CHUNK_BYTES }] = await Promise.all([
      scanner(),
      import("../stores/pi/read-session-file.js"),
    ]);
    sc = scannerModule;
    buffer = Buffer.allocUnsafe(READ_CHUNK_BYTES);
  };
  let filesRead = 0;
  let bytesRead = 0;
  let cacheHits = matched;
  /**
   * The record of a file of root `r` (and the cache entry it was made of), read from where `known`
   * (a journal entry) or the cache file's entry ends; undefined when it is gone or not a session
   * (a problem in `into`).
   */
  const recordOf = (r: number, file: FoundFile, into: ScanProblem[], known?: CacheEntry, counted = true) => {
    const { inputOf, factsFor, cacheKey, readFailure, pieceOf } = sc!;
    const input = inputOf(roots[r]!, file, false);
    let entry: CacheEntry | undefined;
    try {
      // The walk's lstat was without nanoseconds: a record's identity is exact.
      const stat = lstatSync(file.fsPath, { bigint: true });
      file.identity = identityOf(stat);
      file.birthtimeMs = Number(stat.birthtimeNs / 1_000_000n);
      input.identity = file.identity;
      input.birthtimeMs = file.birthtimeMs;
      const sameFile = known && known.dev === file.identity.dev && known.ino === file.identity.ino;
      const read = factsFor(file, sameFile ? known : cacheReader()?.get(cacheKey(file)), buffer!);
      if (counted) {
        if (read.hit) cacheHits += 1;
        else filesRead += 1;
        bytesRead += read.bytesRead;
      }
      input.identity = read.identity;
      input.facts = read.entry.facts;
      entry = read.entry;
    } catch (error) {
      if (readFailure(input, error, into) || input.readError === undefined) return undefined;
    }
    const record = pieceOf(input, into);
    return record && { record, entry };
  };

  /** The sessions not from the snapshot: their id and creation time, row, and record when read now. */
  const extra = new Map<number, { row: SnapshotRow; record?: SessionRecord; entry?: CacheEntry }>();
  const journalFile = journalFileOf(cacheFile);
  const journal = readJournal(journalFile, snapshot);
  /** The journal to write: the rows of the files read since the snapshot, as they are now. */
  const nextJournal: JournalRow[] = [];
  /** Whether duplicate ids must be found again: some file's id is new, or changed, or files went. */
  let idsChanged = false;
  const addExtra = (r: number, row: SnapshotRow, record?: SessionRecord, entry?: CacheEntry) => {
    let ns = nsNames.indexOf(row.namespace);
    if (ns === -1) ns = nsNames.push(row.namespace) - 1;
    extra.set(count, { row, ...(record ? { record } : {}), ...(entry ? { entry } : {}) });
    const c = columns.room(count);
    c.size[count] = row.size;
    c.lastUsedMs[count] = row.lastUsed;
    c.ns[count] = ns;
    c.warnings[count] = row.warnings;
    c.duplicate[count] = row.duplicate ? 1 : 0;
    c.root[count] = r;
    c.rowPlace[count] = -1;
    paths.push(row.path);
    count += 1;
  };
  try {
    /** Sessions of the snapshot or the journal that are sessions still, though not as the snapshot has them. */
    let foundAgain = 0;
    let journalChanged = false;
    for (const [r, file] of toRead) {
      const before = journal.get(file.path);
      const { dev, ino, size, mtimeMs } = file.identity;
      if (
        before &&
        !file.nonUtf8Name &&
        before.row.dev === dev &&
        before.row.ino === ino &&
        before.row.size === size &&
        before.row.mtime === mtimeMs
      ) {
        // As it was when a warm scan read it: its journal row stands.
        cacheHits += 1;
        foundAgain += 1;
        addExtra(r, before.row, undefined, before.entry);
        nextJournal.push(before);
        continue;
      }
      await loadScanner();
      journalChanged = true;
      const made = recordOf(r, file, problems, before?.entry);
      if (!made) continue;
      const { record, entry } = made;
      const lastUsed = Date.parse(record.lastUsedAt);
      if (!(lastUsed >= 0 && lastUsed <= LAST_FOUR_DIGIT_YEAR_MS)) return full();
      // What it was before: the journal's row, or the snapshot's.
      const place = before ? undefined : snapshot.locate(file.path);
      const inSnapshot = before ? before.inSnapshot : place !== undefined;
      if (before || place) foundAgain += 1;
      const previousId = before ? before.row.id : place && snapshot.idOf(place.place, place.at);
      if (previousId !== record.id) idsChanged = true;
      const marked = before
        ? before.row.duplicate
        : place !== undefined && snapshot.placed[place.place]!.duplicate[place.at] === 1;
      const row = rowOf(record, marked);
      addExtra(r, row, record, entry);
      if (entry && !notForSnapshot(record)) nextJournal.push({ row, entry, inSnapshot });
    }
    if (nextJournal.length !== journal.size) journalChanged = true;
    // Sessions of the snapshot or the journal not found again: gone (a duplicate id they held may
    // be one no more).
    let journalOnly = 0;
    for (const j of journal.values()) if (!j.inSnapshot) journalOnly += 1;
    const gone = snapshot.rows + journalOnly - matched - foundAgain;
    const sessionCount = count;
    if (gone !== 0 && (snapshot.anyDuplicate || [...journal.values()].some((j) => j.row.duplicate)))
      idsChanged = true;

    const { size, lastUsedMs, ns: nsOf, warnings, duplicate, root: rootOf, rowPlace, rowAt } = columns;
    /** A session's id and creation time: its row's (the snapshot's lines 2 and 3 are read when first needed). */
    const idOf = (s: number) => extra.get(s)?.row.id ?? snapshot.idOf(rowPlace[s]!, rowAt[s]!);
    const createdAtOf = (s: number) =>
      extra.get(s)?.row.createdAt ?? snapshot.createdAtOf(rowPlace[s]!, rowAt[s]!);
    const allIds = () => {
      const ids: string[] = [];
      for (let s = 0; s < sessionCount; s++) {
        const id = idOf(s);
        if (id === undefined) return undefined; // the snapshot's line of ids is damaged
        ids.push(id);
      }
      return ids;
    };

    // Session ids held by more than one file: every holder after the first (by path) gets a warning
    // (and, shown, the whole treatment: `dedupeIds`). Found again only when ids came, changed or
    // went; else the marks of the snapshot and the journal stand.
    let holders = new Map<string, number[]>();
    let marksChanged = false;
    if (idsChanged) {
      const ids = allIds();
      if (!ids) return full();
      holders = duplicateHolders(sessionCount, (k) => ids[k]!, pathOf);
      const marks = new Uint8Array(sessionCount);
      for (const list of holders.values()) for (const s of list.slice(1)) marks[s] = 1;
      for (let s = 0; s < sessionCount; s++)
        if (marks[s] !== duplicate[s]) {
          duplicate[s] = marks[s]!;
          const row = extra.get(s)?.row;
          if (!row)
            marksChanged = true; // a snapshot row's mark: the snapshot is written again
          else {
            row.duplicate = marks[s] === 1;
            journalChanged = true;
          }
        }
    }

    // Sums, as summarizeSessions and summarizeNamespaces make them.
    const tally = new NamespaceTally<number>();
    const perRoot = stores.map(() => 0);
    let totalBytes = 0;
    let sessionsWithWarnings = 0;
    for (let s = 0; s < sessionCount; s++) {
      totalBytes += size[s]!;
      if (warnings[s]! > 0 || duplicate[s]) sessionsWithWarnings += 1;
      tally.add(nsNames[nsOf[s]!]!, size[s]!, lastUsedMs[s]!);
      perRoot[rootOf[s]!]! += 1;
    }
    const namespaces = tally.usages(isoFromMs);

    // The sessions shown: picked by their columns in the table's order, then made whole.
    let created: string[] | undefined;
    if (order === "created") {
      created = [];
      for (let s = 0; s < sessionCount; s++) {
        const at = createdAtOf(s);
        if (at === undefined) return full(); // the snapshot's line of creation times is damaged
        created.push(at);
      }
    }
    const picked = firstOf(
      Array.from({ length: sessionCount }, (_, s) => s),
      top,
      comparatorOf<number>(order, {
        lastUsed: (s) => lastUsedMs[s]!,
        size: (s) => size[s]!,
        path: pathOf,
        created: (s) => created![s]!,
      }),
    );
    // The records shown last time, kept beside the snapshot as the readers made them: the same
    // table asked for again needs no cache entry (opening the cache file alone was ~25 ms at
    // 100,000 sessions).
    const keptFile = shownFileOf(cacheFile);
    const kept = readShown(keptFile);
    let keptAll = true;
    /** The kept record of session `s` when its file is still the one it was made of. */
    const keptOf = (s: number) => {
      const record = kept.get(pathOf(s));
      const place = snapshot.placed[rowPlace[s]!];
      const at = rowAt[s]!;
      const row = extra.get(s)?.row;
      const [dev, ino, fileSize, mtime] = row
        ? [row.dev, row.ino, row.size, row.mtime]
        : [place!.dev, place!.ino[at], place!.size[at], place!.mtime[at]];
      return record &&
        record.fingerprint.dev === dev &&
        record.fingerprint.ino === ino &&
        record.fingerprint.size === fileSize &&
        lstatMs(record.fingerprint.mtimeNs) === mtime
        ? record
        : undefined;
    };
    if (picked.some((s) => duplicate[s] || (!extra.get(s)?.record && !keptOf(s)))) await loadScanner();
    const whole = new Map<number, SessionRecord>();
    const wholeOf = (s: number) => {
      let record = whole.get(s);
      if (record) return record;
      const keptRecord = keptOf(s);
      // Shown, not scanned again: read now, kept, else from its journal entry or the cache file's.
      record =
        extra.get(s)?.record ??
        keptRecord ??
        recordOf(rootOf[s]!, foundAt(pathOf(s)), [], extra.get(s)?.entry, false)?.record;
      if (record !== keptRecord) keptAll = false;
      if (record) whole.set(s, record);
      return record;
    };
    const shown: SessionRecord[] = [];
    for (const s of picked) {
      let record = wholeOf(s);
      if (!record) return full(); // gone since the walk, or the cache file says otherwise
      if (duplicate[s]) {
        // A holder of a duplicated id after the first: what `dedupeIds` gives it, among all holders.
        if (holders.size === 0) {
          const ids = allIds();
          if (!ids) return full();
          holders = duplicateHolders(sessionCount, (k) => ids[k]!, pathOf);
        }
        const list = holders.get(record.id);
        const sharing = list?.map(wholeOf);
        if (!list || !sharing || sharing.some((r) => !r)) return full();
        const copies = sharing.map((r) => ({ ...r!, warnings: [...r!.warnings] }));
        sc!.dedupeIds(copies, (k) => copies[k]!);
        record = copies[list.indexOf(s)]!;
      }
      shown.push(record);
    }
    if (!keptAll || whole.size !== kept.size) writeShown(keptFile, [...whole.values()]);

    // The snapshot again when files went, a snapshot row's mark changed, or the journal grew past an
    // eighth of it; else only the journal, when it changed.
    if (gone !== 0 || marksChanged || nextJournal.length > Math.max(64, snapshot.rows * JOURNAL_SHARE)) {
      const rows: SnapshotRow[] = [];
      for (let s = 0; s < sessionCount; s++) {
        const more = extra.get(s);
        if (more) {
          if (!more.record || !notForSnapshot(more.record)) rows.push(more.row);
          continue;
        }
        const place = snapshot.placed[rowPlace[s]!]!;
        const at = rowAt[s]!;
        const id = idOf(s);
        const createdAt = createdAtOf(s);
        if (id === undefined || createdAt === undefined) return full();
        rows.push({
          path: pathOf(s),
          dev: place.dev,
          ino: place.ino[at]!,
          size: size[s]!,
          mtime: place.mtime[at]!,
          lastUsed: lastUsedMs[s]!,
          id,
          namespace: nsNames[nsOf[s]!]!,
          createdAt,
          warnings: warnings[s]!,
          duplicate: duplicate[s] === 1,
        });
      }
      writeSnapshot(snapshotFile, roots, rows);
      writeJournal(journalFile, undefined, []);
    } else if (journalChanged) writeJournal(journalFile, snapshot, nextJournal);

    const summary = { sessionCount, totalBytes };
    if (history !== undefined)
      try {
        recordGrowth(history, { sessions: [], summary, namespaces }, now(), growthBefore);
      } catch {
        // History is a bonus (as in `scan`).
      }
    const stats = { durationMs: performance.now() - started, filesRead, bytesRead, cacheHits };
    options.onProgress?.({ phase: "done", filesDone: filesTotal, filesTotal, bytesDone: 0, bytesTotal: 0 });
    return {
      stores: [...stores],
      sessionCount,
      totalBytes,
      namespaceCount: namespaces.length,
      sessionsWithWarnings,
      namespaces,
      agents: [],
      findings: findingsOf(stores, perRoot, problems),
      problems,
      orphanedMeta: [],
      shown,
      stats,
      warm: true,
    };
  } finally {
    opened.reader?.close();
  }
}

/** A file the walk found unchanged, for a record of it (its exact identity is taken when it is read). */
function foundAt(path: string): FoundFile {
  const dir = path.slice(0, path.lastIndexOf("/"));
  return {
    fsPath: path,
    path,
    folder: dir.slice(dir.lastIndexOf("/") + 1),
    identity: { dev: 0, ino: 0, size: 0, mtimeNs: "0", mtimeMs: 0 },
    birthtimeMs: 0,
    nonUtf8Name: false,
  };
}

/** The columns of the sessions of a look, grown as needed (typed: no object per session). */
class SessionColumns {
  size!: Float64Array;
  lastUsedMs!: Float64Array;
  /** Into the look's namespace names. */
  ns!: Int32Array;
  warnings!: Int32Array;
  duplicate!: Uint8Array;
  /** Which of the roots. */
  root!: Int32Array;
  /** Its snapshot row: the folder's place (-1: read now) and the row in it. */
  rowPlace!: Int32Array;
  rowAt!: Int32Array;

  constructor(private capacity: number) {
    this.allocate(capacity);
  }

  /** The columns, with room at `index`. */
  room(index: number): this {
    if (index >= this.capacity) this.allocate((this.capacity = index * 2));
    return this;
  }

  private allocate(capacity: number) {
    const grown = <T extends Float64Array | Int32Array | Uint8Array>(
      old: T | undefined,
      make: (n: number) => T,
    ) => {
      const next = make(capacity);
      if (old) next.set(old);
      return next;
    };
    this.size = grown(this.size, (n) => new Float64Array(n));
    this.lastUsedMs = grown(this.lastUsedMs, (n) => new Float64Array(n));
    this.ns = grown(this.ns, (n) => new Int32Array(n));
    this.warnings = grown(this.warnings, (n) => new Int32Array(n));
    this.duplicate = grown(this.duplicate, (n) => new Uint8Array(n));
    this.root = grown(this.root, (n) => new Int32Array(n));
    this.rowPlace = grown(this.rowPlace, (n) => new Int32Array(n));
    this.rowAt = grown(this.rowAt, (n) => new Int32Array(n));
  }
}
