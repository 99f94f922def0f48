// What the `scan` table shows — totals, namespaces, the first sessions in an order, what is not a
// session — and the warm way to it. A full scan builds a record per session (~1 KB of objects each,
// from its whole cache entry) to sum up a few of their fields and show twenty: at 20,000 sessions
// that was 2.4× a bare walk of the store. Here an unchanged file (same identity as in the snapshot,
// overview-snapshot.ts) is its snapshot row, a few values added up where it is met; only the files
// that changed and the sessions shown get records, made as the full scan makes them (same cache
// entries, same functions). The table is display only: nothing is deleted on what it says.
//
// The full scan stays the way when the overview cannot be sure to be the same: no snapshot yet (or
// one of other roots), `--precise` (last use from each file's content), other agents' stores, pi's
// session index (sessions-meta) present, many files changed, or times outside years 1970–9999. It
// writes the snapshot after it for the next time.
import { lstatSync, readdirSync } from "node:fs";
import { identityOf, lstatMs } from "../fs/file-identity.js";
import type { NamespaceUsage, ScanProblem, ScanReport, ScanStats } from "../../shared/scan-report.js";
import { byUsage, type StoreFinding, storeFindings, summarizeAgents } from "../../shared/scan-summary.js";
import type { AgentUsage } from "../../shared/scan-report.js";
import type { SessionRecord, StoreRef } from "../../shared/session-record.js";
import { compareSessions, comparatorOf, firstN, type SortOrder } from "../../shared/sort.js";
import { isoFromMs } from "../stores/pi/iso-time.js";
import { READ_CHUNK_BYTES } from "../stores/pi/read-session-file.js";
import { growthFile, readGrowth, recordGrowth } from "../state/growth-store.js";
import { cacheFileFor, ScanCacheReader } from "./scan-cache.js";
import type { AdapterStore } from "./resolve-roots.js";
import {
  basePiRecords,
  cacheKey,
  dedupeIds,
  factsFor,
  gatedStores,
  inputOf,
  pieceOf,
  readFailure,
  scan,
  type ScanRequest,
} from "./scanner.js";
import {
  readShown,
  shownFileOf,
  Snapshot,
  type SnapshotRow,
  snapshotFileOf,
  writeShown,
  writeSnapshot,
} from "./overview-snapshot.js";
import { type FoundFiles, walkPiRoot } from "./walker.js";

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

