// What the dashboard's routes do, as plain functions over the stores the server was started with.
// The routes only parse, validate and answer; this module calls the same state, policy and deletion
// modules as the CLI and the extension, so the three can never disagree.
import { homedir } from "node:os";
import type {
  DataSource,
  DeleteRequest,
  GrowthResponse,
  PolicyStatus,
  ProtectRequest,
  ProtectResponse,
  SessionDetailResponse,
  SessionRow,
  SessionsQuery,
  SessionsResponse,
  SummaryResponse,
} from "../../shared/api.js";
import type { AuditEntry } from "../../shared/audit.js";
import { type Config, validateConfig } from "../../shared/config.js";
import type { Plan } from "../../shared/plan.js";
import type { ScanProgress } from "../../shared/scan-report.js";
import { evaluatePolicy, exemptions } from "../../shared/policy.js";
import { quotaState } from "../../shared/quota.js";
import { compareSessions } from "../../shared/sort.js";
import type { TrashEntry } from "../../shared/trash.js";
import {
  listTrash,
  purge,
  restore,
  type SoftDeleteResult,
  softDelete,
  type TrashActionResult,
} from "../delete/deletion-engine.js";
import { gatherPlanInputs, type PlanInputs, planFor } from "../plan/plan-inputs.js";
import type { FolderStore } from "../scan/resolve-roots.js";
import { scanStores } from "../scan/scanner.js";
import { appendAudit, readAudit } from "../state/audit-log.js";
import { writeFileAtomic } from "../state/atomic-write.js";
import { type ConfigStatus, type LoadConfigOptions, loadConfig } from "../state/config-file.js";
import { pinnedIds, readPins, setProtection } from "../state/protection-list.js";
import { forecast, growthSeries } from "../../shared/growth.js";
import { collectMetrics } from "../report/metrics.js";
import { growthFile, readGrowth } from "../state/growth-store.js";
import { statePaths } from "../state/state-dir.js";
import { readSessionDetail } from "../stores/pi/session-detail.js";
import { ReadOnlyError, UnknownIdsError } from "./api-errors.js";

/** How long a look at the stores serves reads. */
const FRESH_MS = 5000;

export interface DashboardStores {
  roots: readonly string[];
  folderStores: readonly FolderStore[];
  source: DataSource;
  config: LoadConfigOptions;
}

/** Everything the routes can ask for; a test may provide only part of it (the rest answers 404). */
export interface DashboardApi {
  getSummary: () => Promise<SummaryResponse>;
  protect?: (request: ProtectRequest) => Promise<ProtectResponse>;
  sessions?: (query: SessionsQuery) => Promise<SessionsResponse>;
  plan?: () => Promise<Plan>;
  /** The plan a proposed config would make, without saving it. */
  previewPlan?: (
    config: unknown,
  ) => Promise<{ ok: true; plan: Plan } | { ok: false; problems: { path: string; message: string }[] }>;
  getPolicy?: () => Promise<{ status: ConfigStatus }>;
  savePolicy?: (
    config: unknown,
  ) => Promise<
    { ok: true; status: ConfigStatus } | { ok: false; problems: { path: string; message: string }[] }
  >;
  deleteSessions?: (request: DeleteRequest) => Promise<SoftDeleteResult>;
  trash?: () => Promise<{ entries: TrashEntry[]; unreadableLines: number }>;
  restore?: (refs: string[]) => Promise<TrashActionResult>;
  purge?: (refs: string[], confirm: string) => Promise<TrashActionResult>;
  audit?: (offset: number, limit: number) => Promise<{ total: number; entries: AuditEntry[] }>;
  /** Prometheus text. */
  metrics?: () => Promise<string>;
  growth?: (days: number, namespace?: string) => Promise<GrowthResponse>;
  sessionDetail?: (id: string) => Promise<SessionDetailResponse>;
  /** Starts a scan unless one runs (false then); `scanProgress` follows it. */
  startScan?: () => { started: boolean };
  scanProgress?: () => { running: boolean; progress?: ScanProgress };
}

