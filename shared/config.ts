// The config file (`<agentDir>/session-retention.json`, see docs/config.md) as one zod
// schema: the type, the validator, the defaults and — through `z.toJSONSchema` — the editor schema.
// Shared so the dashboard's policy editor validates exactly as the CLI does.
import { z } from "zod";
import { globProblem } from "./glob.js";
import { StoreKindSchema } from "./session-record.js";
import { configPlaceProblems, normalizePosix, type PlaceEnvironment, sessionDirProblem } from "./places.js";

export { sessionDirProblem };

const GIB = 1024 ** 3;

const glob = z.string().superRefine((pattern, ctx) => {
  const problem = globProblem(pattern);
  if (problem) ctx.addIssue({ code: "custom", message: `not a usable glob: ${problem}` });
});

/** A limit: a positive whole number, or null for "no limit". */
const limit = (what: string) =>
  z
    .number({ error: `must be a whole number of ${what} or null (no limit)` })
    .int({ error: `must be a whole number of ${what}` })
    .positive({ error: `must be greater than 0 (use null for no limit)` })
    .nullable();

const ratio = z
  .number({ error: "must be a number between 0 and 1" })
  .gt(0, { error: "must be greater than 0" })
  .lte(1, { error: "must be at most 1" });

const count = z
  .number({ error: "must be a whole number ≥ 0" })
  .int({ error: "must be a whole number ≥ 0" })
  .nonnegative({ error: "must be a whole number ≥ 0" });

/** The orders of the agentsh design, named after what goes first. */
export const EVICTION_ORDERS = ["lru", "largest-first", "oldest-created"] as const;
export type EvictionOrder = (typeof EVICTION_ORDERS)[number];

export const QUOTA_MODES = ["off", "warn-only", "hard-block"] as const;
export type QuotaMode = (typeof QUOTA_MODES)[number];

export const NamespaceQuotaSchema = z.strictObject({
  /** Glob matched against the namespace (the session's working directory); the first match wins. */
  pattern: glob,
  maxTotalSizeBytes: limit("bytes").default(null),
  maxSessionCount: limit("sessions").default(null),
});
export type NamespaceQuota = z.infer<typeof NamespaceQuotaSchema>;

/** One agent's limits (its store kind's sessions together), beside the global ones. */
export const AgentQuotaSchema = z.strictObject({
  maxTotalSizeBytes: limit("bytes").default(null),
  maxSessionCount: limit("sessions").default(null),
});

export const NeverReopenedRuleSchema = z.strictObject({
  /** Only sessions created more than this many days ago. */
  olderThanDays: z.number().positive({ error: "must be greater than 0" }),
  /** …with at most this many user messages… */
  maxUserMessages: count,
  /** …and last used no later than this many minutes after they were created. */
  activeMinutes: z.number().nonnegative({ error: "must be ≥ 0" }).default(60),
});
export type NeverReopenedRule = z.infer<typeof NeverReopenedRuleSchema>;

export const QuotaConfigSchema = z
  .strictObject({
    /** Primary limit. Default 20 GiB. */
    maxTotalSizeBytes: limit("bytes").default(20 * GIB),
    /**
     * Secondary limit, none by default: a fixed count says nothing about disk use — 2,000 was
     * "critical" for a store at 9 % of its size quota. Set one to cap the number of sessions too.
     */
    maxSessionCount: limit("sessions").default(null),
    /** Level `warn` from this share of a limit. Default 0.9. */
    warnRatio: ratio.default(0.9),
    /** Level `info` from this share of a limit. Default 0.7. */
    infoRatio: ratio.default(0.7),
    /** Per-namespace quotas; each namespace matching `pattern` gets these limits of its own. */
    namespaces: z.array(NamespaceQuotaSchema).default([]),
    /** Per-agent quotas, by store kind: `{ "claude": { "maxTotalSizeBytes": 10737418240 } }`. */
    agents: z.partialRecord(StoreKindSchema, AgentQuotaSchema).default({}),
  })
  .superRefine((quota, ctx) => {
    // Only compare two valid ratios: a wrong type is already reported at its own path.
    if (
      typeof quota.infoRatio === "number" &&
      typeof quota.warnRatio === "number" &&
      quota.infoRatio >= quota.warnRatio
    )
      ctx.addIssue({
        code: "custom",
        path: ["infoRatio"],
        message: `must be below warnRatio (${quota.warnRatio}), got ${quota.infoRatio}`,
      });
  });

