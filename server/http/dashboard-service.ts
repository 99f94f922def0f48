// What the dashboard's routes do, as plain functions over the stores the server was started with.
// The routes only parse, validate and answer; this module calls the same state, policy and deletion
// modules as the CLI and the extension, so the three can never disagree.
import { homedir } from "node:os";
import type {
  DataSource,
  AuditPage,
  AuditQuery,
  DeleteRequest,
  GrowthResponse,
  KeepRequest,
  LookEvent,
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
import { type Plan, type PlanSummary, summarizePlan } from "../../shared/plan.js";
import type { AgentUsage, ScanProgress } from "../../shared/scan-report.js";
import { evaluatePolicySteps } from "../../shared/policy.js";
import { withAgentTakes } from "../plan/agent-takes.js";
import { storeFindings, summarizeAgents } from "../../shared/scan-summary.js";
import { agentQuotaStates, quotaState } from "../../shared/quota.js";
import {
  cleanupSince,
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
  planSteps,
  selectionPlanSteps,
} from "../plan/plan-inputs.js";
import { keepFromClaudeSweep } from "../keep/claude-keep.js";
import { idsMatchingFilter } from "../plan/selection.js";
import { SessionFilterSchema } from "../../shared/session-filter.js";
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
import { SessionFileChangedError } from "../stores/session-detail.js";
import { storeAdapter } from "../stores/store-adapter.js";
import { ReadOnlyError, UnknownIdsError } from "./api-errors.js";
import { createOperations } from "./operations.js";
import { runPaced } from "./paced.js";
import { createPreviews, type Preview } from "./previews.js";
import {
  buildSessionsTable,
  changedRows,
  type RowEncoder,
  rowEncoder,
  type SessionsTable,
} from "./sessions-table.js";
import { createLooks, type Look } from "./looks.js";
import type { StoreRef } from "../../shared/session-record.js";

/** How long a look at the stores answers reads without a new one being taken (when not watching). */
const FRESH_MS = 5000;

export interface DashboardStores {
  /** The stores the dashboard looks at, each with its kind. */
  stores: readonly StoreRef[];
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
  /**
   * The policy's plan; with `preview`, kept so that `deleteSessions({ previewId })` executes exactly
   * it. Every plan is made a step at a time (shared/steps.ts): other requests are answered meanwhile.
   */
  plan?: (options?: { preview?: boolean }) => Promise<Plan>;
  /** The policy's plan without its lists: its totals and how many sessions each list holds. */
  planSummary?: () => Promise<PlanSummary>;
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
  /**
   * The running operation's progress, or the last one's result until dismissed — with what became
   * of its sessions since (restored by any means, still in the trash), from the journal.
   */
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
  // Every read shares one look at the stores; when it moves on is looks.ts's to say.
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
          stores: stores.stores,
          dryRun,
          ...(looks.current() ? { previous: looks.current()!.inputs.report } : {}),
        },
        { actor: "ui", config: stores.config },
        control,
      );
    } finally {
      changed(); // what the table shows has moved
    }
  }
  const listeners = new Set<(event: DashboardEvent) => void>();
  const tell = (event: DashboardEvent) => {
    for (const listener of listeners) listener(event);
  };
  const looks = createLooks({
    gather: (more) => gatherPlanInputs({ config: stores.config, flagStores: stores.stores, ...more }),
    ...(stores.watch
      ? {
          watch: {
            stores: stores.stores.map((s): StoreRef => ({ kind: s.kind, root: s.root })),
            metaDir: paths.sessionsMeta,
            config: stores.config,
          },
        }
      : {}),
    freshMs,
    ...(stores.reconcileMs !== undefined ? { reconcileMs: stores.reconcileMs } : {}),
    followers: () => listeners.size,
    onLook: publish,
    onWatch: () => tell({ event: "watch", data: JSON.stringify(looks.watchStatus()) }),
    ...(stores.log ? { log: stores.log } : {}),
  });
  const gather = looks.gather;
  const changed = looks.changed;

  /** The look event for the page: what changed from `before` to `after`, with the new summary. */
  function publish(before: Look, after: Look) {
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
  }

  const validConfig = (inputs: PlanInputs): Config => {
    if (!inputs.config.ok) throw new ReadOnlyError(inputs.config);
    return inputs.config.config;
  };

  /**
   * The policy's plan of one look, made a step at a time; requests that ask meanwhile (the
   * headline, the treemap, the wizard) share the one being made. Not kept once made: see encoders.
   */
  const planBuilds = new WeakMap<PlanInputs, Promise<Plan>>();
  const policyPlan = async (): Promise<{ plan: Plan; inputs: PlanInputs }> => {
    const inputs = await gather();
    validConfig(inputs);
    let building = planBuilds.get(inputs);
    if (!building) {
      building = runPaced(
        planSteps({ ...inputs, config: inputs.config as Extract<ConfigStatus, { ok: true }> }),
      );
      planBuilds.set(inputs, building);
      const done = () => planBuilds.delete(inputs);
      building.then(done, done);
    }
    return { plan: await building, inputs };
  };

  /**
   * How one look's records become rows (the plan's verdicts and kept reasons): once per look, for
   * its table and its changes. The plan itself is not kept: at 100,000 sessions it is ~30 MB of
   * candidates, and only `GET /api/plan` needs it (made anew there).
   */
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
        (table = buildSessionsTable(inputs, new Date(), encoderOf(inputs), looks.versionOf(inputs))),
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
    // The look's, where its file is watched (an edit brings a new look); else read every time, so
    // an edit to the file shows on the next refresh.
    const config = looks.stateWatched() ? inputs.config : loadConfig(stores.config);
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
      ...(inputs.piWithoutExtension?.length ? { piWithoutExtension: inputs.piWithoutExtension } : {}),
      ...(ahead ? { forecast: ahead } : {}),
      ...(looks.versionOf(inputs) !== undefined ? { version: looks.versionOf(inputs)! } : {}),
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
      looks.changedBesideStores();
      return { changed: result.changed.map((t) => t.id), unchanged: result.unchanged.map((t) => t.id) };
    },

    /** All or nothing: every id must name a Claude Code session of the look. */
    async keep({ ids }) {
      const byId = new Map((await gather()).report.sessions.map((s) => [s.id, s]));
      const unknown = ids.filter((id) => !byId.has(id));
      if (unknown.length > 0) throw new UnknownIdsError(unknown);
      const kept = keepFromClaudeSweep(
        ids.map((id) => byId.get(id)!),
        { actor: "ui", config: stores.config },
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
      // A session is read in detail where its adapter can read one (pi's), never one whose name is
      // not UTF-8 (the record's path cannot name it), and only while it is the file the look found:
      // a file changed since (gone, a FIFO, a link, another file) is refused with a 409 that says
      // so, never waited on.
      let detail;
      try {
        const read = (await storeAdapter(session.store.kind)).sessionDetail;
        detail =
          read && !session.warnings.some((w) => w.code === "non-utf8-name")
            ? await read(session.path, session.fingerprint)
            : undefined;
      } catch (error) {
        if (error instanceof SessionFileChangedError) throw error;
        detail = undefined; // unreadable (the scan warned of it): the record says what is known
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
      const { plan, inputs } = await policyPlan();
      if (!options.preview) return plan;
      // A preview says what each candidate's agent will also delete with it (its plan left out
      // those whose delete would take more).
      return previews.remember(
        withAgentTakes(plan, inputs.report, inputs.agentAnswers ?? new Map()),
        "policy",
      );
    },

    planSummary: async () => summarizePlan((await policyPlan()).plan),

    async planSelection(selection) {
      const inputs = await gather();
      const config = validConfig(inputs);
      const now = new Date();
      const ids =
        "ids" in selection
          ? new Set(selection.ids)
          : idsMatchingFilter(inputs, config, SessionFilterSchema.parse(selection.filter), now);
      // Only what can move is a candidate; the rest is said in the plan's leftOut.
      const plan = await runPaced(
        selectionPlanSteps(
          { ...inputs, config: inputs.config as Extract<ConfigStatus, { ok: true }> },
          ids,
          now,
        ),
      );
      // The selected sessions a rule keeps are named too, as the wizard lists them (the plan names
      // only candidates: its kept list holds the whole store, too many to name).
      const records = new Map(inputs.report.sessions.map((s) => [s.id, s]));
      for (const kept of plan.kept) {
        const record = ids.has(kept.id) ? records.get(kept.id) : undefined;
        if (record) kept.title = sessionTitle(record).title;
      }
      return previews.remember(
        withAgentTakes(plan, inputs.report, inputs.agentAnswers ?? new Map()),
        "selection",
      );
    },

    async previewPlan(raw) {
      const inputs = await gather();
      const checked = checkConfig(raw);
      if (!checked.ok) return { ok: false, problems: checked.problems };
      const plan = await runPaced(
        evaluatePolicySteps({
          sessions: inputs.report.sessions,
          policy: checked.config,
          pinnedIds: pinnedIds(inputs.pins),
          activeIds: inputs.activeIds,
          mode: checked.config.mode,
          now: new Date(),
        }),
      );
      return { ok: true, plan };
    },

    getPolicy: async () => policyResponse(stores.config),

    /** Validated, written atomically, audited; an invalid config is refused and nothing is written. */
    async savePolicy(raw) {
      const saved = saveConfig(loadConfig(stores.config).path, raw, "ui");
      if (!saved.ok) return saved;
      looks.changedBesideStores();
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
    operation() {
      const status = operations.status();
      // What its sessions became since is the journal's to say: an Undo, the Trash page and
      // `trash restore` all write there, and the page must not offer to restore what is back.
      if (status.state !== "finished" || !status.result.operationId || status.result.dryRun) return status;
      const { entries } = listTrash({ actor: "ui" }, status.result.operationId);
      return { ...status, since: cleanupSince(entries, status.result.operationId) };
    },
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

    startScan: looks.startScan,
    scanProgress: looks.scanProgress,

    subscribe(listener) {
      listeners.add(listener);
      listener({ event: "watch", data: JSON.stringify(looks.watchStatus()) });
      looks.followersChanged();
      return () => {
        listeners.delete(listener);
        looks.followersChanged();
      };
    },

    close() {
      looks.close();
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
