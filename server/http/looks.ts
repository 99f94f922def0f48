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
// All of these are requests that merge into one next look (look-queue.ts: what it does and when,
// decided apart from the timers and the gather here). What a look gathers beside the stores — the
// config, the pins, the trash ledgers, the live sessions — is kept from the last look until it may
// have changed (see `keptFor`). Deletions never rely on a look: the engine looks again, under its
// lock, just before it moves anything.
import { realpathSync } from "node:fs";
import type { WatchStatus } from "../../shared/api.js";
import type { ScanProgress } from "../../shared/scan-report.js";
import type { StoreRef } from "../../shared/session-record.js";
import type { AgentRecordsMemory } from "../plan/agent-takes.js";
import type { BesideStores, GatherOptions, PlanInputs } from "../plan/plan-inputs.js";
import { differingPaths } from "../scan/report-diff.js";
import type { CacheEntry } from "../scan/scanner.js";
import { statePaths } from "../state/state-dir.js";
import { collectGarbage } from "./heap.js";
import {
  BATCH_MS,
  BESIDE,
  type Beside,
  freshPacing,
  isNothing,
  type LookRequest,
  merge,
  type NextLook,
  NO_LOOK,
  plan,
  spend,
} from "./look-queue.js";
import { type StateWatch, watchState } from "./state-watch.js";
import { type StoreWatch, watchStores } from "./store-watch.js";

/** How often a watched look is checked against a full rescan, which must find nothing the watcher missed. */
const RECONCILE_MS = 10 * 60_000;
/** How long the stores must be quiet after watched updates before the server tidies its heap. */
const QUIET_MS = 2000;
/**
 * How old the live sessions (`/proc`, the agents' registries) may be when a watched update keeps
 * them. Why a watched update need not look every time: a session whose file changes is protected
 * by the grace window anyway (the pure policy's, from the time it was written), and it is exactly
 * such a write that causes an update — so what an update could learn from `/proc` is about
 * sessions that were not written (an agent that opened one and is quiet, or exited). Those raise no
 * event at all, so before this change too they were seen only when some other session was written,
 * or at a walk; here they are seen within this long of a write, at every walk (a rescan, a change
 * of ours, the reconciliation) and when the pi extension's markers change. What the dashboard shows
 * stays at most this stale for them, and a delete never relies on it: the engine looks again under
 * its lock.
 */
const LIVE_MS = 10_000;

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
    options: Pick<
      GatherOptions,
      "previous" | "changed" | "memoryCache" | "agentRecords" | "onProgress" | "growth" | "kept"
    >,
  ) => Promise<PlanInputs>;
  /**
   * The stores to watch (not watched when absent), and pi's session index folder. The config file
   * and the state folder are watched with them.
   */
  watch?: {
    stores: readonly StoreRef[];
    metaDir: string;
    /** The config file when not the usual one (`--config`), and the environment it is found in. */
    config?: { file?: string; env?: NodeJS.ProcessEnv };
  };
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

/** A look being taken. */
interface Running {
  generation: number;
  next: NextLook;
  inputs: Promise<PlanInputs>;
  walks: boolean;
  /** A watched update (paths alone, paced); its time counts against the share. */
  update: boolean;
}

