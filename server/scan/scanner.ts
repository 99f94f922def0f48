// One scan of the pi stores: walk (cheap stats), read only what changed (the cache), build records,
// aggregate. Reads are synchronous and batched — about 3× faster than a Promise per file — and
// the scan yields to the event loop between batches so a server stays responsive and can stream progress.
import type { ScanProblem, ScanProgress, ScanReport } from "../../shared/scan-report.js";
import { summarizeNamespaces, summarizeSessions } from "../../shared/scan-summary.js";
import type { SessionRecord, StoreRef } from "../../shared/session-record.js";
import { pathDerivedId } from "../stores/pi/pi-record.js";
import { READ_CHUNK_BYTES } from "../stores/pi/read-session-file.js";
import { growthFile, recordGrowth } from "../state/growth-store.js";
import { joinSessionMeta } from "../stores/pi/session-meta.js";
import type { StoreScan } from "../stores/adapter-types.js";
import { adapterOf, storeAdapter } from "../stores/store-adapter.js";
import { sameIdentity } from "../fs/file-identity.js";
import { FactsStore, factsFileIn, FolderShelf } from "../state/facts-store.js";
import { type FactsShelf, withFactsShelves } from "../stores/facts-cache.js";
import {
  type CacheEntry,
  cacheKey,
  entryOf,
  factsFor,
  inputOf,
  PI_FACTS,
  pieceOf,
  readFailure,
  storedOf,
} from "../stores/pi/pi-facts.js";
import { gatedStores } from "./resolve-roots.js";
import { duplicateHolders, IdCounts } from "./duplicate-ids.js";
import {
  type ChangesWalk,
  type FoundFile,
  type FoundFiles,
  walkPiChanges,
  walkPiRoot,
  type WalkOptions,
} from "../stores/pi/walker.js";

export type { CacheEntry } from "../stores/pi/pi-facts.js";

export interface ScanOptions {
  /** The stores, each with its kind (`resolveStores` finds them; they go through the place gate here too). */
  stores: readonly StoreRef[];
  /** The facts store's database file (state/facts-store.ts); without it (and `cacheDir`) every file is read. */
  cacheFile?: string;
  /** The state folder the facts store is in (`factsFileIn`): used instead of `cacheFile`. */
  cacheDir?: string;
  /** pi's session-index folder (`<agentDir>/sessions-meta`): joined onto the records when given. */
  metaDir?: string;
  /** `lastUsedAt` from the last entry's timestamp instead of mtime. Default false. */
  precise?: boolean;
  /** How many largest sessions the summary lists. Default 10. */
  topN?: number;
  /** Called as the scan goes, at most every `progressIntervalMs` and once at the end. */
  onProgress?: (progress: ScanProgress) => void;
  /** Default 100 ms. */
  progressIntervalMs?: number;
  /**
   * The last scan of these stores (a server's previous look): the record of a file unchanged since
   * then — and not changed by that scan's last steps — is copied from it instead of built again,
   * and only the other files' cache entries are loaded.
   */
  previous?: ScanReport;
  /**
   * Only these paths may have changed since `previous` (a watcher saw them): the walk looks only
   * there (`walkPiChanges`), an adapter store is scanned again only when something under its root
   * changed, and everything else of `previous` stays as it is, neither read nor statted. Ignored
   * without a `previous` this module made.
   */
  changed?: ReadonlySet<string>;
  /**
   * Cache entries held in memory by a long-lived caller (the server), looked up before the facts
   * store: with `changed`, the entries of the files read go here (and to the store); a full scan
   * takes out those of the files it read again.
   */
  memoryCache?: Map<string, CacheEntry>;
  now?: () => Date;
}

/** Where a file's facts are kept: its folder and name (a name not valid UTF-8: its whole key, in the folder it seems to be in). */
export function placeOf(key: string, file: FoundFile): [folder: string, name: string] {
  if (!key.startsWith("bytes:")) return FolderShelf.place(key);
  return [file.path.slice(0, file.path.lastIndexOf("/")), key];
}

/** How long the scan may hold the event loop before it lets other work run. */
const YIELD_EVERY_MS = 50;
/**
 * A step that costs little (an entry of the walk, a file found unchanged) reads the clock only every
 * this many times, for progress and turns of the event loop: reading it was a good part of such a step.
 */
