// Everything a plan is made from, gathered from disk: the config, the stores' sessions (through
// the incremental scan), the manual pins and the sessions live processes are using. The plan itself
// is the pure `evaluatePolicy` of shared/; this module is the edge that feeds it.
import { formatBytes } from "../../shared/format.js";
import { type ExternalSweep, type Plan, withKeptByYou } from "../../shared/plan.js";
import { describeFinding, storeFindings } from "../../shared/scan-summary.js";
import type { Policy } from "../../shared/config.js";
import {
  evaluatePolicySteps,
  type Exemption,
  exemptions,
  type PolicyInput,
  policyVerdicts,
} from "../../shared/policy.js";
import type { ScanReport } from "../../shared/scan-report.js";
import { runSteps, sortAtOnce, type Sorter, sortSteps, type Steps } from "../../shared/steps.js";
import { isFolderSession, type StoreKind, type StoreRef } from "../../shared/session-record.js";
import {
  describePiWithoutExtension,
  type PiWithoutExtension,
  piWithoutExtensionOf,
} from "../../shared/unmarked-pi.js";
import { type NamedStore, resolveStores } from "../scan/resolve-roots.js";
import { type ScanOptions, scan } from "../scan/scanner.js";
import { type ActiveDetection, activePaths, detectActiveSessions } from "../state/active-sessions.js";
import {
  type ConfigStatus,
  type LoadConfigOptions,
  loadConfig,
  rootOf,
  withConfigProblems,
} from "../config/config-file.js";
import { type Pin, pinnedIds, readPins } from "../state/protection-list.js";
import { statePaths } from "../state/state-dir.js";
import { readLedgers } from "../state/journal.js";
import { externalSweepsOf, liveSessionsOf } from "../stores/store-adapter.js";
import { type AgentAnswers, type AgentRecordsMemory, agentRefusals, askAgents } from "./agent-takes.js";
import { type MoveContext, moveChecker, moveContextOf, movablePlanSteps } from "./movable.js";

export interface GatherOptions {
  config?: LoadConfigOptions;
  /**
   * `--root DIR`… and `--store KIND:DIR`… as the CLI read them, or the stores a caller names itself
   * (they replace the configured and default stores).
   */
  flagStores?: readonly NamedStore[];
  /** The kinds of store found on our own when neither flags nor the config name any (default: all). */
  discover?: readonly StoreKind[];
  env?: NodeJS.ProcessEnv;
  /** Use and update the scan cache. Default true. */
  cache?: boolean;
  /** Called as the scan goes (see `scanStores`). */
  onProgress?: ScanOptions["onProgress"];
  /** The last scan of the same stores, whose unchanged records may be reused (see `scanStores`). */
  previous?: ScanReport;
  /** Only these paths changed since `previous` (a watcher's; see `scanStores`). */
  changed?: ScanOptions["changed"];
  /** Scan cache entries a long-lived caller keeps (see `scanStores`). */
  memoryCache?: ScanOptions["memoryCache"];
  /** What the agents' own records said at earlier looks, a long-lived caller's (see `askAgents`). */
  agentRecords?: AgentRecordsMemory;
  /**
   * "read-only": the scan is not a growth point (a watcher's update, a few a second; the server's
   * full looks record). Default: recorded in the state dir.
   */
  growth?: "read-only";
  /**
   * What the last look gathered beside the stores, kept instead of read again — by a long-lived
   * caller that knows which of them cannot have changed since (the dashboard's looks, which watch
   * their files). Each part left out is read.
   */
  kept?: Partial<BesideStores>;
}

/** What a look gathers beside the stores: each can be kept from the last look while it holds. */
export interface BesideStores {
  config: ConfigStatus;
  pins: Pin[];
  /** The paths (sessions and their parts) the trash ledgers hold in the trash. */
  inTrash: ReadonlySet<string>;
  /** What live processes are using, as last detected. */
  live: { detection: ActiveDetection; byAgents: ReadonlyMap<string, string> };
}

