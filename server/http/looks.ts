// When the dashboard's look at the stores moves on. Every read — summary, table, plan, detail —
// shares one look (a 100,000-session table must answer in well under a second, and one scan at a
// time keeps memory down), and a look is taken:
// - in full: at start, when asked for (`POST /api/scan`), after every change we make to the stores
//   (a delete, a restore: the generation moves on and reads wait for a look of the new one), and as
//   the reconciliation of a watched look every 10 minutes;
// - without walking the stores, after a pin or a saved policy while the stores are watched (the
//   watcher keeps them current) — unless a walk is under way or owed, which it must not overtake;
// - as a watched update: the paths the watch saw change, scanned alone, everything else of the last
//   look kept — batched, and on average using at most half of the time;
// - without a watch (turned off, refused by the system, a network file system): again when a read
//   finds the look older than `freshMs` (answered from the old one meanwhile), and every `freshMs`
//   while a page follows the look.
// Deletions never rely on a look: the engine looks again, under its lock, just before it moves
// anything.
import { realpathSync } from "node:fs";
import type { WatchStatus } from "../../shared/api.js";
import type { ScanProgress } from "../../shared/scan-report.js";
import type { StoreRef } from "../../shared/session-record.js";
import type { GatherOptions, PlanInputs } from "../plan/plan-inputs.js";
import { differingPaths } from "../scan/report-diff.js";
import type { CacheEntry } from "../scan/scanner.js";
import { collectGarbage } from "./heap.js";
import { type StoreWatch, watchStores } from "./store-watch.js";

/** How often a watched look is checked against a full rescan, which must find nothing the watcher missed. */
const RECONCILE_MS = 10 * 60_000;
/** A watched change is applied this long after it is seen, so that the changes of one write go together. */
const BATCH_MS = 100;
/** At most this many updates a second. */
const MIN_UPDATE_INTERVAL_MS = 250;
/**
 * The share of the time watched updates may use, on average (at 100,000 sessions an update and the
 * page's change of it cost ~0.3 s here): a change after a quiet spell is applied at once, a stream
 * of them no more often than this allows.
 */
const UPDATE_SHARE = 0.5;
/** How much unused time a quiet spell saves up for the updates that follow it. */
const UPDATE_BURST_MS = 2000;
/** How long the stores must be quiet after watched updates before the server tidies its heap. */
const QUIET_MS = 2000;

export interface Look {
  at: number;
  /** Reads wait for a look of the current generation; a change of ours starts a new one. */
  generation: number;
  /** Each look's number, which the page follows (`LookEvent`): one more for every new look. */
  version: number;
  inputs: PlanInputs;
}

export interface LooksOptions {
  /** Gathers a look (see `gatherPlanInputs`): in full, or from the last one. */
  gather: (
    options: Pick<GatherOptions, "previous" | "changed" | "memoryCache" | "onProgress" | "growth">,
  ) => Promise<PlanInputs>;
  /** The stores to watch (not watched when absent), and pi's session index folder. */
  watch?: { stores: readonly StoreRef[]; metaDir: string };
  freshMs: number;
  reconcileMs?: number;
  /** How many pages follow the look now. */
  followers: () => number;
  /**
   * A new look, after reads see it: what the pages are told. Its time counts against the watched
   * updates' share.
   */
  onLook: (before: Look, after: Look) => void;
  /** The watch's status changed (it stopped, a reconciliation ended). */
  onWatch: () => void;
  log?: (line: string) => void;
}