/** Quota and mode for the dashboard; an invalid config means read-only and no quota to show. */
export function policyStatus(
  config: ConfigStatus,
  totals: { totalBytes: number; sessionCount: number },
): PolicyStatus {
  if (!config.ok)
    return { configPath: config.path, source: "invalid", problems: config.problems, readOnly: true };
  return {
    configPath: config.path,
    source: config.source,
    problems: [],
    mode: config.config.mode,
    quota: quotaState(totals.totalBytes, totals.sessionCount, config.config.quota),
    readOnly: false,
  };
}

const rowOf = (s: PlanInputs["report"]["sessions"][number], kept?: string): SessionRow => ({
  id: s.id,
  path: s.path,
  store: s.store.kind,
  namespace: s.namespace,
  sizeBytes: s.sizeBytes,
  createdAt: s.createdAt,
  modifiedAt: s.modifiedAt,
  lastUsedAt: s.lastUsedAt,
  messageCount: s.messageCount,
  ...(s.name !== undefined ? { name: s.name } : {}),
  ...(s.tags ? { tags: s.tags } : {}),
  warnings: s.warnings.length,
  ...(kept ? { kept } : {}),
});

export function createDashboardService(stores: DashboardStores): Required<DashboardApi> {
  const paths = statePaths();
  const flagStores = stores.folderStores.map((s) => `${s.kind}:${s.root}`);
  /**
   * Reads share one recent look at the stores (a 100,000-session table must answer in well under a
   * second); it is taken again when older than FRESH_MS and after every change. Deletions never rely
   * on it: the engine looks again, under its lock, just before it moves anything.
   */
  let recent: { at: number; inputs: Promise<PlanInputs> } | undefined;
  const gather = () => {
    if (!recent || Date.now() - recent.at > FRESH_MS) {
      const inputs = gatherPlanInputs({ config: stores.config, flagRoots: stores.roots, flagStores });
      recent = { at: Date.now(), inputs };
      inputs.catch(() => {
        recent = undefined;
      });
    }
    return recent.inputs;
  };
  const changed = () => {
    recent = undefined;
    lastSummary = undefined;
  };
  const validConfig = (inputs: PlanInputs): Config => {
    if (!inputs.config.ok) throw new ReadOnlyError(inputs.config.path);
    return inputs.config.config;
  };

  let running: Promise<SummaryResponse> | undefined;
  let progress: ScanProgress | undefined;
  let lastSummary: { at: number; value: SummaryResponse } | undefined;
  /**
   * Concurrent requests share one scan, and a summary serves for FRESH_MS (`POST /api/scan` asks
   * for a new one); its progress is kept for `scanProgress`.
   */
  const getSummary = () => {
    if (!running && lastSummary && Date.now() - lastSummary.at < FRESH_MS)
      return Promise.resolve(lastSummary.value);
    running ??= scanStores({
      roots: stores.roots,
      folderStores: stores.folderStores,
      cacheFile: paths.scanCache,
      metaDir: paths.sessionsMeta,
      growthDir: paths.dir,
      onProgress: (p) => {
        progress = p;
      },
    })
      .then(({ scannedAt, stores: scanned, summary, namespaces, problems }) => {
        // Read on every scan, so an edit to the file shows on the next refresh.
        const config = loadConfig(stores.config);
        const ahead = forecast(
          readGrowth(growthFile(paths.dir, scanned)),
          config.ok ? config.config.quota.maxTotalSizeBytes : null,
          new Date(),
        );
        const value: SummaryResponse = {
          source: stores.source,
          policy: policyStatus(config, summary),
          scannedAt,
          stores: scanned,
          summary,
          namespaces,
          problems,
          ...(ahead ? { forecast: ahead } : {}),
        };
        lastSummary = { at: Date.now(), value };
        return value;
      })
      .finally(() => {
        running = undefined;
      });
    return running;
  };

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

    async sessions(query) {
      const inputs = await gather();
      const all = inputs.report.sessions;
      const kept = inputs.config.ok
        ? exemptions({
            sessions: all,
            policy: inputs.config.config,
            pinnedIds: pinnedIds(inputs.pins),
            activeIds: inputs.activeIds,
            now: new Date(),
          })
        : new Map<string, { reason: string }>();
      const text = query.text?.toLowerCase();
      const matching = all
        .filter(
          (s) =>
            (query.namespace === undefined || s.namespace === query.namespace) &&
            (query.store === undefined || s.store.kind === query.store) &&
            (query.tag === undefined || (s.tags ?? []).includes(query.tag)) &&
            (text === undefined ||
              [s.path, s.name, s.summary, s.namespace].some((field) => field?.toLowerCase().includes(text))),
        )
        .sort(compareSessions(query.sort));
      return {
        total: all.length,
        matching: matching.length,
        sessions: matching
          .slice(query.offset, query.offset + query.limit)
          .map((s) => rowOf(s, kept.get(s.id)?.reason)),
      };
    },

    async sessionDetail(id) {
      const inputs = await gather();
      const all = inputs.report.sessions;
      const session = all.find((s) => s.id === id);
      if (!session) throw new UnknownIdsError([id]);
      const kept = inputs.config.ok
        ? exemptions({
            sessions: all,
            policy: inputs.config.config,
            pinnedIds: pinnedIds(inputs.pins),
            activeIds: inputs.activeIds,
            now: new Date(),
          }).get(id)
        : undefined;
      const byPath = new Map(all.map((s) => [s.path, s]));
      const byId = new Map(all.map((s) => [s.id, s]));
      const parent = session.parentSession ? byPath.get(session.parentSession) : undefined;
      let detail;
      try {
        detail = session.store.kind === "pi" ? readSessionDetail(session.path) : undefined;
      } catch {
        detail = undefined; // gone or unreadable since the scan: the record says what is known
      }
      return {
        session,
        ...(kept ? { kept } : {}),
        ...(detail ? { detail } : {}),
        lineage: {
          ...(parent ? { parent: { id: parent.id, path: parent.path } } : {}),
          forks: (session.forks ?? []).flatMap((forkId) => {
            const fork = byId.get(forkId);
            return fork ? [{ id: fork.id, path: fork.path }] : [];
          }),
        },
      };
    },

    async plan() {
      const inputs = await gather();
      validConfig(inputs);
      return planFor({ ...inputs, config: inputs.config as Extract<ConfigStatus, { ok: true }> });
    },

    async previewPlan(raw) {
      const inputs = await gather();
      const checked = validateConfig(raw, process.env.HOME || homedir());
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

    async getPolicy() {
      return { status: loadConfig(stores.config) };
    },

    /** Validated, written atomically, audited; an invalid config is refused and nothing is written. */
    async savePolicy(raw) {
      const target = loadConfig(stores.config).path;
      const checked = validateConfig(raw, process.env.HOME || homedir());
      if (!checked.ok) return { ok: false, problems: checked.problems };
      writeFileAtomic(target, `${JSON.stringify(raw, null, 2)}\n`, 0o644);
      changed();
      appendAudit(paths.auditLog, {
        time: new Date().toISOString(),
        actor: "ui",
        action: "config",
        items: [],
        result: "ok",
        detail: `saved ${target}`,
      });
      return { ok: true, status: loadConfig(stores.config) };
    },

    async deleteSessions(request) {
      const config = validConfig(await gather());
      try {
        return await softDelete(
          {
            items: request.items,
            config,
            configOptions: stores.config,
            roots: stores.roots,
            folderStores: stores.folderStores,
            dryRun: request.dryRun,
            via: "selection",
          },
          { actor: "ui" },
        );
      } finally {
        changed(); // what the table shows has moved
      }
    },

    async trash() {
      return listTrash({ actor: "ui" });
    },
    async restore(refs) {
      try {
        return await restore(refs, { actor: "ui" });
      } finally {
        changed();
      }
    },
    async purge(refs, confirm) {
      try {
        return await purge(refs, confirm, { actor: "ui" });
      } finally {
        changed();
      }
    },

    metrics: () => collectMetrics(stores),

    startScan() {
      if (running) return { started: false };
      changed();
      progress = { phase: "walking", filesDone: 0, filesTotal: 0, bytesDone: 0, bytesTotal: 0 };
      void getSummary().catch(() => {});
      return { started: true };
    },
    scanProgress: () => ({ running: running !== undefined, ...(progress ? { progress } : {}) }),

    async growth(days, namespace) {
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
      };
    },

    async audit(offset, limit) {
      const { entries } = readAudit(paths.auditLog);
      return { total: entries.length, entries: entries.slice(offset, offset + limit) };
    },
  };
}
