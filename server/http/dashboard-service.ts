// What the dashboard's routes do, as plain functions over the stores the server was started with.
// The routes only parse, validate and answer; this module calls the same state, policy and deletion
// modules as the CLI and the extension, so the three can never disagree.
import { realpathSync } from "node:fs";
import { homedir } from "node:os";
import type {
  DataSource,
  AuditPage,
  AuditQuery,
  DeleteRequest,
  GrowthResponse,
  KeepRequest,
  LookEvent,
  WatchStatus,
  KeepResponse,
  OperationStatus,
  PolicyResponse,
  PolicyStatus,
  PlanSelectionRequest,
  ProtectRequest,
  ProtectResponse,
  SessionDetailResponse,
  SessionsQuery,
  SessionsResponse,
  SummaryResponse,
} from "../../shared/api.js";
import type { Config, ConfigProblem } from "../../shared/config.js";
import type { Plan } from "../../shared/plan.js";
import type { AgentUsage, ScanProgress } from "../../shared/scan-report.js";
import { evaluatePolicy } from "../../shared/policy.js";
import { storeFindings, summarizeAgents } from "../../shared/scan-summary.js";
import { agentQuotaStates, quotaState } from "../../shared/quota.js";
import {
  cleanupTriggers,
  type SoftDeleteResult,
  type TrashActionResult,
  type TrashList,
} from "../../shared/trash.js";
import {
  type DeleteControl,
  emptySelection,
  listTrash,
  purge,
  restore,
  softDelete,
} from "../delete/deletion-engine.js";
import {
  exemptionsOf,
  externalSweeps,
  gatherPlanInputs,
  type PlanInputs,
  planFor,
} from "../plan/plan-inputs.js";
import { keepFromClaudeSweep } from "../keep/claude-keep.js";
import { idsMatchingFilter } from "../plan/selection.js";
import { SessionFilterSchema } from "../../shared/session-filter.js";
import type { AdapterStore } from "../scan/resolve-roots.js";
import { readAudit } from "../state/audit-log.js";
import {
  checkConfig,
  type ConfigStatus,
  type LoadConfigOptions,
  loadConfig,
  saveConfig,
} from "../config/config-file.js";
import { readRawConfig } from "../config/configured-root.js";
import { pinnedIds, readPins, setProtection } from "../state/protection-list.js";
import { forecast, growthByNamespace, growthSeries } from "../../shared/growth.js";
import { sessionTitle } from "../../shared/session-title.js";
import { collectMetrics } from "../report/metrics.js";
import { growthFile, readGrowth } from "../state/growth-store.js";
import { statePaths } from "../state/state-dir.js";
import { readSessionDetail } from "../stores/pi/session-detail.js";
import { ReadOnlyError, UnknownIdsError } from "./api-errors.js";
import { collectGarbage } from "./heap.js";
import { createOperations } from "./operations.js";
import { createPreviews, type Preview } from "./previews.js";
import {
  buildSessionsTable,
  changedRows,
  type RowEncoder,
  rowEncoder,
  type SessionsTable,
} from "./sessions-table.js";
import { type StoreWatch, watchStores } from "./store-watch.js";
import { differingPaths } from "../scan/report-diff.js";
import type { CacheEntry } from "../scan/scan-cache.js";
import type { StoreRef } from "../../shared/session-record.js";

/** How long a look at the stores answers reads without a new one being taken (when not watching). */
const FRESH_MS = 5000;
/** How often a watched look is checked against a full rescan, which must find nothing the watcher missed. */
const RECONCILE_MS = 10 * 60_000;
/** A watched change is applied this long after it is seen, so that the changes of one write go together. */
const BATCH_MS = 100;
/** How long the stores must be quiet after watched updates before the server tidies its heap. */
const QUIET_MS = 2000;
/** At most this many updates a second. */
const MIN_UPDATE_INTERVAL_MS = 250;
/**
 * The share of the time watched updates may use, on average (at 100,000 sessions an update and the
 * page's change of it cost ~0.3 s here): a change after a quiet spell is applied at once, a
 * stream of them no more often than this allows.
 */
const UPDATE_SHARE = 0.5;
/** How much unused time a quiet spell saves up for the updates that follow it. */
const UPDATE_BURST_MS = 2000;

