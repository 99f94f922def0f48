// A retention plan as schemas: what a policy would remove (each with the rule that chose it), what
// it keeps (each with the reason), and where the quota stands before and after. The CLI prints it,
// `plan --json` emits it, the dashboard previews it, and the deletion engine executes only this.
import { z } from "zod";
import { ConfigSchema, EVICTION_ORDERS, QUOTA_MODES } from "./config.js";
import { QUOTA_LEVELS } from "./quota.js";
import { OrphanedMetaSchema } from "./scan-report.js";
import { FingerprintSchema, StoreKindSchema, StoreRefSchema } from "./session-record.js";

/** The rules that make a session a candidate, in the order they are applied. */
export const CANDIDATE_RULES = [
  "maxAgeDays",
  "neverReopened",
  "namespaceQuota",
  "agentQuota",
  "maxTotalSizeBytes",
  "maxSessionCount",
  /** Not a rule: chosen by hand in the dashboard (exemptions still apply). */
  "selected",
] as const;
export type CandidateRule = (typeof CANDIDATE_RULES)[number];

/** Each rule in a few words, as the dashboard and the pi extension label candidates. */
export const RULE_LABELS: Record<CandidateRule, string> = {
  maxAgeDays: "too old",
  neverReopened: "never reopened",
  namespaceQuota: "namespace quota",
  agentQuota: "agent quota",
  maxTotalSizeBytes: "size quota",
  maxSessionCount: "count quota",
  selected: "selected by you",
};

/** Why a session is kept, strongest first: a session kept for several reasons shows the first. */
export const KEEP_REASONS = [
  "active",
  "pinned",
  "protected",
  "fork-parent",
  "recent",
  "last-in-namespace",
  /** It would be chosen, but cannot be moved whole now (a part's rights, an agent's missing tool). */
  "cannot-move",
  "within-policy",
] as const;
export type KeepReason = (typeof KEEP_REASONS)[number];

const QuotaMeasureSchema = z.object({
  used: z.number().nonnegative(),
  limit: z.number().positive(),
  ratio: z.number().nonnegative(),
  level: z.enum(QUOTA_LEVELS),
});

export const QuotaStateSchema = z.object({
  size: QuotaMeasureSchema.optional(),
  count: QuotaMeasureSchema.optional(),
  level: z.enum(QUOTA_LEVELS),
});

const PlanSessionSchema = z.object({
  id: z.string(),
  path: z.string(),
  store: StoreRefSchema,
  namespace: z.string(),
  sizeBytes: z.number().int().nonnegative(),
  createdAt: z.string(),
  lastUsedAt: z.string(),
  /** The file as the plan saw it; a deletion skips it if it has changed since. */
  fingerprint: FingerprintSchema.optional(),
});

export const CandidateSchema = PlanSessionSchema.extend({
  /** Its title (session-title.ts: name, else first message, else time). */
  title: z.string().optional(),
  rule: z.enum(CANDIDATE_RULES),
  /** In words: "last used 212 days ago (limit 180)". */
  detail: z.string(),
  /**
   * What its agent's own delete takes with it, by the agent's own records (Codex: the threads it
   * spawned), where those are sessions of their own here that go too: they move with it, in its
   * trash entry, and come back with it.
   */
  alsoDeletes: z
    .array(z.object({ id: z.string(), path: z.string(), title: z.string(), what: z.string() }))
    .optional(),
});
export type Candidate = z.infer<typeof CandidateSchema>;

export const KeptSchema = PlanSessionSchema.extend({
  /** Its title, in a hand selection's plan only (a policy plan keeps the whole store: unnamed). */
  title: z.string().optional(),
  reason: z.enum(KEEP_REASONS),
  /** In words: `protected by pattern "*incident*" (name)`. */
  detail: z.string(),
});
export type Kept = z.infer<typeof KeptSchema>;