const CHEAP_STEPS = 64;

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Whether each report's records were built with `precise`: a record is reused only under the same option. */
const preciseOf = new WeakMap<ScanReport, boolean>();

/**
 * Each report's records as the stores' readers made them, before the last steps (duplicate ids,
 * pi's session index, forks) gave some of them copies with more: what a later scan reuses, since
 * those steps are taken again on every scan. The pi records are kept by folder (the root, or one of
 * its `--<cwd>--` folders), so a scan of what changed takes whole folders over as they are.
 */
interface Base {
  piFolders: ReadonlyMap<string, readonly SessionRecord[]>;
  /** The other stores' records (adapters), in the report's order. */
  others: readonly SessionRecord[];
  /** How many of these records hold each id (a scan of what changed counts only that). */
  ids: IdCounts;
}
const baseOf = new WeakMap<ScanReport, Base>();

/** A report's pi records by folder as the readers made them, before the last steps (see `Base`). */
export const basePiRecords = (report: ScanReport) => baseOf.get(report)?.piFolders;

const folderOf = (path: string) => path.slice(0, path.lastIndexOf("/"));

/**
 * The pi records of `previous` as `buildPiRecord` made them, by path: what can be reused as is. A
 * folder's records are put in a map on the first look-up there (a scan of what changed looks in
 * a few folders only).
 */
function reusableRecords(previous: ScanReport | undefined, precise: boolean) {
  const base = previous && baseOf.get(previous);
  const usable = !!base && preciseOf.get(previous!) === precise;
  const folders = new Map<string, Map<string, SessionRecord>>();
  return {
    get(path: string): SessionRecord | undefined {
      if (!usable) return undefined;
      const folder = folderOf(path);
      let byPath = folders.get(folder);
      if (!byPath) {
        byPath = new Map();
        for (const record of base.piFolders.get(folder) ?? [])
          // Unreadable: read again (a permission may have changed without touching size or mtime).
          if (!record.warnings.some((w) => w.code === "unreadable")) byPath.set(record.path, record);
        folders.set(folder, byPath);
      }
      return byPath.get(path);
    },
  };
}

/** The record at an index, to change (copied first: it is shared with the base records, and maybe with an earlier scan). */
type Own = (index: number) => SessionRecord;

const isAtOrUnder = (path: string, root: string) => path === root || path.startsWith(`${root}/`);

/**
 * What stays of the last scan of `root` after a walk of only its changed places: the records and
 * problems where that walk did not look (see `ChangesWalk`).
 */
function staysAfter(walk: ChangesWalk) {
  return (path: string) => {
    if (walk.whole || walk.judged.has(path) || walk.listed.has(path) || walk.gone.has(path)) return false;
    const folder = folderOf(path);
    return !walk.listed.has(folder) && !walk.gone.has(folder);
  };
}

/**
 * A walk of only what changed under `root` (`walkPiChanges`), and what stays of the last scan
 * there: its records by folder — a folder where nothing was looked at again taken over whole, the
 * very same array (`copied` names the ones filtered now) — and its problems.
 */
async function walkChangesOf(
  root: string,
  changed: ReadonlySet<string>,
  previous: ScanReport,
  base: Base,
  options: WalkOptions,
) {
  const inRoot = (path: string) => isAtOrUnder(path, root);
  const foldersBefore = [...base.piFolders.keys()].filter(inRoot);
  const problemsBefore = previous.problems.filter((p) => inRoot(p.path));
  const knownFolders = new Set(foldersBefore);
  for (const { path } of problemsBefore) knownFolders.add(folderOf(path));
  knownFolders.delete(root);
  // A link's problem says where it leads and whether that is there: no event on the link tells
  // when its target comes or goes, so every link is judged again.
  const links = problemsBefore.filter((p) => p.code === "symlink").map((p) => p.path);
  const walk = await walkPiChanges(root, [...[...changed].filter(inRoot), ...links], knownFolders, options);
  const folders = new Map<string, readonly SessionRecord[]>();
  const copied = new Set<SessionRecord[]>();
  const judgedIn = new Set([...walk.judged].map(folderOf));
  for (const folder of foldersBefore) {
    if (walk.whole || walk.listed.has(folder) || walk.gone.has(folder)) continue;
    const group = base.piFolders.get(folder)!;
    if (!judgedIn.has(folder)) folders.set(folder, group);
    else {
      const kept = group.filter((r) => !walk.judged.has(r.path));
      copied.add(kept);
      if (kept.length > 0) folders.set(folder, kept);
    }
  }
  const stays = staysAfter(walk);
  return { walk, folders, copied, problems: problemsBefore.filter((p) => stays(p.path)) };
}