export interface DashboardStores {
  roots: readonly string[];
  adapterStores: readonly AdapterStore[];
  source: DataSource;
  config: LoadConfigOptions;
  /** How long a look at the stores answers reads before a new one is taken. Default 5 s. */
  freshMs?: number;
  /**
   * Watch the stores and follow each change without a full rescan (`serve` does, unless
   * `--no-watch`). Otherwise each look is a rescan, taken when the last one is older than
   * `freshMs` — and, while a page follows the events, every `freshMs`. Default false.
   */
  watch?: boolean;
  /** How often a watched look is checked against a full rescan. Default 10 minutes. */
  reconcileMs?: number;
  /** Where the server says what happens on its own (a reconciliation that found a change the watcher missed). */
  log?: (line: string) => void;
}

/** What the event stream sends: the look moved on, or the watch changed. */
export type DashboardEvent = { event: "look"; data: string } | { event: "watch"; data: string };

/** Everything the routes can ask for; a test may provide only part of it (the rest answers 404). */
export interface DashboardApi {
  getSummary: () => Promise<SummaryResponse>;
  protect?: (request: ProtectRequest) => Promise<ProtectResponse>;
  /** Keeps Claude Code sessions from Claude's own cleanup: their transcript's time becomes now. */
  keep?: (request: KeepRequest) => Promise<KeepResponse>;
  sessions?: (query: SessionsQuery) => Promise<SessionsResponse>;
  /** The same answer as JSON bytes, serialized once per look (what the route sends). */
  sessionsJson?: (query: SessionsQuery) => Promise<ReturnType<SessionsTable["json"]>>;
  /** The policy's plan; with `preview`, kept so that `deleteSessions({ previewId })` executes exactly it. */
  plan?: (options?: { preview?: boolean }) => Promise<Plan>;
  /**
   * A hand selection (ids) or every session matching a filter, as a plan: what would go (rule
   * `selected`), what is kept and why; kept as a preview the delete can execute.
   */
  planSelection?: (selection: PlanSelectionRequest) => Promise<Plan>;
  /** The plan a proposed config would make, without saving it. */
  previewPlan?: (
    config: unknown,
  ) => Promise<{ ok: true; plan: Plan } | { ok: false; problems: ConfigProblem[] }>;
  getPolicy?: () => Promise<PolicyResponse>;
  savePolicy?: (
    config: unknown,
  ) => Promise<{ ok: true; policy: PolicyResponse } | { ok: false; problems: ConfigProblem[] }>;
  deleteSessions?: (request: DeleteRequest) => Promise<SoftDeleteResult>;
  /** Starts the delete as the current operation (409 while one runs); its status follows. */
  startDelete?: (request: DeleteRequest) => OperationStatus;
  /** The running operation's progress, or the last one's result until dismissed. */
  operation?: () => OperationStatus;
  /** Stop the running operation `id` after its current item. */
  stopOperation?: (id: string) => OperationStatus;
  /** Forget the finished operation `id`. */
  dismissOperation?: (id: string) => OperationStatus;
  trash?: () => Promise<TrashList>;
  restore?: (refs: string[]) => Promise<TrashActionResult>;
  purge?: (refs: string[], confirm: string) => Promise<TrashActionResult>;
  /** Purge what was deleted more than `olderThanDays` ago, if `confirm` is its "COUNT:BYTES". */
  emptyTrash?: (olderThanDays: number, confirm: string) => Promise<TrashActionResult>;
  /** Newest first; `total` counts the entries that match the filter. */
  audit?: (query: AuditQuery) => Promise<AuditPage>;
  /** Prometheus text. */
  metrics?: () => Promise<string>;
  /** `byNamespace`: add the daily points split by namespace (top 8 and "other"). */
  growth?: (days: number, namespace?: string, byNamespace?: boolean) => Promise<GrowthResponse>;
  sessionDetail?: (id: string) => Promise<SessionDetailResponse>;
  /** Starts a scan unless one runs (false then); `scanProgress` follows it. */
  startScan?: () => { started: boolean };
  scanProgress?: () => { running: boolean; progress?: ScanProgress };
  /**
   * Follow the look: `listener` gets a `watch` event at once, then a `look` event (a `LookEvent`,
   * serialized once for every listener) each time the look changes. Returns the unsubscribe.
   */
  subscribe?: (listener: (event: DashboardEvent) => void) => () => void;
  /** Stop watching the stores and every timer. */
  close?: () => void;
}