export function createLooks(options: LooksOptions) {
  const { freshMs } = options;
  // ——— The state, in one place ———
  const state = {
    /** Reads wait for a look of this generation; a request that `awaited` moves it on. */
    generation: 0,
    version: 0,
    look: undefined as Look | undefined,
    /** The next look, as every request since the last one started asked for it (look-queue.ts). */
    pending: merge(NO_LOOK, { walk: true, awaited: true }),
    /** When the first change of `pending.paths` was seen. */
    seenAt: undefined as number | undefined,
    /** The latest look started; of an older generation when a request moved on past it. */
    running: undefined as Running | undefined,
    pacing: freshPacing(Date.now()),
    /** When the live sessions were last detected. */
    liveAt: -Infinity,
    progress: undefined as ScanProgress | undefined,
    reconciled: undefined as WatchStatus["reconciled"],
    closed: false,
  };
  const versionOf = new WeakMap<PlanInputs, number>();
  /** Cache entries of the files the watcher's updates read, until a full look writes them. */
  const memoryCache = new Map<string, CacheEntry>();
  /** What the agents' own records said, asked again only once their files change. */
  const agentRecords: AgentRecordsMemory = new Map();
  let watch: StoreWatch | undefined;
  let watched: readonly StoreRef[] = [];
  let stateWatch: StateWatch | undefined;
  let stepTimer: NodeJS.Timeout | undefined;
  let stepAt = Infinity;
  let quietTimer: NodeJS.Timeout | undefined;
  let rescanTimer: NodeJS.Timeout | undefined;
  /** Not watching (or no longer): while a page follows the look, a rescan every `freshMs`. */
  let rescanning = options.watch === undefined;

  const watching = () => watch?.status.mode === "watching";
  const current = (running: Running | undefined) => running?.generation === state.generation;

  /** A request: merged into the next look, which is taken when the plan says. */
  function request(asked: LookRequest, demanded = false) {
    if (asked.awaited) {
      // A look under way is of the last generation now and will not be set: what it was to do is
      // still owed — a walk stays a walk.
      if (current(state.running)) state.pending = merge(state.pending, state.running!.next);
      state.generation += 1;
    }
    state.pending = merge(state.pending, asked);
    step(demanded);
  }

  /** Plans the next look with what is known now, and carries the plan out. */
  function step(demanded = false) {
    if (state.closed) return;
    const seen = watch?.take();
    if (seen && seen.size > 0) state.pending = merge(state.pending, { paths: seen });
    const now = Date.now();
    const next = plan({
      pending: state.pending,
      running: current(state.running),
      demanded,
      seenAt: state.seenAt ?? now,
      pacing: state.pacing,
      now,
    });
    if (next && "start" in next) start(next.start);
    else if (next) stepLater(next.at);
  }

  /** Plans again at `at` (or earlier, if asked to). */
  function stepLater(at: number) {
    if (at >= stepAt) return;
    clearTimeout(stepTimer);
    stepAt = at;
    stepTimer = setTimeout(
      () => {
        stepTimer = undefined;
        stepAt = Infinity;
        step();
      },
      Math.max(0, at - Date.now()),
    );
  }

  /**
   * What of the last look's gathering beside the stores this look may keep: nothing when it walks
   * (a walk is also the reconciliation of these) or their files are not watched; else all but
   * what `next` asks to read again, with the live sessions when they are older than LIVE_MS.
   */
  function keptFor(next: NextLook, walks: boolean, now: number): Partial<BesideStores> {
    const last = state.look?.inputs.beside;
    if (!last || walks || !stateWatch?.watching) return {};
    const reread = new Set<Beside>(next.reread);
    // Other stores (a config may name them) have other live sessions.
    if (reread.has("config") || now - state.liveAt >= LIVE_MS) reread.add("live");
    const kept: Partial<BesideStores> = {};
    for (const part of BESIDE)
      if (!reread.has(part)) {
        if (part === "config") kept.config = last.config;
        if (part === "pins") kept.pins = last.pins;
        if (part === "ledgers") kept.inTrash = last.inTrash;
        if (part === "live") kept.live = last.live;
      }
    return kept;
  }

  /** Takes the look `next` asks for; reads of this generation share it. */
  function start(next: NextLook) {
    state.pending = NO_LOOK;
    state.seenAt = undefined;
    const mine = state.generation;
    const from = state.look;
    const walks = next.walk || !from || !watching();
    const update = !walks && !next.awaited && next.reread.size === 0;
    const startedAt = Date.now();
    if (update) state.pacing = { ...state.pacing, lastStarted: startedAt };
    const kept = keptFor(next, walks, startedAt);
    const inputs = options.gather({
      ...(update
        ? { growth: "read-only" }
        : {
            onProgress: (p) => {
              state.progress = p;
            },
          }),
      // Unchanged files keep the last look's records and need no cache entry: a rescan neither
      // rebuilds the records nor loads the whole cache. Entries of files the watcher's updates read
      // go to the cache file now.
      ...(from ? { previous: from.inputs.report } : {}),
      // The watcher keeps the last look's stores current: only what it saw changed is scanned.
      ...(walks ? {} : { changed: next.paths }),
      memoryCache,
      agentRecords,
      kept,
    });
    const running: Running = { generation: mine, next, inputs, walks, update };
    state.running = running;
    void inputs.then(
      (gathered) => {
        if (state.running === running) state.running = undefined;
        if (mine === state.generation) {
          if (!kept.live) state.liveAt = startedAt;
          setLook(gathered, mine);
        }
        if (update) {
          state.pacing = spend(state.pacing, Date.now(), Date.now() - startedAt);
          collectWhenQuiet();
        }
        // What the scan left behind (the first one ~200 MB) and the last look, its records and
        // table, are garbage now: collect them before the next scan piles more on top.
        else if (mine === state.generation) collectGarbage();
        step();
      },
      (error: unknown) => {
        if (state.running === running) state.running = undefined;
        if (mine !== state.generation) return step(); // owed already (see `request`)
        if (update) {
          // The next read takes a full look, which says what is wrong (pins unreadable, say).
          options.log?.(`note: could not follow a change of the stores: ${(error as Error).message}`);
          request({ walk: true, awaited: true }, options.followers() > 0);
        } else if (next.awaited || next.reread.size > 0) {
          // The reads waiting for it hear the error, and so does the next read, which tries again
          // (nothing is tried again before a read: an error that stays must not loop).
          request({ ...next, awaited: true });
        } else {
          // A rescan, the reconciliation: the look stays as it was; the paths its walk took in are
          // owed to the next look.
          state.pending = merge(state.pending, { paths: next.paths });
          step();
        }
      },
    );
    return inputs;
  }

  /** A new look: reads see it from now on, and the pages hear what changed. */
  function setLook(inputs: PlanInputs, mine: number) {
    const before = state.look;
    const after: Look = { at: Date.now(), generation: mine, version: ++state.version, inputs };
    state.look = after;
    versionOf.set(inputs, after.version);
    if (options.followers() > 0 && before)
      setImmediate(() => {
        const started = Date.now();
        options.onLook(before, after);
        state.pacing = spend(state.pacing, Date.now(), Date.now() - started);
      });
    if (options.watch) follow(inputs.report.stores);
  }

  // ——— The watches, the reconciliation, the rescans without a watch ———
  const reconcileTimer = options.watch
    ? setInterval(() => void reconcile(), options.reconcileMs ?? RECONCILE_MS).unref()
    : undefined;

  /** Watches `refs` (the stores as the look has them: real paths), unless they are watched already. */
  function follow(refs: readonly StoreRef[]) {
    const same =
      refs.length === watched.length &&
      refs.every((r, i) => r.kind === watched[i]!.kind && r.root === watched[i]!.root);
    if (state.closed || !options.watch || (watch && same)) return;
    watch?.close();
    watched = refs;
    watch = watchStores(
      refs,
      options.watch.metaDir,
      // Taken from the watch when the batch is due: not a merge per event, hundreds a second.
      () => {
        state.seenAt ??= Date.now();
        stepLater(state.seenAt + BATCH_MS);
      },
      (status) => {
        options.log?.(`note: ${status.message}`);
        rescanning = true;
        keepFollowed();
        // Told once this call is done: a watch may fail as it starts, while the caller is still making us.
        queueMicrotask(options.onWatch);
      },
    );
  }

  if (options.watch) {
    // The config, pins, ledgers and markers: a change of them is read again by a look of its own.
    const paths = statePaths(options.watch.config?.env);
    stateWatch = watchState(
      {
        config: options.watch.config?.file ?? paths.configFile,
        stateDir: paths.dir,
        pins: paths.protectedList,
        ledgers: paths.trashLedgers,
        markers: paths.activeMarkers,
      },
      (part) => {
        state.seenAt ??= Date.now();
        request({ reread: [part] });
      },
      // Not known to be unchanged any more: every look reads them again (see `keptFor`).
      () => options.log?.("note: the config and state files cannot be watched: every look reads them"),
    );
  }

  /** Starts or stops the rescans of a look nobody watches, as pages come and go. */
  function keepFollowed() {
    if (rescanning && options.followers() > 0 && !state.closed)
      rescanTimer ??= setInterval(
        () => {
          if (!state.running) request({ walk: true });
        },
        Math.max(freshMs, 1000),
      ).unref();
    else {
      clearInterval(rescanTimer);
      rescanTimer = undefined;
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
      if (!state.running) collectGarbage();
    }, QUIET_MS).unref();
  }

  /**
   * A full rescan of a watched look, which must find nothing the watcher missed: what differs where
   * no change was reported (nor is waiting to be applied) is counted and said.
   */
  async function reconcile() {
    const { look } = state;
    if (!look || state.running || !watching()) return;
    // The same generation: reads go on being answered from the watched look meanwhile.
    const before = look.inputs.report;
    // What was seen but not applied yet: the walk takes it in.
    const seen = new Set([...state.pending.paths, ...(watch?.peek() ?? [])]);
    request({ walk: true }, true);
    const walk = state.running as Running | undefined;
    const after = (await walk?.inputs.catch(() => undefined))?.report;
    if (!after || !watch) return;
    // And what was seen while it walked: waiting, or in the update that followed it at once.
    for (const path of [
      ...state.pending.paths,
      ...watch.peek(),
      ...((state.running as Running | undefined)?.next.paths ?? []),
    ])
      seen.add(path);
    const missed = differingPaths(before, after).filter(
      (path) => ![...seen].some((c) => path === c || path.startsWith(`${c}/`)),
    );
    state.reconciled = {
      at: new Date().toISOString(),
      missed: missed.length,
      missedTotal: (state.reconciled?.missedTotal ?? 0) + missed.length,
    };
    if (missed.length > 0)
      options.log?.(
        `note: a full rescan found ${missed.length} change(s) the watcher missed: ${missed.slice(0, 3).join(", ")}${missed.length > 3 ? ", …" : ""}`,
      );
    options.onWatch();
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

  /** The look of this generation: the one under way, or one taken now. */
  function lookOfThisGeneration(): Promise<PlanInputs> {
    if (current(state.running)) return state.running!.inputs;
    // Nothing owed can only be a look that failed and was not asked again: this read asks.
    if (isNothing(state.pending)) state.pending = merge(state.pending, { walk: true, awaited: true });
    step(true);
    if (!current(state.running)) start(merge(state.pending, { awaited: true })); // closed: still answered
    return state.running!.inputs;
  }

  return {
    /** The look reads share: the current one, or the one being taken when there is none of this generation. */
    gather(): Promise<PlanInputs> {
      const { look } = state;
      if (!look || look.generation !== state.generation) return lookOfThisGeneration();
      // A watched look is kept current by the watcher; otherwise a stale one is retaken behind it
      // (its error shows on the next read).
      if (!watching() && Date.now() - look.at > freshMs) request({ walk: true });
      return Promise.resolve(look.inputs);
    },
    /** What the stores hold has changed (or may have): the next read waits for a new look, which walks them. */
    changed() {
      // A page that follows the look hears of the new one without asking.
      request({ walk: true, awaited: true }, options.followers() > 0);
    },
    /**
     * Only what a look gathers beside the stores changed (a pin, the policy): the next read waits
     * for a new look, which — while the watcher keeps the stores current — walks none of them (at
     * 100,000 sessions ~0.2 s, where a warm rescan is ~0.85 s), unless a walk is under way or owed.
     * Stores the policy now names otherwise are scanned whole.
     */
    changedBesideStores(what: readonly Beside[] = ["config", "pins"]) {
      request({ reread: what, awaited: true }, options.followers() > 0);
    },
    /** Whether the config, pins and ledgers are watched: a look's reading of them is current. */
    stateWatched: () => stateWatch?.watching === true,
    /** The last look, if any (a delete's scan starts from its records). */
    current: () => state.look,
    versionOf: (inputs: PlanInputs) => versionOf.get(inputs),

    /** A full look asked for; false when one is under way already (follow that one). */
    startScan(): { started: boolean } {
      if (state.running?.walks) return { started: false };
      state.progress = { phase: "walking", filesDone: 0, filesTotal: 0, bytesDone: 0, bytesTotal: 0 };
      // A watched look is current: reads go on from it while the rescan runs. Otherwise they wait
      // for it — and so they do when a look that does not walk (a pin's) is under way: this replaces it.
      const replaces = current(state.running) && state.running!.next.awaited;
      request({ walk: true, awaited: replaces || !watching() }, true);
      return { started: true };
    },
    scanProgress: () => ({
      running: state.running !== undefined,
      ...(state.progress ? { progress: state.progress } : {}),
    }),

    watchStatus: (): WatchStatus => ({
      ...(watch?.status ??
        (options.watch
          ? { mode: "off" as const }
          : {
              mode: "rescanning" as const,
              message:
                "Watching the stores is turned off: the dashboard rescans them every few seconds while it is open.",
            })),
      ...(state.reconciled ? { reconciled: state.reconciled } : {}),
    }),
    /** A page came or went. */
    followersChanged: keepFollowed,

    close() {
      state.closed = true;
      watch?.close();
      stateWatch?.close();
      clearTimeout(stepTimer);
      clearTimeout(quietTimer);
      clearInterval(reconcileTimer);
      clearInterval(rescanTimer);
    },
  };
}

export type Looks = ReturnType<typeof createLooks>;