/**
 * Gives every record a unique id: a second file with the same uuid gets a path-derived id and a
 * warning. `ids`: the records' ids counted already — with none held twice, nothing to do.
 */
export function dedupeIds(records: SessionRecord[], own: Own, ids?: IdCounts) {
  if (ids?.duplicated.size === 0) return;
  const holders = duplicateHolders(
    records.length,
    (i) => records[i]!.id,
    (i) => records[i]!.path,
    ids?.duplicated,
  );
  for (const [id, [first, ...others]] of holders) {
    const firstPath = records[first!]!.path;
    for (const i of others) {
      const record = own(i);
      record.warnings.push({
        code: "duplicate-id",
        message: `session id ${id} is also used by ${firstPath}`,
      });
      record.id = pathDerivedId(record.path);
    }
  }
}

/** Fork lineage both ways: each parent lists the sessions whose `parentSession` names its file. */
function linkForks(records: SessionRecord[], own: Own) {
  // Only the files some session names as its parent: a few, where a map of every path was 100,000.
  const parents = new Set<string>();
  for (const record of records) if (record.parentSession) parents.add(record.parentSession);
  if (parents.size === 0) return;
  const byPath = new Map<string, number>();
  for (let i = 0; i < records.length; i++) if (parents.has(records[i]!.path)) byPath.set(records[i]!.path, i);
  for (let i = 0; i < records.length; i++) {
    const record = records[i]!;
    if (!record.parentSession) continue;
    const parent = byPath.get(record.parentSession);
    if (parent !== undefined && parent !== i) (own(parent).forks ??= []).push(record.id);
  }
}