/** Quota and mode for the dashboard; an invalid config means read-only and no quota to show. */
export function policyStatus(
  config: ConfigStatus,
  totals: { totalBytes: number; sessionCount: number },
  agents: readonly AgentUsage[] = [],
): PolicyStatus {
  if (!config.ok)
    return { configPath: config.path, source: "invalid", problems: config.problems, readOnly: true };
  return {
    configPath: config.path,
    source: config.source,
    problems: [],
    mode: config.config.mode,
    quota: quotaState(totals.totalBytes, totals.sessionCount, config.config.quota),
    ...(Object.keys(config.config.quota.agents).length > 0
      ? { agentQuotas: agentQuotaStates(agents, config.config.quota) }
      : {}),
    readOnly: false,
  };
}

/** The config file as the policy editor needs it: its own JSON, and the effective config when valid. */
export function policyResponse(options: LoadConfigOptions): PolicyResponse {
  const status = loadConfig(options);
  const raw = readRawConfig(status.path, options.file !== undefined);
  return {
    path: status.path,
    source: status.ok ? status.source : "invalid",
    ...(raw.kind === "parsed" ? { raw: raw.raw } : {}),
    ...(status.ok ? { config: status.config } : {}),
    problems: status.ok ? [] : status.problems,
    home: (options.env ?? process.env).HOME || homedir(),
  };
}