export interface PlanInputs {
  config: ConfigStatus;
  report: ScanReport;
  /**
   * Things said plainly along the way: skipped locations, unreadable active markers, a pi running
   * without our extension.
   */
  notes: string[];
  pins: Pin[];
  /** Session id → how we know it is in use. */
  activeIds: Map<string, string>;
  /** pi processes running without our extension (their sessions kept by the rougher rule); absent: none known. */
  piWithoutExtension?: PiWithoutExtension[];
  /** What agents' own retention deletes next, before it is counted against our pins. */
  sweeps: ExternalSweep[];
  /**
   * What moving these sessions depends on beside the config (each store's way, an agent's missing
   * tool, the places): a plan counts only what can move. Absent: every candidate is counted.
   */
  moveContext?: MoveContext;
  /**
   * What each session's agent's own delete would also take (Codex: the threads its database lists
   * as spawned), asked of the agents: a plan leaves out a candidate that would take a session that
   * is not going. Absent: no agent was asked.
   */
  agentAnswers?: AgentAnswers;
  /** What was gathered beside the stores, for the next look to keep (see `GatherOptions.kept`). */
  beside?: BesideStores;
}

/** Scans and reads the state; throws `ProtectionListError` when the pins cannot be read. */
export async function gatherPlanInputs(options: GatherOptions = {}): Promise<PlanInputs> {
  const env = options.env ?? process.env;
  const paths = statePaths(env);
  const kept = options.kept ?? {};
  const config = kept.config ?? loadConfig({ ...options.config, env });
  const { stores, notes } = withConfigProblems(config, () =>
    resolveStores(
      {
        stores: options.flagStores ?? [],
        ...(options.discover ? { discover: options.discover } : {}),
      },
      env,
      rootOf(config),
    ),
  );
  const pins = kept.pins ?? readPins(paths.protectedList);
  const report = await scan(stores, {
    growth: options.growth ?? { recordIn: paths.dir },
    ...(options.cache !== false ? { cacheDir: paths.scanCache } : {}),
    metaDir: paths.sessionsMeta,
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    ...(options.previous ? { previous: options.previous } : {}),
    ...(options.changed ? { changed: options.changed } : {}),
    ...(options.memoryCache ? { memoryCache: options.memoryCache } : {}),
  });
  const live = kept.live ?? {
    detection: detectActiveSessions({
      markersDir: paths.activeMarkers,
      roots: stores.map((s) => s.root),
      sessions: report.sessions,
    }),
    // Some agents show their live sessions in their own way (Claude Code: a registry), not as open files.
    byAgents: await liveSessionsOf(report.stores, report.sessions),
  };
  const { detection } = live;
  const piWithoutExtension = detection.unmarked.map(piWithoutExtensionOf);
  const byPath = activePaths(detection);
  const activeIds = new Map(live.byAgents);
  for (const session of report.sessions) {
    // A folder session is in use when anything inside it is; a bundle when any of its parts is
    // (a Codex subagent still running).
    const how =
      byPath.get(session.path) ??
      session.bundle?.map((part) => byPath.get(part)).find((h) => h !== undefined) ??
      (isFolderSession(session)
        ? [...byPath].find(([path]) => path.startsWith(`${session.path}/`))?.[1]
        : undefined);
    if (how !== undefined && !activeIds.has(session.id)) activeIds.set(session.id, how);
  }
  // An agent writing to a session we moved re-creates its file at the same path (pi, Claude Code
  // and Gemini all append by path): such a file is in use, and never cleaned in its turn.
  // A bundle's parts count too: Codex re-creates a subagent's rollout as well as its parent's.
  const trashed =
    kept.inTrash ??
    new Set(
      readLedgers(paths.trashLedgers)
        .entries.filter((e) => e.state === "in-trash")
        .flatMap((e) => [e.originalPath, ...e.sidecars.map((s) => s.from)]),
    );
  for (const session of report.sessions)
    if ([session.path, ...(session.bundle ?? [])].some((p) => trashed.has(p)) && !activeIds.has(session.id))
      activeIds.set(
        session.id,
        "a file appeared at the path of a session in the trash: its agent re-created it (a restore would conflict)",
      );
  // A store holding things that are not its sessions (or nothing but) is said plainly.
  const findings = storeFindings(report).flatMap((f) => describeFinding(f, formatBytes) ?? []);
  const sweeps = await externalSweepsOf(report.stores, report.sessions);
  const moveContext = await moveContextOf(report.stores, env);
  const agentAnswers = await askAgents(report, env, options.agentRecords);
  return {
    config,
    report,
    notes: [
      ...notes,
      ...findings,
      ...detection.problems,
      ...piWithoutExtension.map(describePiWithoutExtension),
    ],
    pins,
    activeIds,
    piWithoutExtension,
    sweeps,
    moveContext,
    agentAnswers,
    beside: { config, pins, inTrash: trashed, live },
  };
}