export async function scanStores(options: ScanOptions): Promise<ScanReport> {
  const gated = gatedStores(options.stores);
  // The stores of file sessions first (pi's), read by the walk and the facts store below; then each
  // other store by its adapter's own scan.
  const fileStores = gated.filter((s) => adapterOf(s.kind).readByFileScanner);
  const adapterStores = gated.filter((s) => !adapterOf(s.kind).readByFileScanner);
  const roots = fileStores.map((s) => s.root);
  const storeRefs = [...fileStores, ...adapterStores];
  const factsFile = options.cacheDir !== undefined ? factsFileIn(options.cacheDir) : options.cacheFile;
  const now = options.now ?? (() => new Date());
  const started = performance.now();
  const interval = options.progressIntervalMs ?? 100;
  let lastProgress = -Infinity; // the first report is never held back (the clock starts with the process)
  const report = (progress: ScanProgress, force = false) => {
    if (!options.onProgress) return;
    const t = performance.now();
    if (!force && t - lastProgress < interval) return;
    lastProgress = t;
    options.onProgress(progress);
  };

  let steps = 0;
  /** Whether a step reads the clock: every step that costs, every `CHEAP_STEPS`-th one that does not. */
  const clockDue = (cheap: boolean) => !cheap || ++steps % CHEAP_STEPS === 0;
  let sliceStart = performance.now();
  /** A turn for the event loop once the scan has held it for `YIELD_EVERY_MS`; until then nothing to wait for. */
  const breathe = () => {
    if (performance.now() - sliceStart <= YIELD_EVERY_MS) return undefined;
    return yieldToEventLoop().then(() => {
      sliceStart = performance.now();
    });
  };

  const precise = !!options.precise;
  // A server rescans every few seconds: rebuilding 100,000 records each time was ~65 MB of garbage.
  const reusable = reusableRecords(options.previous, precise);

  const problems: ScanProblem[] = [];
  const records: SessionRecord[] = [];
  // With the paths a watcher saw change, only those places are walked; the rest of the last scan stays.
  // Only where the last scan was of the very same stores (a config edit may have changed them).
  const sameStores = (a: readonly StoreRef[], b: readonly StoreRef[]) =>
    a.length === b.length && a.every((s, i) => s.kind === b[i]!.kind && s.root === b[i]!.root);
  const previousBase =
    options.previous && sameStores(options.previous.stores, storeRefs)
      ? baseOf.get(options.previous)
      : undefined;
  const changed = previousBase && options.changed;
  const memoryCache = options.memoryCache;
  /** This scan's pi records by folder (see `Base`): groups taken over whole, or made now. */
  const piFolders = new Map<string, SessionRecord[]>();
  const madeNow = new Set<SessionRecord[]>();
  const addToFolder = (record: SessionRecord) => {
    const folder = folderOf(record.path);
    let group = piFolders.get(folder);
    if (!group || !madeNow.has(group)) {
      group = [...(group ?? [])]; // never added to a group the last scan still holds
      madeNow.add(group);
      piFolders.set(folder, group);
    }
    group.push(record);
  };
  // The walk's lists, one per root, kept compactly (see FoundFiles) until the last file is read.
  const found: Array<{ root: string; files: FoundFiles }> = [];
  let filesTotal = 0;
  let bytesTotal = 0;
  /** The walk's pause after each entry: the clock read now and then, a turn when one is due. */
  const pause = () => (clockDue(true) ? breathe() : undefined);
  for (const root of roots) {
    let walked;
    if (changed) {
      const after = await walkChangesOf(root, changed, options.previous!, previousBase, {
        known: reusable,
        pause,
      });
      for (const [folder, group] of after.folders) {
        piFolders.set(folder, group as SessionRecord[]);
        for (const record of group) records.push(record);
      }
      for (const group of after.copied) madeNow.add(group);
      problems.push(...after.problems);
      walked = after.walk;
    } else walked = await walkPiRoot(root, { known: reusable, pause });
    problems.push(...walked.problems);
    found.push({ root, files: walked.files });
    filesTotal += walked.files.length;
    bytesTotal += walked.files.totalBytes;
    report({ phase: "walking", filesDone: 0, filesTotal, bytesDone: 0, bytesTotal: 0 });
  }

  /** The record of `previous` for a file unchanged since (same path, store and identity), if reusable. */
  const unchangedRecord = (root: string, file: FoundFile) => {
    const before = reusable.get(file.path);
    return before !== undefined &&
      !file.nonUtf8Name && // lossy paths of different files may look alike
      before.store.root === root &&
      sameIdentity(before.fingerprint, file.identity)
      ? before
      : undefined;
  };
  // With a previous look (a server's rescan), a file unchanged since needs no cache entry: its record
  // is reused, and the facts store is asked only about the other files.
  const lean = options.previous !== undefined;
  /** Lean: the keys of every file found. */
  const foundKeys = new Set<string>();
  // Each root's facts, looked up a folder at a time as the loop meets the files (the walk's order).
  const store = factsFile !== undefined ? FactsStore.open(factsFile) : undefined;
  const shelves = store && roots.map((root) => new FolderShelf(store, PI_FACTS, root));
  const buffer = Buffer.allocUnsafe(READ_CHUNK_BYTES);
  /**
   * The indexes of `records` that the last steps have copied to change. Every other record is the
   * base record itself (kept as the readers made it, for the next scan to reuse), and maybe also
   * one of `previous`, which never changes either.
   */
  const owned = new Set<number>();
  const own: Own = (index) => {
    if (!owned.has(index)) {
      const record = records[index]!;
      records[index] = { ...record, warnings: [...record.warnings] };
      owned.add(index);
    }
    return records[index]!;
  };
  let filesRead = 0;
  let bytesRead = 0;
  let cacheHits = 0;
  let bytesDone = 0;
  /** After each file: progress, and a turn for the event loop now and then. */
  // Returns the turn when one is due, else nothing: an `await` of nothing costs a turn of the
  // microtask queue all the same, 100,000 times a scan.
  const fileDone = (index: number, size: number, cheap: boolean) => {
    bytesDone += size;
    if (!clockDue(cheap)) return undefined;
    if (options.onProgress)
      report({ phase: "reading", filesDone: index + 1, filesTotal, bytesDone, bytesTotal });
    return breathe();
  };
  let orphanedMeta: Awaited<ReturnType<typeof joinSessionMeta>> | undefined;
  /** The records as the readers made them (see `baseOf`). */
  let base: Base | undefined;
  /** With a watcher's changes: the records that went and came since `previous` (see `IdCounts`). */
  const went: SessionRecord[] = [];
  const came: SessionRecord[] = [];
  try {
    let index = 0;
    for (const [r, { root, files }] of found.entries()) {
      const shelf = shelves?.[r];
      for (let i = 0; i < files.length; i++, index++) {
        const file = files.at(i);
        const key = cacheKey(file);
        const readBefore = filesRead; // a file found unchanged is a cheap step
        const input = inputOf(root, file, precise);
        const unchanged = lean ? unchangedRecord(root, file) : undefined;
        const [folder, name] = shelf ? placeOf(key, file) : ["", ""];
        if (lean) foundKeys.add(key);
        if (unchanged) {
          // The same file as last time: the same record, shared with the last look. The steps below
          // copy it before they change it (a new fork, a duplicate id, pi's index): the last look's
          // records never change. Copying all of them was ~20 MB more per rescan.
          cacheHits += 1;
          shelf?.touch(folder, name);
          records.push(unchanged);
          addToFolder(unchanged);
          const turn = fileDone(index, file.identity.size, true);
          if (turn) await turn;
          continue;
        }
        try {
          // A watcher's update may have read the file since the facts store was written.
          const inMemory = memoryCache?.get(key);
          const cached = inMemory ?? entryOf(shelf?.get(key, folder, name));
          const { entry, identity, bytesRead: read, hit } = factsFor(file, cached, buffer);
          if (hit) {
            cacheHits += 1;
            if (inMemory) shelf?.put(key, storedOf(entry), folder, name);
          } else {
            filesRead += 1;
            shelf?.put(key, storedOf(entry), folder, name);
            if (changed) memoryCache?.set(key, entry);
            else memoryCache?.delete(key);
          }
          bytesRead += read;
          // A read describes the file as read (fstat), which may be newer than the walk's lstat.
          input.identity = identity;
          input.facts = entry.facts;
        } catch (error) {
          const gone = readFailure(input, error, problems);
          if (gone) {
            // Deleted since the walk: its facts are forgotten.
            if (lean) foundKeys.delete(key);
            continue;
          }
          if (input.readError === undefined) continue; // a problem now (a link)
        }
        const record = pieceOf(input, problems);
        if (record) {
          records.push(record);
          addToFolder(record);
        }
        const turn = fileDone(index, file.identity.size, filesRead === readBefore);
        if (turn) await turn;
      }
      // A whole walk asked for every file there is: the facts of the others are forgotten. A
      // server's rescan asked only about files that changed: it forgets the sessions of its last
      // look not found now; a watcher's update keeps everything (it walked a few places).
      if (shelf && lean && !changed)
        for (const s of options.previous!.sessions)
          if (adapterOf(s.store.kind).readByFileScanner && s.store.root === root && !foundKeys.has(s.path)) {
            const [folder, name] = FolderShelf.place(s.path);
            shelf.forget(folder, name);
          }
      shelf?.settle(!changed);
    }
    found.length = 0; // every file is read

    const others: SessionRecord[] = [];
    for (const adapterStore of adapterStores) {
      const inStore = (path: string) => isAtOrUnder(path, adapterStore.root);
      const adapter = await storeAdapter(adapterStore.kind);
      // The adapter reads; what it read is kept on this root's shelves (one per reader it uses).
      const adapterShelves = new Map<string, FolderShelf>();
      const shelfOf = (reader: string): FactsShelf | undefined => {
        if (!store) return undefined;
        let shelf = adapterShelves.get(reader);
        if (!shelf) adapterShelves.set(reader, (shelf = new FolderShelf(store, reader, adapterStore.root)));
        return shelf;
      };
      let scanned: StoreScan | undefined;
      let last: StoreScan | undefined;
      // With a watcher's changes, only what changed under this store is measured again — unless the
      // store itself came, went or was replaced.
      if (changed && ![...changed].some((path) => adapterStore.root.startsWith(`${path}/`))) {
        last = {
          records: previousBase.others.filter(
            (r) => r.store.kind === adapterStore.kind && r.store.root === adapterStore.root,
          ),
          problems: options.previous!.problems.filter((p) => inStore(p.path)),
        };
        const mine = [...changed].filter(inStore);
        // Nothing changed under it: its records and problems stay as they were.
        scanned =
          mine.length === 0
            ? last
            : withFactsShelves(shelfOf, () => adapter.rescanChanged?.(adapterStore.root, last!, mine));
      }
      if (!scanned) {
        const { scan } = adapter;
        if (!scan) throw new Error(`the ${adapterStore.kind} adapter has no scan of its own`);
        scanned = withFactsShelves(shelfOf, () => scan(adapterStore.root));
      }
      if (changed && scanned !== last) {
        // A store measured again: its records all went and came (an adapter reads it whole).
        for (const r of previousBase.others)
          if (r.store.kind === adapterStore.kind && r.store.root === adapterStore.root) went.push(r);
        for (const r of scanned.records) came.push(r);
      }
      for (const shelf of adapterShelves.values()) shelf.settle(false); // what it read, written
      records.push(...scanned.records);
      others.push(...scanned.records);
      problems.push(...scanned.problems);
      // An adapter reads its store in one go (each file to the caps of stores/read-caps.ts): the
      // event loop gets a turn between stores.
      await breathe();
    }
    if (changed) {
      // A folder taken over whole is the very same array: only the others went or came.
      for (const [folder, group] of piFolders) {
        const before = previousBase.piFolders.get(folder);
        if (group === before) continue;
        for (const r of before ?? []) went.push(r);
        for (const r of group) came.push(r);
      }
      for (const [folder, before] of previousBase.piFolders)
        if (!piFolders.has(folder)) for (const r of before) went.push(r);
    }
    const ids = changed
      ? previousBase.ids.after(
          went.map((r) => r.id),
          came.map((r) => r.id),
        )
      : IdCounts.of(records.map((r) => r.id));
    base = { piFolders, others, ids };
    // Each of the last steps goes over every record: the event loop gets its turns between them.
    await breathe();
    dedupeIds(records, own, ids);
    await breathe();
    orphanedMeta = options.metaDir ? await joinSessionMeta(records, options.metaDir, own) : undefined;
    await breathe();
    linkForks(records, own);
    await breathe();
    if (!changed) memoryCache?.clear(); // every file it held is on the facts store now
  } finally {
    store?.close();
  }
  await breathe();
  const summary = summarizeSessions(records, problems, options.topN ?? 10);
  await breathe();
  const namespaces = summarizeNamespaces(records);
  report({ phase: "done", filesDone: filesTotal, filesTotal, bytesDone, bytesTotal }, true);

  const result: ScanReport = {
    scannedAt: now().toISOString(),
    stores: storeRefs,
    summary,
    namespaces,
    sessions: records,
    problems,
    ...(orphanedMeta ? { orphanedMeta } : {}),
    stats: { durationMs: performance.now() - started, filesRead, bytesRead, cacheHits },
  };
  preciseOf.set(result, precise);
  if (base) baseOf.set(result, base);
  return result;
}