export function createDashboardService(stores: DashboardStores): Required<DashboardApi> {
  const paths = statePaths();
  const flagStores = stores.adapterStores;
  /**
   * Every read — summary, table, plan, detail — shares one look at the stores (a 100,000-session
   * table must answer in well under a second, and one scan at a time keeps memory down). A look
   * older than `freshMs` is still answered at once while a new one is taken in the background
   * (a warm rescan of 100,000 sessions takes seconds). After every change, and on `POST /api/scan`,
   * the generation moves on and reads wait for a look of the new one. Deletions never rely on a
   * look: the engine looks again, under its lock, just before it moves anything.
   */
  const freshMs = stores.freshMs ?? FRESH_MS;
  const previews = createPreviews();
  const operations = createOperations();

  /** What a delete request executes: the preview it names (taken once), or the ids it lists. */
  const chosenBy = (request: DeleteRequest): Preview =>
    "previewId" in request
      ? previews.take(request.previewId, { only: request.ids, except: request.except })
      : { items: request.items, via: "selection" };

  /**
   * The engine decides on its own fresh facts, under its lock: the config file as it is now and
   * one new scan (which reuses the last look's records of unchanged files, so a delete in a
   * large store does not pay for a second full scan).
   */
  async function runDelete(chosen: Preview, dryRun: boolean, control?: DeleteControl) {
    try {
      return await softDelete(
        {
          ...chosen,
          roots: stores.roots,
          adapterStores: stores.adapterStores,
          dryRun,
          ...(look ? { previous: look.inputs.report } : {}),
        },
        { actor: "ui", config: stores.config },
        control,
      );
    } finally {
      changed(); // what the table shows has moved
    }
  }
  let generation = 0;
  /** Each look's number, which the page follows (`LookEvent`): one more for every new look. */
  let version = 0;
  let look: { at: number; generation: number; version: number; inputs: PlanInputs } | undefined;
  let scan: { generation: number; inputs: Promise<PlanInputs> } | undefined;
  let progress: ScanProgress | undefined;
  let closed = false;
  const listeners = new Set<(event: DashboardEvent) => void>();
  const versionOf = new WeakMap<PlanInputs, number>();

  /** A new look: reads see it from now on, and the page hears what changed. */
  const setLook = (inputs: PlanInputs, mine: number) => {
    const before = look;
    look = { at: Date.now(), generation: mine, version: ++version, inputs };
    versionOf.set(inputs, look.version);
    // Reads see the new look at once; the page's change (which needs the plan: its verdicts) follows.
    const after = look;
    if (listeners.size > 0 && before) setImmediate(() => publish(before, after));
    if (watch) {
      follow(inputs.report.stores);
      if (watch.pending) scheduleLive();
    }
  };

  const takeLook = () => {
    if (scan?.generation === generation) return scan.inputs;
    const mine = generation;
    const inputs = gatherPlanInputs({
      config: stores.config,
      flagRoots: stores.roots,
      flagStores,
      onProgress: (p) => {
        progress = p;
      },
      // Unchanged files keep the last look's records and need no cache entry: a rescan neither
      // rebuilds the records nor loads the whole cache. Entries of files the watcher's updates read
      // go to the cache file now.
      ...(look ? { previous: look.inputs.report } : {}),
      memoryCache,
    });
    scan = { generation: mine, inputs };
    void inputs.then(
      (gathered) => {
        if (scan?.inputs === inputs) scan = undefined;
        if (mine === generation) {
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
  const gather = (): Promise<PlanInputs> => {
    if (!look || look.generation !== generation) return takeLook();
    // A watched look is kept current by the watcher; otherwise a stale one is retaken behind it.
    if (watch?.status.mode !== "watching" && Date.now() - look.at > freshMs) takeLook().catch(() => {}); // its error shows on the next read
    return Promise.resolve(look.inputs);
  };
  /** What the stores hold has changed (or may have): the next read waits for a new look. */
  const changed = () => {
    generation += 1;
    // A page that follows the look hears of the new one without asking.
    if (listeners.size > 0) takeLook().catch(() => {});
  };

  // ——— Following the stores: the watch, its updates, and the reconciliation ———
  /** Cache entries of the files the watcher's updates read, until a full look writes them. */
  const memoryCache = new Map<string, CacheEntry>();
  let watch: StoreWatch | undefined;
  let watched: readonly StoreRef[] = [];
  let liveTimer: NodeJS.Timeout | undefined;
  let liveRunning = false;
  let lastUpdateStarted = 0;
  /** Time the updates may still use (see UPDATE_SHARE), as of `budgetAt`; below 0, they wait. */
  let budgetMs = UPDATE_BURST_MS;
  let budgetAt = Date.now();
  /** Brings the budget up to now; `spent` (ms of updating) comes off it. */
  const budget = (spent = 0) => {
    const now = Date.now();
    budgetMs = Math.min(UPDATE_BURST_MS, budgetMs + (now - budgetAt) * UPDATE_SHARE) - spent;
    budgetAt = now;
    return budgetMs;
  };
  let reconciled: WatchStatus["reconciled"];
  let fallbackTimer: NodeJS.Timeout | undefined;
  const reconcileTimer = stores.watch
    ? setInterval(() => void reconcile(), stores.reconcileMs ?? RECONCILE_MS).unref()
    : undefined;

  const watchStatus = (): WatchStatus => ({
    ...(watch?.status ??
      (stores.watch
        ? { mode: "off" }
        : {
            mode: "rescanning",
            message:
              "Watching the stores is turned off: the dashboard rescans them every few seconds while it is open.",
          })),
    ...(reconciled ? { reconciled } : {}),
  });
  const tell = (event: DashboardEvent) => {
    for (const listener of listeners) listener(event);
  };

  /** Watches `refs` (the stores as the look has them: real paths), unless they are watched already. */
  const follow = (refs: readonly StoreRef[]) => {
    const same =
      refs.length === watched.length &&
      refs.every((r, i) => r.kind === watched[i]!.kind && r.root === watched[i]!.root);
    if (closed || (watch && same)) return;
    watch?.close();
    watched = refs;
    watch = watchStores(refs, paths.sessionsMeta, scheduleLive, (status) => {
      stores.log?.(`note: ${status.message}`);
      tell({ event: "watch", data: JSON.stringify(watchStatus()) });
      rescanWhileFollowed();
    });
    tell({ event: "watch", data: JSON.stringify(watchStatus()) });
  };
  /** Not watching: while a page follows the look, it is kept current by a rescan every `freshMs` (1 s at least). */
  let rescanning = !stores.watch;
  function rescanWhileFollowed() {
    rescanning = true;
    keepFollowed();
  }
  /** Starts or stops the rescans as pages come and go. */
  function keepFollowed() {
    if (rescanning && listeners.size > 0 && !closed)
      fallbackTimer ??= setInterval(
        () => {
          if (!scan) takeLook().catch(() => {});
        },
        Math.max(freshMs, 1000),
      ).unref();
    else {
      clearInterval(fallbackTimer);
      fallbackTimer = undefined;
    }
  }
  if (stores.watch) {
    const real = (root: string) => {
      try {
        return realpathSync(root);
      } catch {
        return root;
      }
    };
    follow([
      ...stores.roots.map((root): StoreRef => ({ kind: "pi", root: real(root) })),
      ...flagStores.map((s): StoreRef => ({ kind: s.kind, root: real(s.root) })),
    ]);
  }

  /** A change was seen: apply it soon, together with what comes with it, a few times a second at most. */
  function scheduleLive() {
    if (liveTimer || liveRunning || closed) return;
    const owed = Math.max(0, -budget()) / UPDATE_SHARE;
    const due = Math.max(lastUpdateStarted + MIN_UPDATE_INTERVAL_MS, Date.now() + owed);
    liveTimer = setTimeout(() => void applyChanges(), Math.max(BATCH_MS, due - Date.now()));
  }

  /** One watcher's update: a scan of only what changed, and everything else gathered again (pins, live sessions). */
  async function applyChanges() {
    liveTimer = undefined;
    // A full look under way sees these changes too, and is followed by this update (setLook).
    const from = look;
    if (!from || !watch || scan || from.generation !== generation) return;
    const seen = watch.take();
    if (seen.size === 0) return;
    liveRunning = true;
    const started = (lastUpdateStarted = Date.now());
    try {
      const inputs = await gatherPlanInputs({
        config: stores.config,
        flagRoots: stores.roots,
        flagStores,
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
      stores.log?.(`note: could not follow a change of the stores: ${(error as Error).message}`);
    } finally {
      liveRunning = false;
      budget(Date.now() - started);
      if (watch.pending) scheduleLive();
      collectWhenQuiet();
    }
  }

  /**
   * Once the stores are quiet for a while after updates, one full collection: what the updates left
   * (a few MB each at 100,000 sessions) goes, and the heap is back near one look — rather than a
   * collection per update, which would cost more than the update (45–110 ms).
   */
  let quietTimer: NodeJS.Timeout | undefined;
  function collectWhenQuiet() {
    clearTimeout(quietTimer);
    quietTimer = setTimeout(() => {
      if (!liveRunning && !scan) collectGarbage();
    }, QUIET_MS).unref();
  }

  /**
   * A full rescan of a watched look, which must find nothing the watcher missed: what differs where
   * no change was reported (nor is waiting to be applied) is counted and said.
   */
  async function reconcile() {
    if (!look || scan || liveRunning || watch?.status.mode !== "watching") return;
    // The same generation: reads go on being answered from the watched look meanwhile.
    const before = look.inputs.report;
    const after = (await takeLook().catch(() => undefined))?.report;
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
      stores.log?.(
        `note: a full rescan found ${missed.length} change(s) the watcher missed: ${missed.slice(0, 3).join(", ")}${missed.length > 3 ? ", …" : ""}`,
      );
    tell({ event: "watch", data: JSON.stringify(watchStatus()) });
  }

  /** The look event for the page: what changed from `before` to `after`, with the new summary. */
  function publish(before: NonNullable<typeof look>, after: NonNullable<typeof look>) {
    const started = Date.now();
    const rows = encoderOf(after.inputs);
    const change = changedRows(
      { inputs: before.inputs, rows: encoderOf(before.inputs) },
      { inputs: after.inputs, rows },
    );
    const event: LookEvent = {
      version: after.version,
      from: before.version,
      summary: summaryOf(after.inputs),
      sessions: {
        total: after.inputs.report.sessions.length,
        roots: rows.roots,
        namespaces: rows.namespaces,
        ...rows.labels,
        ...change,
      },
    };
    tell({ event: "look", data: JSON.stringify(event) });
    budget(Date.now() - started);
  }

  const validConfig = (inputs: PlanInputs): Config => {
    if (!inputs.config.ok) throw new ReadOnlyError(inputs.config);
    return inputs.config.config;
  };

  /** How one look's records become rows (the plan's verdicts): once per look, for its table and its changes. */
  const encoders = new WeakMap<PlanInputs, RowEncoder>();
  const encoderOf = (inputs: PlanInputs) => {
    let encoder = encoders.get(inputs);
    if (!encoder) encoders.set(inputs, (encoder = rowEncoder(inputs)));
    return encoder;
  };
  /** The sessions table of one look, built on its first request and dropped with the look. */
  const tables = new WeakMap<PlanInputs, SessionsTable>();
  const tableOf = (inputs: PlanInputs) => {
    let table = tables.get(inputs);
    if (!table)
      tables.set(
        inputs,
        (table = buildSessionsTable(inputs, new Date(), encoderOf(inputs), versionOf.get(inputs))),
      );
    return table;
  };

  /**
   * What agents' own cleanup deletes next, and how much of it you pinned or protected: once per
   * look, and only where some agent will delete something (the exemptions cost ~150 ms at 100,000).
   */
  const sweepsByLook = new WeakMap<PlanInputs, ReturnType<typeof externalSweeps>>();
  const sweepsOf = (inputs: PlanInputs) => {
    let found = sweepsByLook.get(inputs);
    if (found) return found;
    const keptByUs = new Set<string>();
    if (inputs.config.ok && inputs.sweeps.length > 0)
      for (const [id, why] of exemptionsOf(inputs, inputs.config.config))
        if (why.reason === "pinned" || why.reason === "protected") keptByUs.add(id);
    sweepsByLook.set(inputs, (found = externalSweeps(inputs, keptByUs)));
    return found;
  };

  /** Per-agent usage: once per look (a pass over every session). */
  const agentsByLook = new WeakMap<PlanInputs, AgentUsage[]>();
  const agentsOf = (inputs: PlanInputs) => {
    let found = agentsByLook.get(inputs);
    if (!found)
      agentsByLook.set(inputs, (found = summarizeAgents(inputs.report.stores, inputs.report.sessions)));
    return found;
  };

  const getSummary = async (): Promise<SummaryResponse> => summaryOf(await gather());
  /** What each store holds that is not a session: once per look (a pass over every record and problem). */
  const findingsByLook = new WeakMap<PlanInputs, ReturnType<typeof storeFindings>>();
  const findingsOf = (inputs: PlanInputs) => {
    let found = findingsByLook.get(inputs);
    if (!found) findingsByLook.set(inputs, (found = storeFindings(inputs.report)));
    return found;
  };

  function summaryOf(inputs: PlanInputs): SummaryResponse {
    const { scannedAt, stores: scanned, summary, namespaces, problems } = inputs.report;
    const sweeps = sweepsOf(inputs);
    // Read every time, so an edit to the file shows on the next refresh.
    const config = loadConfig(stores.config);
    const ahead = forecast(
      readGrowth(growthFile(paths.dir, scanned)),
      config.ok ? config.config.quota.maxTotalSizeBytes : null,
      new Date(),
    );
    return {
      source: stores.source,
      policy: policyStatus(config, summary, agentsOf(inputs)),
      scannedAt,
      stores: scanned,
      summary,
      namespaces,
      agents: agentsOf(inputs),
      problems,
      findings: findingsOf(inputs),
      ...(sweeps.length > 0 ? { externalSweeps: sweeps } : {}),
      ...(ahead ? { forecast: ahead } : {}),
      ...(versionOf.has(inputs) ? { version: versionOf.get(inputs)! } : {}),
    };
  }

  return {
    getSummary,

    /** All or nothing: one id that names no session (and, to unpin, no pin) changes nothing. */
    async protect({ ids, protect: on }) {
      const byId = new Map((await gather()).report.sessions.map((s) => [s.id, s]));
      const pins = new Map(readPins(paths.protectedList).map((pin) => [pin.id, pin]));
      const targets = [];
      const unknown = [];
      for (const id of new Set(ids)) {
        const found = byId.get(id) ?? (on ? undefined : pins.get(id));
        if (found) targets.push({ id, path: found.path });
        else unknown.push(id);
      }
      if (unknown.length > 0) throw new UnknownIdsError(unknown);
      const result = setProtection(targets, on, "ui", paths);
      changed();
      return { changed: result.changed.map((t) => t.id), unchanged: result.unchanged.map((t) => t.id) };
    },

    /** All or nothing: every id must name a Claude Code session of the look. */
    async keep({ ids }) {
      const byId = new Map((await gather()).report.sessions.map((s) => [s.id, s]));
      const unknown = ids.filter((id) => !byId.has(id));
      if (unknown.length > 0) throw new UnknownIdsError(unknown);
      const kept = keepFromClaudeSweep(
        ids.map((id) => byId.get(id)!),
        "ui",
      );
      changed();
      return { kept };
    },

    async sessions(query) {
      return tableOf(await gather()).query(query);
    },

    async sessionsJson(query) {
      return tableOf(await gather()).json(query);
    },

    async sessionDetail(id) {
      const inputs = await gather();
      const all = inputs.report.sessions;
      const session = all.find((s) => s.id === id);
      if (!session) throw new UnknownIdsError([id]);
      const kept = inputs.config.ok ? exemptionsOf(inputs, inputs.config.config).get(id) : undefined;
      const verdict = tableOf(inputs).verdict(id);
      const byPath = new Map(all.map((s) => [s.path, s]));
      const byId = new Map(all.map((s) => [s.id, s]));
      const parent = session.parentSession ? byPath.get(session.parentSession) : undefined;
      let detail;
      try {
        detail = session.store.kind === "pi" ? readSessionDetail(session.path) : undefined;
      } catch {
        detail = undefined; // gone or unreadable since the scan: the record says what is known
      }
      const members = session.family ? all.filter((s) => s.family === session.family) : [];
      // What a selection of the whole family may take: judged as that very selection would be.
      const familyKept =
        members.length > 0 && inputs.config.ok
          ? exemptionsOf(inputs, inputs.config.config, new Date(), new Set(members.map((m) => m.id)))
          : undefined;
      return {
        session,
        ...(kept ? { kept } : {}),
        ...(verdict ? { verdict } : {}),
        ...(detail ? { detail } : {}),
        ...(members.length > 0
          ? {
              family: {
                id: session.family!,
                sessions: members.map((m) => ({ id: m.id, path: m.path, sizeBytes: m.sizeBytes })),
                selectable: members.filter((m) => familyKept && !familyKept.has(m.id)).map((m) => m.id),
              },
            }
          : {}),
        lineage: {
          ...(parent
            ? { parent: { id: parent.id, path: parent.path, title: sessionTitle(parent).title } }
            : {}),
          forks: (session.forks ?? []).flatMap((forkId) => {
            const fork = byId.get(forkId);
            return fork ? [{ id: fork.id, path: fork.path, title: sessionTitle(fork).title }] : [];
          }),
        },
      };
    },

    async plan(options = {}) {
      const inputs = await gather();
      validConfig(inputs);
      const plan = planFor({ ...inputs, config: inputs.config as Extract<ConfigStatus, { ok: true }> });
      return options.preview ? previews.remember(plan, "policy") : plan;
    },

    async planSelection(selection) {
      const inputs = await gather();
      const config = validConfig(inputs);
      const now = new Date();
      const ids =
        "ids" in selection
          ? new Set(selection.ids)
          : idsMatchingFilter(inputs, config, SessionFilterSchema.parse(selection.filter), now);
      const plan = evaluatePolicy({
        sessions: inputs.report.sessions,
        policy: config,
        pinnedIds: pinnedIds(inputs.pins),
        activeIds: inputs.activeIds,
        mode: config.mode,
        selection: ids,
        now,
      });
      // The selected sessions a rule keeps are named too, as the wizard lists them (the plan names
      // only candidates: its kept list holds the whole store, too many to name).
      const records = new Map(inputs.report.sessions.map((s) => [s.id, s]));
      for (const kept of plan.kept) {
        const record = ids.has(kept.id) ? records.get(kept.id) : undefined;
        if (record) kept.title = sessionTitle(record).title;
      }
      return previews.remember(plan, "selection");
    },

    async previewPlan(raw) {
      const inputs = await gather();
      const checked = checkConfig(raw);
      if (!checked.ok) return { ok: false, problems: checked.problems };
      const plan = evaluatePolicy({
        sessions: inputs.report.sessions,
        policy: checked.config,
        pinnedIds: pinnedIds(inputs.pins),
        activeIds: inputs.activeIds,
        mode: checked.config.mode,
        now: new Date(),
      });
      return { ok: true, plan };
    },

    getPolicy: async () => policyResponse(stores.config),

    /** Validated, written atomically, audited; an invalid config is refused and nothing is written. */
    async savePolicy(raw) {
      const saved = saveConfig(loadConfig(stores.config).path, raw, "ui");
      if (!saved.ok) return saved;
      changed();
      return { ok: true, policy: policyResponse(stores.config) };
    },

    /**
     * The engine decides on its own fresh facts, under its lock: the config file as it is now and
     * one new scan (which reuses the last look's records of unchanged files, so a delete in a
     * large store does not pay for a second full scan).
     */
    async deleteSessions(request) {
      return runDelete(chosenBy(request), request.dryRun);
    },

    /** The same delete as an operation: answered at once, followed with `operation()`. */
    startDelete(request) {
      return operations.start((control) => runDelete(chosenBy(request), request.dryRun, control));
    },
    operation: () => operations.status(),
    stopOperation: (id) => operations.stop(id),
    dismissOperation: (id) => operations.dismiss(id),

    async trash() {
      // Each cleanup's trigger comes from the audit log: the ledger records what moved, not who asked.
      return { ...listTrash({ actor: "ui" }), triggers: cleanupTriggers(readAudit(paths.auditLog).entries) };
    },
    async restore(refs) {
      try {
        return await restore(refs, { actor: "ui", config: stores.config });
      } finally {
        changed();
      }
    },
    async purge(refs, confirm) {
      try {
        return await purge(refs, confirm, { actor: "ui", config: stores.config });
      } finally {
        changed();
      }
    },
    async emptyTrash(olderThanDays, confirm) {
      const cutoff = new Date(Date.now() - olderThanDays * 86_400_000);
      const refs = emptySelection(cutoff, { actor: "ui" });
      if (refs.length === 0)
        return {
          done: [],
          skipped: [],
          refused: `nothing in the trash was deleted more than ${olderThanDays} days ago`,
        };
      try {
        // purge() resolves these again under its lock and purges only if `confirm` still matches them.
        return await purge(refs, confirm, { actor: "ui", config: stores.config });
      } finally {
        changed();
      }
    },

    metrics: () => collectMetrics(stores),

    startScan() {
      if (scan) return { started: false };
      // A watched look is current: reads go on from it while the rescan runs. Otherwise they wait for it.
      if (watch?.status.mode !== "watching") changed();
      progress = { phase: "walking", filesDone: 0, filesTotal: 0, bytesDone: 0, bytesTotal: 0 };
      takeLook().catch(() => {});
      return { started: true };
    },
    scanProgress: () => ({
      running: scan !== undefined,
      ...(progress ? { progress } : {}),
    }),

    subscribe(listener) {
      listeners.add(listener);
      listener({ event: "watch", data: JSON.stringify(watchStatus()) });
      keepFollowed();
      return () => {
        listeners.delete(listener);
        keepFollowed();
      };
    },

    close() {
      closed = true;
      watch?.close();
      clearTimeout(liveTimer);
      clearTimeout(quietTimer);
      clearInterval(reconcileTimer);
      clearInterval(fallbackTimer);
      listeners.clear();
    },

    async growth(days, namespace, byNamespace = false) {
      const { stores: scanned } = await getSummary(); // records this hour's point
      const points = readGrowth(growthFile(paths.dir, scanned));
      const config = loadConfig(stores.config);
      const now = new Date();
      const ahead =
        namespace === undefined
          ? forecast(points, config.ok ? config.config.quota.maxTotalSizeBytes : null, now)
          : undefined;
      return {
        days,
        ...(namespace !== undefined ? { namespace } : {}),
        points: growthSeries(points, days, now, namespace),
        ...(ahead ? { forecast: ahead } : {}),
        ...(byNamespace ? { byNamespace: growthByNamespace(points, days, now) } : {}),
      };
    },

    async audit({ offset, limit, action, actor }) {
      const matching = readAudit(paths.auditLog).entries.filter(
        (e) => (action === undefined || e.action === action) && (actor === undefined || e.actor === actor),
      );
      return { total: matching.length, entries: matching.slice(offset, offset + limit) };
    },
  };
}