/** The rows of a full scan's pi records, for the snapshot. */
function* snapshotRowsOf(report: ScanReport): Generator<SnapshotRow> {
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

/** Where a file's mtime makes a `lastUsedAt` that sorts as a number does (ISO strings of 4-digit years). */
const LAST_FOUR_DIGIT_YEAR_MS = 253_402_300_799_999;

/** Over this share of files changed since the snapshot, the full scan (which also updates the cache file) is taken. */
const MOST_CHANGED = 0.1;

/**
 * The overview of the stores, the warm way when it can be (see the top of this file), else by a full
 * scan. Records growth as `scan` does.
 */
export async function scanOverview(
  stores: { readonly roots: readonly string[]; readonly adapterStores: readonly AdapterStore[] },
  request: OverviewRequest,
): Promise<ScanOverview> {
  const { top, order, mostChanged = MOST_CHANGED, ...options } = request;
  const started = performance.now();
  const now = options.now ?? (() => new Date());
  const cacheFile =
    options.cacheDir !== undefined ? cacheFileFor(options.cacheDir, stores.roots) : options.cacheFile;
  const snapshotFile = cacheFile && snapshotFileOf(cacheFile);
  const full = async () => {
    const report = await scan(stores, { ...options, topN: top });
    if (snapshotFile && !options.precise && stores.adapterStores.length === 0)
      writeSnapshot(snapshotFile, stores.roots, snapshotRowsOf(report));
    return overviewOf(report, top, order);
  };
  const refs = stores.roots.map((root): StoreRef => ({ kind: "pi", root }));
  const history = options.growth === "read-only" ? undefined : growthFile(options.growth.recordIn, refs);
  if (
    !snapshotFile ||
    options.precise ||
    stores.adapterStores.length > 0 ||
    hasSessionIndex(options.metaDir) ||
    (history !== undefined && readGrowth(history).length === 0) // a first point is backfilled from every session
  )
    return full();
  // Through the place gate as every scan: a root that now leads somewhere it may not is the full
  // scan's to refuse.
  const gated = gatedStores({ roots: stores.roots });
  if (gated.roots.join("\n") !== stores.roots.join("\n")) return full();
  const snapshot = Snapshot.read(snapshotFile, stores.roots);
  if (!snapshot) return full();

  const problems: ScanProblem[] = [];
  const walks: Array<{ root: string; files: FoundFiles }> = [];
  for (const root of stores.roots) {
    const walked = await walkPiRoot(root, { exact: false });
    problems.push(...walked.problems);
    walks.push({ root, files: walked.files });
  }

  // The sessions as columns: no object per session. Session `s` is file `from[s]` of walk
  // `walkOf[s]`; its snapshot row is `rowAt[s]` of the folder at `rowPlace[s]`, or it was read now
  // and its record is `read.get(s)`.
  let filesTotal = 0;
  for (const { files } of walks) filesTotal += files.length;
  const size = new Float64Array(filesTotal);
  const lastUsedMs = new Float64Array(filesTotal);
  const nsOf = new Int32Array(filesTotal); // into `nsNames`
  const warnings = new Int32Array(filesTotal);
  const duplicate = new Uint8Array(filesTotal);
  const walkOf = new Int32Array(filesTotal);
  const from = new Int32Array(filesTotal);
  const rowPlace = new Int32Array(filesTotal);
  const rowAt = new Int32Array(filesTotal);
  const read = new Map<number, SessionRecord>();
  const nsNames = [...snapshot.namespaces];
  const pathOf = (s: number) => walks[walkOf[s]!]!.files.pathAt(from[s]!);
  let count = 0;

  // Unchanged files first, their rows summed as they come; the others are read after.
  const toRead: Array<[walk: number, index: number]> = [];
  for (let w = 0; w < walks.length; w++) {
    const { files } = walks[w]!;
    for (let i = 0; i < files.length; i++) {
      const p = files.pathAt(i);
      const found = files.lossyAt(i)
        ? undefined
        : snapshot.match(
            p,
            p.lastIndexOf("/"),
            files.devAt(i),
            files.inoAt(i),
            files.sizeAt(i),
            files.mtimeMsAt(i),
          );
      const ms = found ? Snapshot.lastUsed(found.folder, found.at) : -1;
      if (!found || !(ms >= 0 && ms <= LAST_FOUR_DIGIT_YEAR_MS)) {
        toRead.push([w, i]);
        continue;
      }
      const { folder, at } = found;
      size[count] = files.sizeAt(i);
      lastUsedMs[count] = ms;
      nsOf[count] = folder.ns[at]!;
      warnings[count] = folder.warnings[at]!;
      duplicate[count] = folder.duplicate[at]!;
      walkOf[count] = w;
      from[count] = i;
      rowPlace[count] = folder.place;
      rowAt[count] = at;
      count += 1;
    }
  }
  const matched = count;
  if (toRead.length > filesTotal * mostChanged) return full();

  // Whole records, as the full scan makes them (the same cache entries, the same functions): of the
  // files read now, and of the sessions shown.
  // Opened when a record needs its entry (the shown ones are usually kept beside the snapshot).
  const opened: { reader?: ScanCacheReader | undefined } = {};
  const cacheReader = () =>
    "reader" in opened ? opened.reader : (opened.reader = ScanCacheReader.open(cacheFile));
  const buffer = Buffer.allocUnsafe(READ_CHUNK_BYTES);
  let filesRead = 0;
  let bytesRead = 0;
  let cacheHits = matched;
  /** The record of file `i` of walk `w`; undefined when it is gone or not a session (a problem in `into`). */
  const recordOf = (w: number, i: number, into: ScanProblem[], counted = true) => {
    const { root, files } = walks[w]!;
    const file = files.at(i);
    const input = inputOf(root, file, false);
    try {
      // The walk's lstat was without nanoseconds: a record's identity is exact.
      const stat = lstatSync(file.fsPath, { bigint: true });
      file.identity = identityOf(stat);
      file.birthtimeMs = Number(stat.birthtimeNs / 1_000_000n);
      input.identity = file.identity;
      input.birthtimeMs = file.birthtimeMs;
      const {
        entry,
        identity,
        bytesRead: bytes,
        hit,
      } = factsFor(file, cacheReader()?.get(cacheKey(file)), buffer);
      if (counted) {
        if (hit) cacheHits += 1;
        else filesRead += 1;
        bytesRead += bytes;
      }
      input.identity = identity;
      input.facts = entry.facts;
    } catch (error) {
      if (readFailure(input, error, into) || input.readError === undefined) return undefined;
    }
    return pieceOf(input, into);
  };
  try {
    for (const [w, i] of toRead) {
      const record = recordOf(w, i, problems);
      if (!record) continue;
      const ms = Date.parse(record.lastUsedAt);
      if (!(ms >= 0 && ms <= LAST_FOUR_DIGIT_YEAR_MS)) return full();
      let ns = nsNames.indexOf(record.namespace);
      if (ns === -1) ns = nsNames.push(record.namespace) - 1;
      read.set(count, record);
      size[count] = record.sizeBytes;
      lastUsedMs[count] = ms;
      nsOf[count] = ns;
      warnings[count] = record.warnings.length;
      duplicate[count] = 0;
      walkOf[count] = w;
      from[count] = i;
      rowPlace[count] = -1;
      count += 1;
    }
    const sessionCount = count;
    /** A session's id and creation time: its record's, or its snapshot row's (lines read when first needed). */
    const idOf = (s: number) => read.get(s)?.id ?? snapshot.idOf(rowPlace[s]!, rowAt[s]!);
    const createdAtOf = (s: number) =>
      read.get(s)?.createdAt ?? snapshot.createdAtOf(rowPlace[s]!, rowAt[s]!);

    // Session ids held by more than one file: every holder after the first (by path) gets a warning
    // (and, shown, the whole treatment: `dedupeIds`). Found again only when files changed or went;
    // else the snapshot's marks stand.
    const changed = toRead.length > 0 || matched !== snapshot.rows;
    const holders = new Map<string, number[]>();
    if (changed) {
      const ids: string[] = [];
      for (let s = 0; s < sessionCount; s++) {
        const id = idOf(s);
        if (id === undefined) return full(); // the snapshot's line of ids is damaged
        ids.push(id);
      }
      findDuplicates(ids, pathOf, holders);
      duplicate.fill(0);
      for (const list of holders.values()) for (const s of list.slice(1)) duplicate[s] = 1;
    }

    // Sums, as summarizeSessions and summarizeNamespaces make them.
    const byNamespace = new Map<string, { sessionCount: number; totalBytes: number; lastMs: number }>();
    let totalBytes = 0;
    let sessionsWithWarnings = 0;
    for (let s = 0; s < sessionCount; s++) {
      totalBytes += size[s]!;
      if (warnings[s]! > 0 || duplicate[s]) sessionsWithWarnings += 1;
      const usage = byNamespace.get(nsNames[nsOf[s]!]!);
      if (!usage)
        byNamespace.set(nsNames[nsOf[s]!]!, {
          sessionCount: 1,
          totalBytes: size[s]!,
          lastMs: lastUsedMs[s]!,
        });
      else {
        usage.sessionCount += 1;
        usage.totalBytes += size[s]!;
        if (lastUsedMs[s]! > usage.lastMs) usage.lastMs = lastUsedMs[s]!;
      }
    }
    const namespaces = [...byNamespace].map(([name, u]): NamespaceUsage => ({
      namespace: name,
      sessionCount: u.sessionCount,
      totalBytes: u.totalBytes,
      lastUsedAt: isoFromMs(u.lastMs),
    }));
    namespaces.sort(byUsage);

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
    const whole = new Map<number, SessionRecord>();
    const wholeOf = (s: number) => {
      let record = read.get(s) ?? whole.get(s);
      if (record) return record;
      const { files } = walks[walkOf[s]!]!;
      const i = from[s]!;
      record = kept.get(pathOf(s));
      if (
        !record ||
        record.fingerprint.dev !== files.devAt(i) ||
        record.fingerprint.ino !== files.inoAt(i) ||
        record.fingerprint.size !== files.sizeAt(i) ||
        lstatMs(record.fingerprint.mtimeNs) !== files.mtimeMsAt(i)
      ) {
        keptAll = false;
        record = recordOf(walkOf[s]!, from[s]!, [], false); // shown, not scanned again
      }
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
          const ids: string[] = [];
          for (let k = 0; k < sessionCount; k++) {
            const id = idOf(k);
            if (id === undefined) return full(); // the snapshot's line of ids is damaged
            ids.push(id);
          }
          findDuplicates(ids, pathOf, holders);
        }
        const list = holders.get(record.id);
        const sharing = list?.map(wholeOf);
        if (!list || !sharing || sharing.some((r) => !r)) return full();
        const copies = sharing.map((r) => ({ ...r!, warnings: [...r!.warnings] }));
        dedupeIds(copies, (k) => copies[k]!);
        record = copies[list.indexOf(s)]!;
      }
      shown.push(record);
    }
    if (!keptAll || whole.size !== kept.size) writeShown(keptFile, [...whole.values()]);

    // The snapshot again, when a file changed, came or went.
    if (changed) {
      const rows: SnapshotRow[] = [];
      for (let s = 0; s < sessionCount; s++) {
        const record = read.get(s);
        if (record) {
          if (!notForSnapshot(record)) rows.push(rowOf(record, duplicate[s] === 1));
          continue;
        }
        const { files } = walks[walkOf[s]!]!;
        const i = from[s]!;
        const id = idOf(s);
        const createdAt = createdAtOf(s);
        if (id === undefined || createdAt === undefined) return full();
        rows.push({
          path: pathOf(s),
          dev: files.devAt(i),
          ino: files.inoAt(i),
          size: size[s]!,
          mtime: files.mtimeMsAt(i),
          lastUsed: lastUsedMs[s]!,
          id,
          namespace: nsNames[nsOf[s]!]!,
          createdAt,
          warnings: warnings[s]!,
          duplicate: duplicate[s] === 1,
        });
      }
      writeSnapshot(snapshotFile, stores.roots, rows);
    }

    const summary = { sessionCount, totalBytes };
    if (history !== undefined)
      try {
        recordGrowth(history, { sessions: [], summary, namespaces }, now());
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
      findings: storeFindings({
        stores: refs,
        sessions: Array.from(walkOf.subarray(0, count), (w) => ({ store: refs[w]! })),
        problems,
      }),
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

/** The sessions that share an id with another, by id, first by path first (as `dedupeIds` orders them). */
function findDuplicates(ids: readonly string[], pathOf: (s: number) => string, into: Map<string, number[]>) {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const id of ids)
    if (seen.has(id)) twice.add(id);
    else seen.add(id);
  into.clear();
  for (let s = 0; s < ids.length; s++)
    if (twice.has(ids[s]!)) {
      const list = into.get(ids[s]!) ?? [];
      list.push(s);
      into.set(ids[s]!, list);
    }
  for (const list of into.values())
    list.sort((a, b) => (pathOf(a) < pathOf(b) ? -1 : pathOf(a) > pathOf(b) ? 1 : 0));
}