export const RetentionConfigSchema = z.strictObject({
  /** Sessions not used for this many days are candidates; null turns the rule off. Default 180. */
  maxAgeDays: z
    .number({ error: "must be a number of days or null (off)" })
    .positive({ error: "must be greater than 0 (use null to turn the rule off)" })
    .nullable()
    .default(180),
  /** The N most recently used sessions are always kept. Default 30. */
  minKeepRecentCount: count.default(30),
  /** The N most recently used sessions of every namespace are always kept. Default 1. */
  keepLastPerNamespace: count.default(1),
  /** Which sessions a size or count quota removes first. Default "lru". */
  eviction: z.enum(EVICTION_ORDERS).default("lru"),
  /** The "created but never reopened" rule; off unless set. */
  neverReopened: NeverReopenedRuleSchema.nullable().default(null),
  /** Allow a plan that removes every session of a store. Default false. */
  allowEmptyStore: z.boolean().default(false),
  /** Opt-in cleaning on pi session start (soft delete only). Default false. */
  autoClean: z.boolean().default(false),
  /** Cap on what one auto-clean run may move. Default 20. */
  autoCleanMaxDeletesPerRun: count.default(20),
  /** When true, auto-clean only reports what it would do. Default true. */
  dryRun: z.boolean().default(true),
});

export const ProtectionConfigSchema = z.strictObject({
  /** Globs matched against a session's path, file name, namespace and name. */
  protectedPatterns: z.array(glob).default([]),
  /** Always true: deleting a live session corrupts it (pi re-creates a headerless file). */
  neverDeleteActiveSession: z
    .literal(true, {
      error: "cannot be turned off: deleting a session pi is writing to corrupts it",
    })
    .default(true),
});

export const DeletionConfigSchema = z.strictObject({
  /** Where soft-deleted sessions go: the desktop's trash (default) or our quarantine folder. */
  target: z.enum(["trash", "quarantine"]).default("trash"),
  /**
   * The quarantine folder (absolute or `~/…`); null = `<agentDir>/session-trash`. Not `/`, a
   * system folder, your home or a folder at its top, nor inside (or around) a store or the trash.
   */
  quarantineDir: z
    .string()
    // "~" itself passes here so that the place rules refuse it by name (rule home).
    .refine((dir) => dir === "~" || dir.startsWith("/") || dir.startsWith("~/"), {
      error: "must be an absolute path or start with ~/ (rule relative-path)",
    })
    .nullable()
    .default(null),
});

export const ActivityConfigSchema = z.strictObject({
  /** A session modified this recently is treated as active. Default 10. */
  graceMinutes: z.number().nonnegative({ error: "must be ≥ 0" }).default(10),
});

/** One store to look at; `kind` says how a session is found in it. */
export const StoreConfigSchema = z.strictObject({
  kind: StoreKindSchema,
  /** Absolute or `~/…`; not `/`, your home folder or a folder above it. */
  root: z.string(),
});

export const ConfigSchema = z.strictObject({
  /** For editors: the JSON Schema this file follows (`session-retention config schema`). */
  $schema: z.string().optional(),
  /** false: the pi extension stays silent and never cleans. The CLI still answers when asked. */
  enabled: z.boolean().default(true),
  /** pi session store to use instead of pi's own locations (absolute or `~/…`). */
  sessionDir: z.string().optional(),
  /**
   * The stores to look at. Unset: pi's (sessionDir, else pi's own locations) plus agentsh's
   * `~/.agentsh/sessions` when it exists. Set: exactly these.
   */
  stores: z.array(StoreConfigSchema).optional(),
  /** What quota levels do: nothing, tell (default), or also block pi's input when critical. */
  mode: z.enum(QUOTA_MODES).default("warn-only"),
  quota: QuotaConfigSchema.prefault({}),
  retention: RetentionConfigSchema.prefault({}),
  protection: ProtectionConfigSchema.prefault({}),
  activity: ActivityConfigSchema.prefault({}),
  deletion: DeletionConfigSchema.prefault({}),
});
export type Config = z.output<typeof ConfigSchema>;
export type ConfigInput = z.input<typeof ConfigSchema>;