export function createLooks(options: LooksOptions) {
  const { freshMs } = options;
  let generation = 0;
  let version = 0;
  let look: Look | undefined;
  /** The look being taken, and whether it walks the stores (a pin's look need not). */
  let scan: { generation: number; inputs: Promise<PlanInputs>; walks: boolean } | undefined;
  let progress: ScanProgress | undefined;
  let closed = false;
  const versionOf = new WeakMap<PlanInputs, number>();
  /** Cache entries of the files the watcher's updates read, until a full look writes them. */
  const memoryCache = new Map<string, CacheEntry>();
  /** A generation whose look need not walk the stores: only what is gathered beside them changed. */
  let walkless: number | undefined;
  /**
   * The stores may hold what the last look does not — a change of ours, a rescan asked for that a
   * newer look overtook: the next look walks them, whatever else changed. Cleared by a walk's look.
   */
  let walkOwed = false;

  /** A new look: reads see it from now on, and the pages hear what changed. */
  const setLook = (inputs: PlanInputs, mine: number) => {
    const before = look;
    const after: Look = { at: Date.now(), generation: mine, version: ++version, inputs };
    look = after;
    versionOf.set(inputs, after.version);
    if (options.followers() > 0 && before)
      setImmediate(() => {
        const started = Date.now();
        options.onLook(before, after);
        budget(Date.now() - started);
      });
    if (watch) {
      follow(inputs.report.stores);
      if (watch.pending) scheduleUpdate();
    }
  };

  /** The look of this generation, taken now unless one is under way; `walk`: the stores are walked whatever changed. */
  const takeLook = (walk = false) => {
    if (scan?.generation === generation) return scan.inputs;
    const mine = generation;
    const skipWalk =
      !walk && !walkOwed && look !== undefined && walkless === mine && watch?.status.mode === "watching";
    walkless = undefined;
    if (walk) walkOwed = true; // until this walk's look is set: a newer look must walk too
    const inputs = options.gather({
      onProgress: (p) => {
        progress = p;
      },
      // Unchanged files keep the last look's records and need no cache entry: a rescan neither
      // rebuilds the records nor loads the whole cache. Entries of files the watcher's updates read
      // go to the cache file now.
      ...(look ? { previous: look.inputs.report } : {}),
      // The watcher keeps the last look's stores current: nothing of them changed, nothing is walked.
      ...(skipWalk ? { changed: new Set<string>() } : {}),
      memoryCache,
    });
    scan = { generation: mine, inputs, walks: !skipWalk };
    void inputs.then(
      (gathered) => {
        if (scan?.inputs === inputs) scan = undefined;
        if (mine === generation) {
          if (!skipWalk) walkOwed = false;
          setLook(gathered, mine);
          // What the scan left behind (the first one ~200 MB) and the last look, its records and
          // table, are garbage now: collect them before the next scan piles more on top.
          collectGarbage();
        }
      },
      () => {
        if (scan?.inputs === inputs) scan = undefined;
      },
    );
    return inputs;
  };

  // ——— The watch, its updates, and the reconciliation ———
  let watch: StoreWatch | undefined;
  let watched: readonly StoreRef[] = [];
  let updateTimer: NodeJS.Timeout | undefined;
  let updating = false;
  let lastUpdateStarted = 0;
  /** Time the updates may still use (see UPDATE_SHARE), as of `budgetAt`; below 0, they wait. */
  let budgetMs = UPDATE_BURST_MS;
  let budgetAt = Date.now();
  let reconciled: WatchStatus["reconciled"];
  let rescanTimer: NodeJS.Timeout | undefined;
  let quietTimer: NodeJS.Timeout | undefined;
  /** Not watching (or no longer): while a page follows the look, a rescan every `freshMs`. */
  let rescanning = options.watch === undefined;
  const reconcileTimer = options.watch
    ? setInterval(() => void reconcile(), options.reconcileMs ?? RECONCILE_MS).unref()
    : undefined;

  /** Brings the budget up to now; `spent` (ms of updating) comes off it. */
  const budget = (spent = 0) => {
    const now = Date.now();
    budgetMs = Math.min(UPDATE_BURST_MS, budgetMs + (now - budgetAt) * UPDATE_SHARE) - spent;
    budgetAt = now;
    return budgetMs;
  };

  /** Watches `refs` (the stores as the look has them: real paths), unless they are watched already. */
  const follow = (refs: readonly StoreRef[]) => {
    const same =
      refs.length === watched.length &&
      refs.every((r, i) => r.kind === watched[i]!.kind && r.root === watched[i]!.root);
    if (closed || !options.watch || (watch && same)) return;
    watch?.close();
    watched = refs;
    watch = watchStores(refs, options.watch.metaDir, scheduleUpdate, (status) => {
      options.log?.(`note: ${status.message}`);
      rescanning = true;
      keepFollowed();
      // Told once this call is done: a watch may fail as it starts, while the caller is still making us.
      queueMicrotask(options.onWatch);
    });
  };

  /** Starts or stops the rescans of a look nobody watches, as pages come and go. */
  function keepFollowed() {
    if (rescanning && options.followers() > 0 && !closed)
      rescanTimer ??= setInterval(
        () => {
          if (!scan) takeLook().catch(() => {});
        },
        Math.max(freshMs, 1000),
      ).unref();
    else {
      clearInterval(rescanTimer);
      rescanTimer = undefined;
    }
  }

  /** A change was seen: apply it soon, with what comes with it, as the budget allows. */
  function scheduleUpdate() {
    if (updateTimer || updating || closed) return;
    const owed = Math.max(0, -budget()) / UPDATE_SHARE;
    const due = Math.max(lastUpdateStarted + MIN_UPDATE_INTERVAL_MS, Date.now() + owed);
    updateTimer = setTimeout(() => void applyChanges(), Math.max(BATCH_MS, due - Date.now()));
  }

  /** One watched update: a scan of only what changed, and everything else gathered again (pins, live sessions). */
  async function applyChanges() {
    updateTimer = undefined;
    // A full look under way sees these changes too, and is followed by this update (setLook).
    const from = look;
    if (!from || !watch || scan || from.generation !== generation) return;
    const seen = watch.take();
    if (seen.size === 0) return;
    updating = true;
    const started = (lastUpdateStarted = Date.now());
    try {
      const inputs = await options.gather({
        previous: from.inputs.report,
        changed: seen,
        memoryCache,
        growth: "read-only",
      });
      if (look === from && generation === from.generation) setLook(inputs, from.generation);
      else watch.putBack(seen); // a newer look may not have seen them
    } catch (error) {
      // The next read takes a full look, which says what is wrong (pins unreadable, say).
      watch.putBack(seen);
      changed();
      options.log?.(`note: could not follow a change of the stores: ${(error as Error).message}`);
    } finally {
      updating = false;
      budget(Date.now() - started);
      if (watch.pending) scheduleUpdate();
      collectWhenQuiet();
    }
  }

  /**
   * Once the stores are quiet for a while after updates, one full collection: what the updates left
   * (a few MB each at 100,000 sessions) goes, and the heap is back near one look — rather than a
   * collection per update, which would cost more than the update (45–110 ms).
   */
  function collectWhenQuiet() {
    clearTimeout(quietTimer);
    quietTimer = setTimeout(() => {
      if (!updating && !scan) collectGarbage();
    }, QUIET_MS).unref();
  }

  /**
   * A full rescan of a watched look, which must find nothing the watcher missed: what differs where
   * no change was reported (nor is waiting to be applied) is counted and said.
   */
  async function reconcile() {
    if (!look || scan || updating || watch?.status.mode !== "watching") return;
    // The same generation: reads go on being answered from the watched look meanwhile.
    const before = look.inputs.report;
    const after = (await takeLook(true).catch(() => undefined))?.report;
    if (!after || !watch) return;
    const seen = watch.peek();
    const missed = differingPaths(before, after).filter(
      (path) => ![...seen].some((c) => path === c || path.startsWith(`${c}/`)),
    );
    reconciled = {
      at: new Date().toISOString(),
      missed: missed.length,
      missedTotal: (reconciled?.missedTotal ?? 0) + missed.length,
    };
    if (missed.length > 0)
      options.log?.(
        `note: a full rescan found ${missed.length} change(s) the watcher missed: ${missed.slice(0, 3).join(", ")}${missed.length > 3 ? ", …" : ""}`,
      );
    options.onWatch();
  }

  /**
   * Only what a look gathers beside the stores changed (a pin, the policy): the next read waits for
   * a new look, which — while the watcher keeps the stores current — walks none of them (at 100,000
   * sessions ~0.2 s, where a warm rescan is ~0.85 s). Stores the policy now names otherwise are
   * scanned whole.
   */
  function changedBesideStores() {
    // A walk under way (a rescan, the reconciliation, a change of ours) is overtaken by this look:
    // then this one walks.
    if (scan?.walks) walkOwed = true;
    else walkless = generation + 1;
    nextLook();
  }

  /** What the stores hold has changed (or may have): the next read waits for a new look, which walks them. */
  function changed() {
    walkOwed = true;
    nextLook();
  }

  function nextLook() {
    generation += 1;
    // A page that follows the look hears of the new one without asking.
    if (options.followers() > 0) takeLook().catch(() => {});
  }

  if (options.watch) {
    const real = (root: string) => {
      try {
        return realpathSync(root);
      } catch {
        return root;
      }
    };
    follow(options.watch.stores.map((s) => ({ kind: s.kind, root: real(s.root) })));
  }

  return {
    /** The look reads share: the current one, or the one being taken when there is none of this generation. */
    gather(): Promise<PlanInputs> {
      if (!look || look.generation !== generation) return takeLook();
      // A watched look is kept current by the watcher; otherwise a stale one is retaken behind it.
      if (watch?.status.mode !== "watching" && Date.now() - look.at > freshMs) takeLook().catch(() => {}); // its error shows on the next read
      return Promise.resolve(look.inputs);
    },
    changed,
    changedBesideStores,
    /** The last look, if any (a delete's scan starts from its records). */
    current: () => look,
    versionOf: (inputs: PlanInputs) => versionOf.get(inputs),

    /** A full look asked for; false when one is under way already (follow that one). */
    startScan(): { started: boolean } {
      if (scan?.walks) return { started: false };
      // A watched look is current: reads go on from it while the rescan runs. Otherwise they wait
      // for it — and so they do when a look that does not walk (a pin's) is under way: this replaces it.
      if (scan || watch?.status.mode !== "watching") generation += 1;
      progress = { phase: "walking", filesDone: 0, filesTotal: 0, bytesDone: 0, bytesTotal: 0 };
      takeLook(true).catch(() => {});
      return { started: true };
    },
    scanProgress: () => ({ running: scan !== undefined, ...(progress ? { progress } : {}) }),

    watchStatus: (): WatchStatus => ({
      ...(watch?.status ??
        (options.watch
          ? { mode: "off" as const }
          : {
              mode: "rescanning" as const,
              message:
                "Watching the stores is turned off: the dashboard rescans them every few seconds while it is open.",
            })),
      ...(reconciled ? { reconciled } : {}),
    }),
    /** A page came or went. */
    followersChanged: keepFollowed,

    close() {
      closed = true;
      watch?.close();
      clearTimeout(updateTimer);
      clearTimeout(quietTimer);
      clearInterval(reconcileTimer);
      clearInterval(rescanTimer);
    },
  };
}

export type Looks = ReturnType<typeof createLooks>;