export const PlanWarningSchema = z.object({
  code: z.enum(["quota-unreachable", "namespace-quota-unreachable", "agent-quota-unreachable"]),
  message: z.string(),
});
export type PlanWarning = z.infer<typeof PlanWarningSchema>;

/**
 * An agent's own retention, which deletes for good whatever our policy says (Claude Code's
 * `cleanupPeriodDays`, Gemini CLI's `general.sessionRetention`): shown beside our plan, never
 * silently overridden.
 */
export const ExternalSweepSchema = z.object({
  agent: StoreKindSchema,
  storeRoot: z.string(),
  /** The setting and where it comes from: "cleanupPeriodDays = 30 (Claude Code's default)". */
  setting: z.string(),
  /** Its age limit in days, when it deletes by age. */
  days: z.number().positive().optional(),
  /** When it runs, in a few words; "the next time it runs" when absent. */
  when: z.string().optional(),
  /** The sessions it deletes at its next run, oldest first. */
  ids: z.array(z.string()),
  bytes: z.number().int().nonnegative(),
  /** How many of them you pinned or protected: the agent knows nothing of that. */
  keptByYou: z.number().int().nonnegative(),
  /** Whether `keep` can keep them from it (Claude's sweep looks at a file time we can refresh). */
  keepable: z.boolean(),
  /** What the agent will do, in a sentence; `describeSweep` adds what you pinned. */
  message: z.string(),
  /**
   * Files whose removal alone keeps a session from the sweep (Gemini CLI's empty copy of a resumed
   * chat): each a part of that session, removed by its own id through the trash like any session.
   */
  rescues: z
    .array(
      z.object({
        /** The part's id, for `clean --ids` and a delete request. */
        id: z.string(),
        path: z.string(),
        sizeBytes: z.number().int().nonnegative(),
        fingerprint: FingerprintSchema,
        /** The session it keeps, and that session's title as shown. */
        session: z.string(),
        title: z.string(),
        /** In a sentence: "an empty copy left by a resume; remove it to keep ‹title›". */
        message: z.string(),
      }),
    )
    .optional(),
});
export type ExternalSweep = z.infer<typeof ExternalSweepSchema>;

/**
 * Sessions a plan would have chosen but leaves out because they cannot be moved whole now — or
 * because their agent's own delete would take a session that is not going — under one reason: a
 * preview counts only what will move, and says once why the rest stays.
 */
export const LeftOutSchema = z.object({
  /** Why, and how to put it right: "no `codex` binary was found: put it on PATH…". */
  reason: z.string(),
  sessions: z.array(
    z.object({
      id: z.string(),
      path: z.string(),
      sizeBytes: z.number().int().nonnegative(),
      title: z.string().optional(),
      /** What holds this one back, where the reason is shared: "Codex's own delete of it would also delete …". */
      detail: z.string().optional(),
    }),
  ),
});
export type LeftOut = z.infer<typeof LeftOutSchema>;

/** A sweep counted against the sessions our policy pins or protects, which the agent ignores. */
export function withKeptByYou(sweep: ExternalSweep, keptByUs: ReadonlySet<string>): ExternalSweep {
  return { ...sweep, keptByYou: sweep.ids.filter((id) => keptByUs.has(id)).length };
}

/** The sweep's sentence, with how many of its sessions you pinned or protected. */
export function describeSweep(sweep: ExternalSweep): string {
  if (sweep.keptByYou === 0) return sweep.message;
  return `${sweep.message.replace(/\.$/, "")} — ${sweep.keptByYou} of them pinned or protected by you.`;
}

const TotalsSchema = z.object({
  sessionCount: z.number().int().nonnegative(),
  totalBytes: z.number().int().nonnegative(),
});

export const NamespaceQuotaStateSchema = z.object({
  namespace: z.string(),
  /** The `quota.namespaces[].pattern` that set its limits. */
  pattern: z.string(),
  before: QuotaStateSchema,
  after: QuotaStateSchema,
});

