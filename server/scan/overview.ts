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
import { Snapshot, type SnapshotRow, snapshotFileOf, writeSnapshot } from "./overview-snapshot.js";
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
const rowOf = (r: SessionRecord): SnapshotRow => ({
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
});

/** A record no later scan may take from the snapshot: read again, or its path is not its file's name. */
const notForSnapshot = (r: SessionRecord) =>
  r.warnings.some((w) => w.code === "unreadable" || w.code === "non-utf8-name");

/** The rows of a full scan's pi records, for the snapshot. */
function* snapshotRowsOf(report: ScanReport): Generator<SnapshotRow> {
  for (const group of basePiRecords(report)?.values() ?? [])
    for (const record of group) if (!notForSnapshot(record)) yield rowOf(record);
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

  // The sessions as columns (strings shared with the walk and the snapshot; no object per session).
  // `from[i]` is the walk's index of the file (its root's walk is `walkOf[i]`); a file read now has
  // its record in `read`.
  const path: string[] = [];
  const size: number[] = [];
  const lastUsedMs: number[] = [];
  const createdAt: string[] = [];
  const namespace: string[] = [];
  const warnings: number[] = [];
  const id: string[] = [];
  const walkOf: number[] = [];
  const from: number[] = [];
  const read = new Map<number, SessionRecord>();
  const add = (
    w: number,
    i: number,
    p: string,
    bytes: number,
    ms: number,
    created: string,
    ns: string,
    warned: number,
    sessionId: string,
  ) => {
    path.push(p);
    size.push(bytes);
    lastUsedMs.push(ms);
    createdAt.push(created);
    namespace.push(ns);
    warnings.push(warned);
    id.push(sessionId);
    walkOf.push(w);
    from.push(i);
  };

  // Unchanged files first: their rows are summed where they are met; the others are read after.
  const toRead: Array<[walk: number, index: number]> = [];
  let filesTotal = 0;
  let matched = 0;
  for (let w = 0; w < walks.length; w++) {
    const { files } = walks[w]!;
    filesTotal += files.length;
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
      const ms = found ? found.folder.lastUsed[found.at]! : -1;
      if (!found || !(ms >= 0 && ms <= LAST_FOUR_DIGIT_YEAR_MS)) {
        toRead.push([w, i]);
        continue;
      }
      const { folder, at } = found;
      matched += 1;
      add(
        w,
        i,
        p,
        files.sizeAt(i),
        ms,
        folder.createdAt[at]!,
        snapshot.namespaces[folder.ns[at]!]!,
        folder.warnings[at]!,
        folder.id[at]!,
      );
    }
  }
  if (toRead.length > filesTotal * mostChanged) return full();

  // Whole records, as the full scan makes them (the same cache entries, the same functions): of the
  // files read now, and of the sessions shown.
  const reader = ScanCacheReader.open(cacheFile);
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
      const { entry, identity, bytesRead: bytes, hit } = factsFor(file, reader?.get(cacheKey(file)), buffer);
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
      read.set(path.length, record);
      add(
        w,
        i,
        record.path,
        record.sizeBytes,
        ms,
        record.createdAt,
        record.namespace,
        record.warnings.length,
        record.id,
      );
    }

    // A session id held by more than one file: every one after the first (by path) gets a warning
    // (and, shown, the whole treatment: `dedupeIds`).
    const seen = new Set<string>();
    const twice = new Set<string>();
    for (const sessionId of id)
      if (seen.has(sessionId)) twice.add(sessionId);
      else seen.add(sessionId);
    const holders = new Map<string, number[]>();
    for (let s = 0; s < id.length; s++)
      if (twice.has(id[s]!)) {
        const list = holders.get(id[s]!) ?? [];
        list.push(s);
        holders.set(id[s]!, list);
      }
    const duplicates = new Set<number>();
    for (const list of holders.values()) {
      list.sort((a, b) => (path[a]! < path[b]! ? -1 : path[a]! > path[b]! ? 1 : 0));
      for (const s of list.slice(1)) duplicates.add(s);
    }

    // Sums, as summarizeSessions and summarizeNamespaces make them.
    const byNamespace = new Map<string, { sessionCount: number; totalBytes: number; lastMs: number }>();
    let totalBytes = 0;
    let sessionsWithWarnings = 0;
    for (let s = 0; s < path.length; s++) {
      totalBytes += size[s]!;
      if (warnings[s]! > 0 || duplicates.has(s)) sessionsWithWarnings += 1;
      const usage = byNamespace.get(namespace[s]!);
      if (!usage)
        byNamespace.set(namespace[s]!, { sessionCount: 1, totalBytes: size[s]!, lastMs: lastUsedMs[s]! });
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
    const picked = firstOf(
      path.map((_, s) => s),
      top,
      comparatorOf<number>(order, {
        lastUsed: (s) => lastUsedMs[s]!,
        size: (s) => size[s]!,
        path: (s) => path[s]!,
        created: (s) => createdAt[s]!,
      }),
    );
    const whole = new Map<number, SessionRecord>();
    const wholeOf = (s: number) => {
      let record = read.get(s) ?? whole.get(s);
      if (!record) {
        record = recordOf(walkOf[s]!, from[s]!, [], false); // shown, not scanned again
        if (!record || record.id !== id[s]) return undefined; // the cache file says otherwise
        whole.set(s, record);
      }
      return record;
    };
    const shown: SessionRecord[] = [];
    for (const s of picked) {
      const list = holders.get(id[s]!);
      let record = wholeOf(s);
      if (!record) return full();
      if (list) {
        const sharing = list.map(wholeOf);
        if (sharing.some((r) => !r)) return full();
        const copies = sharing.map((r) => ({ ...r!, warnings: [...r!.warnings] }));
        dedupeIds(copies, (k) => copies[k]!);
        record = copies[list.indexOf(s)]!;
      }
      shown.push(record);
    }

    // The snapshot again, when a file changed, came or went.
    if (toRead.length > 0 || matched !== snapshot.rows) writeSnapshot(snapshotFile, stores.roots, rowsNow());
    function* rowsNow(): Generator<SnapshotRow> {
      for (let s = 0; s < path.length; s++) {
        const record = read.get(s);
        if (record) {
          if (!notForSnapshot(record)) yield rowOf(record);
          continue;
        }
        const { files } = walks[walkOf[s]!]!;
        const i = from[s]!;
        yield {
          path: path[s]!,
          dev: files.devAt(i),
          ino: files.inoAt(i),
          size: size[s]!,
          mtime: files.mtimeMsAt(i),
          lastUsed: lastUsedMs[s]!,
          id: id[s]!,
          namespace: namespace[s]!,
          createdAt: createdAt[s]!,
          warnings: warnings[s]!,
        };
      }
    }

    const sessionCount = path.length;
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
      findings: storeFindings({ stores: refs, sessions: sessionsByRoot(refs, walkOf), problems }),
      problems,
      orphanedMeta: [],
      shown,
      stats,
      warm: true,
    };
  } finally {
    reader?.close();
  }
}

/** One store reference per session (the root it was found in), for `storeFindings`. */
function sessionsByRoot(refs: readonly StoreRef[], walkOf: readonly number[]) {
  return walkOf.map((w) => ({ store: refs[w]! }));
}