/** The part of the config the policy engine reads. */
export type Policy = Pick<Config, "quota" | "retention" | "protection" | "activity">;

export const DEFAULT_CONFIG: Config = ConfigSchema.parse({});

/** One problem of a config, with the JSON path it is at (`quota.warnRatio`). */
export interface ConfigProblem {
  path: string;
  message: string;
}

export type ConfigValidation = { ok: true; config: Config } | { ok: false; problems: ConfigProblem[] };

/**
 * Validates a parsed config file: every problem at once, each with its JSON path. The folders it
 * names (store roots, the quarantine) are judged by the rules of places.ts: on the text alone
 * with just a home folder (the dashboard's editor), or against the real paths and the whole
 * environment when the server passes one (server/safety/place-gate.ts).
 */
export function validateConfig(raw: unknown, home: string | PlaceEnvironment): ConfigValidation {
  const problems: ConfigProblem[] = [];
  const result = ConfigSchema.safeParse(raw);
  if (!result.success) {
    for (const issue of result.error.issues) problems.push(...describeIssue(issue));
  }
  if (typeof raw === "object" && raw !== null && !Array.isArray(raw)) {
    const environment = typeof home === "string" ? { home, homes: [normalizePosix(home)] } : home;
    // Where the schema already found a problem at a path, it is the one said there.
    const said = new Set(problems.map((p) => p.path));
    for (const problem of configPlaceProblems(raw, environment))
      if (!said.has(problem.path)) problems.push(problem);
  }
  if (problems.length > 0 || !result.success) return { ok: false, problems };
  return { ok: true, config: result.data };
}

const joinPath = (path: readonly PropertyKey[]) =>
  path.map((key, i) => (typeof key === "number" ? `[${key}]` : `${i ? "." : ""}${String(key)}`)).join("") ||
  "(top level)";

function describeIssue(issue: z.core.$ZodIssue): ConfigProblem[] {
  if (issue.code === "unrecognized_keys") {
    const known = knownKeysAt(issue.path);
    return issue.keys.map((key) => {
      const suggestion = closestKey(key, known);
      // A record's keys are few and fixed (the agents of `quota.agents`): name them all.
      const hint = suggestion
        ? ` (did you mean "${suggestion}"?)`
        : known.length > 0 && known.length <= 8
          ? ` (one of ${known.join(", ")})`
          : "";
      return { path: joinPath([...issue.path, key]), message: `unknown key${hint}` };
    });
  }
  if (issue.code === "invalid_type" && issue.path.length === 0)
    return [{ path: "(top level)", message: "must be a JSON object" }];
  return [{ path: joinPath(issue.path), message: issue.message }];
}

/** The keys the schema allows at a path, to suggest the one a typo meant. */
function knownKeysAt(path: readonly PropertyKey[]): string[] {
  let schema: z.core.$ZodType | undefined = ConfigSchema;
  for (const key of [...path, undefined]) {
    // Look through default/prefault/optional/nullable wrappers to the object or array inside.
    let def: z.core.$ZodTypeDef | undefined = schema?._zod.def;
    while (def && "innerType" in def) def = (def.innerType as z.core.$ZodType)._zod.def;
    if (!def) return [];
    if (key === undefined) {
      if (def.type === "object") return Object.keys((def as z.core.$ZodObjectDef).shape);
      const keyDef = def.type === "record" ? (def as z.core.$ZodRecordDef).keyType._zod.def : undefined;
      return keyDef?.type === "enum" ? Object.values((keyDef as z.core.$ZodEnumDef).entries).map(String) : [];
    }
    if (def.type === "object") schema = (def as z.core.$ZodObjectDef).shape[key as string];
    else if (def.type === "record") schema = (def as z.core.$ZodRecordDef).valueType;
    else if (def.type === "array") schema = (def as z.core.$ZodArrayDef).element;
    else return [];
  }
  return [];
}

function closestKey(key: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(key.length / 3)) + 1;
  for (const candidate of known) {
    const distance = editDistance(key.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  return best;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++)
      current[j] = Math.min(
        previous[j]! + 1,
        current[j - 1]! + 1,
        previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    previous = current;
  }
  return previous[b.length]!;
}

/** The JSON Schema of the file, for editors (`"$schema"`) and `session-retention config schema`. */
export function configJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(ConfigSchema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
}