/**
 * Whether a scan adds a point to its stores' growth history (state/growth-store.ts, one history per
 * set of stores, so a scan of other stores never mixes into the usual ones' history):
 * - `{ recordIn: stateDir }` — a look at the stores someone asked for, to see them or act on them:
 *   `scan`, `plan`, `clean`, `report`, `keep`, the dashboard's looks, pi's, and the engine's own
 *   fresh look before it moves anything (all of these through plan/plan-inputs.ts but `scan`), and
 *   the Prometheus metrics (a machine that only writes the textfile from a timer must still build
 *   the history the "full within 7 days" forecast needs; a point per hour is kept);
 * - `"read-only"` — a probe that leaves the user's state as it found it (the scan cache aside, which
 *   only makes the next scan faster): `status` (made for shell prompts and scripts, run unasked)
 *   and `protect` (a look-up of the sessions it names); and the dashboard's watched updates, a few
 *   a second while an agent writes (its full looks record, at least every 10 minutes).
 */
export type GrowthRecording = "read-only" | { recordIn: string };

export interface ScanRequest extends Omit<ScanOptions, "stores"> {
  /** Required, so every caller says which kind of scan it is (see GrowthRecording). */
  growth: GrowthRecording;
}

/**
 * The one way to scan: the stores as `resolveStores` resolved them (structured; gated again here),
 * and the one place a scan is recorded as growth, by the rule of `GrowthRecording`.
 */
export async function scan(stores: readonly StoreRef[], request: ScanRequest): Promise<ScanReport> {
  const { growth, ...options } = request;
  const report = await scanStores({ ...options, stores });
  if (growth !== "read-only") {
    try {
      recordGrowth(growthFile(growth.recordIn, report.stores), report, (options.now ?? (() => new Date()))());
    } catch {
      // History is a bonus: a state dir we may not write (another user's, read-only) must not stop a scan.
    }
  }
  return report;
}