export const AgentQuotaStateSchema = z.object({
  /** The store kind whose sessions `quota.agents` limits together. */
  agent: StoreKindSchema,
  before: QuotaStateSchema,
  after: QuotaStateSchema,
});

export const PlanSchema = z.object({
  evaluatedAt: z.string(),
  mode: z.enum(QUOTA_MODES),
  eviction: z.enum(EVICTION_ORDERS),
  policy: ConfigSchema.pick({ quota: true, retention: true, protection: true, activity: true }),
  /** Candidates in the order the rules chose them; within a rule, in eviction order. */
  candidates: z.array(CandidateSchema),
  /** Every other session, most recently used first. */
  kept: z.array(KeptSchema),
  /** Up to 5 candidates whose loss would hurt most: the largest and the most recently used. */
  riskiest: z.array(CandidateSchema),
  before: TotalsSchema,
  after: TotalsSchema,
  bytesToFree: z.number().int().nonnegative(),
  quotaBefore: QuotaStateSchema,
  quotaAfter: QuotaStateSchema,
  namespaceQuotas: z.array(NamespaceQuotaStateSchema),
  agentQuotas: z.array(AgentQuotaStateSchema),
  warnings: z.array(PlanWarningSchema),
  /** pi session-index files whose session is gone: tiny candidates of their own kind. */
  orphanedMeta: z.array(OrphanedMetaSchema).optional(),
  /** Set when the plan must not be executed as it stands (e.g. it would empty a store). */
  refusal: z.object({ code: z.literal("empties-store"), message: z.string() }).optional(),
  /** Agents' own retention that will delete sessions regardless of this plan. */
  externalSweeps: z.array(ExternalSweepSchema).optional(),
  /** What the rules (or the selection) chose but cannot be moved now: kept, grouped by reason. */
  leftOut: z.array(LeftOutSchema).optional(),
  /** The dashboard's handle on this very plan: `POST /api/delete {previewId}` executes exactly it. */
  previewId: z.string().optional(),
});
export type Plan = z.infer<typeof PlanSchema>;

/**
 * A plan the server keeps so that a delete can name it: what `GET /api/plan` and `POST
 * /api/plan/selection` answer, always with its `previewId`.
 */
export const PlanPreviewSchema = PlanSchema.required({ previewId: true });
export type PlanPreview = z.infer<typeof PlanPreviewSchema>;

/**
 * A plan without its lists (`GET /api/plan/summary`): its totals, quota, warnings and riskiest, and
 * how many sessions each list holds — what a headline shows, a few kilobytes at any size.
 */
export const PlanSummarySchema = PlanSchema.omit({
  candidates: true,
  kept: true,
  previewId: true,
  leftOut: true,
}).extend({
  candidateCount: z.number().int().nonnegative(),
  keptCount: z.number().int().nonnegative(),
  /** How many sessions the plan leaves out because they cannot be moved now (its `leftOut`). */
  leftOutCount: z.number().int().nonnegative().optional(),
  /** How many candidates each rule chose (rules that chose none are absent): "old" or "over a limit". */
  candidatesByRule: z.partialRecord(z.enum(CANDIDATE_RULES), z.number().int().positive()).optional(),
});
export type PlanSummary = z.infer<typeof PlanSummarySchema>;

/** `plan`'s summary (see PlanSummarySchema). */
export function summarizePlan(plan: Plan): PlanSummary {
  const { candidates, kept, previewId: _previewId, leftOut, ...rest } = plan;
  const leftOutCount = (leftOut ?? []).reduce((t, g) => t + g.sessions.length, 0);
  const candidatesByRule: Partial<Record<CandidateRule, number>> = {};
  for (const { rule } of candidates) candidatesByRule[rule] = (candidatesByRule[rule] ?? 0) + 1;
  return {
    ...rest,
    candidateCount: candidates.length,
    keptCount: kept.length,
    ...(leftOutCount > 0 ? { leftOutCount } : {}),
    candidatesByRule,
  };
}