/** What the policy judges, from gathered inputs with a valid config. */
function policyInput(inputs: PlanInputs & { config: { ok: true } }, now: Date) {
  const { config } = inputs.config;
  return {
    sessions: inputs.report.sessions,
    policy: config,
    pinnedIds: pinnedIds(inputs.pins),
    activeIds: inputs.activeIds,
    mode: config.mode,
    now,
  };
}

/** Each session's verdict under the config's policy (as `planFor` would give it), without the plan. */
export function verdictsFor(inputs: PlanInputs & { config: { ok: true } }, now = new Date()) {
  return policyVerdicts(policyInput(inputs, now));
}

/**
 * The plan of `input`, as steps, counting only what can move now (`movablePlanSteps`): what cannot
 * is kept, and said in `leftOut` — so is a candidate whose agent's own delete would take a session
 * that is not going (`agentRefusals`).
 */
function movableOnly(
  inputs: PlanInputs & { config: { ok: true } },
  input: PolicyInput,
  sort: Sorter,
): Steps<Plan> {
  const context = inputs.moveContext;
  const answers = inputs.agentAnswers;
  if (!context && !answers?.size) return evaluatePolicySteps(input, sort);
  const records = new Map(inputs.report.sessions.map((s) => [s.id, s]));
  const byHand = input.selection !== undefined;
  return movablePlanSteps(
    (cannotMove) => evaluatePolicySteps({ ...input, cannotMove }, sort),
    records,
    context && { check: moveChecker(context, inputs.config.config.deletion), context },
    answers?.size ? (plan) => agentRefusals(plan, answers, records, byHand) : undefined,
  );
}

/** A hand selection's plan: each selected session not exempt and movable now is a candidate. */
export function selectionPlanFor(
  inputs: PlanInputs & { config: { ok: true } },
  selection: ReadonlySet<string>,
  now = new Date(),
): Plan {
  return runSteps(selectionPlanSteps(inputs, selection, now, sortAtOnce));
}

/** `selectionPlanFor` as steps (see shared/steps.ts): the dashboard's, made while it answers others. */
export function selectionPlanSteps(
  inputs: PlanInputs & { config: { ok: true } },
  selection: ReadonlySet<string>,
  now = new Date(),
  sort: Sorter = sortSteps,
): Steps<Plan> {
  return movableOnly(inputs, { ...policyInput(inputs, now), selection }, sort);
}

/** The plan for gathered inputs; only for a valid config (an invalid one means read-only). */
export function planFor(inputs: PlanInputs & { config: { ok: true } }, now = new Date()): Plan {
  return runSteps(planSteps(inputs, now, sortAtOnce));
}

/** `planFor` as steps (see shared/steps.ts): what the dashboard's server makes while it answers others. */
export function* planSteps(
  inputs: PlanInputs & { config: { ok: true } },
  now = new Date(),
  sort: Sorter = sortSteps,
): Steps<Plan> {
  const plan = yield* movableOnly(inputs, policyInput(inputs, now), sort);
  const orphans = inputs.report.orphanedMeta ?? [];
  const keptByUs = new Set(
    plan.kept.filter((k) => k.reason === "pinned" || k.reason === "protected").map((k) => k.id),
  );
  const sweeps = externalSweeps(inputs, keptByUs);
  return {
    ...plan,
    ...(orphans.length > 0 ? { orphanedMeta: orphans } : {}),
    ...(sweeps.length > 0 ? { externalSweeps: sweeps } : {}),
  };
}

/**
 * What agents' own retention (Claude Code's sweep) will delete regardless of our plan; `keptByUs`
 * are the sessions our policy pins or protects (the agent knows nothing of them).
 */
export function externalSweeps(inputs: PlanInputs, keptByUs: ReadonlySet<string>): ExternalSweep[] {
  return inputs.sweeps.map((sweep) => withKeptByYou(sweep, keptByUs));
}

/** The stores a scan looked at, as a deletion request names them. */
export function scannedStores(report: ScanReport): { stores: StoreRef[] } {
  return { stores: report.stores.map((s) => ({ kind: s.kind, root: s.root })) };
}

/** What no plan and no selection may remove, for gathered inputs and a policy (docs/safety.md G3). */
export function exemptionsOf(
  inputs: PlanInputs,
  policy: Policy,
  now = new Date(),
  /** A hand selection: a Codex family chosen as one is not kept for its own forks (`forksChosenToo`). */
  selection?: ReadonlySet<string>,
): Map<string, Exemption> {
  return exemptions({
    sessions: inputs.report.sessions,
    policy,
    pinnedIds: pinnedIds(inputs.pins),
    activeIds: inputs.activeIds,
    now,
    ...(selection ? { selection } : {}),
  });
}
