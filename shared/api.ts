// Payloads of the HTTP API, shared by the server (which validates what it sends) and the web app.
import { z } from "zod";
import { AuditEntrySchema } from "./audit.js";
import { ConfigSchema, QUOTA_MODES } from "./config.js";
import { QuotaStateSchema } from "./plan.js";
import { NamespaceUsageSchema, ScanProblemSchema, ScanSummarySchema } from "./scan-report.js";
import { FingerprintSchema, SessionRecordSchema, StoreRefSchema } from "./session-record.js";
import { SessionFilterSchema } from "./session-filter.js";

/** Where the dashboard's data comes from: the user's pi stores, or a generated demo store. */
export const DataSourceSchema = z.object({
  kind: z.enum(["pi", "demo"]),
  /** Shown on screen, e.g. why a demo store is used. */
  note: z.string().optional(),
});
export type DataSource = z.infer<typeof DataSourceSchema>;

const ConfigProblemSchema = z.object({ path: z.string(), message: z.string() });

/** The config as the dashboard needs it: where quota stands, and whether anything may be deleted. */
export const PolicyStatusSchema = z.object({
  configPath: z.string(),
  /** "invalid": the file has problems and the program runs read-only. */
  source: z.enum(["file", "defaults", "invalid"]),
  problems: z.array(ConfigProblemSchema),
  /** Absent while the config is invalid. */
  mode: z.enum(QUOTA_MODES).optional(),
  quota: QuotaStateSchema.optional(),
  readOnly: z.boolean(),
});
export type PolicyStatus = z.infer<typeof PolicyStatusSchema>;

export const SummaryResponseSchema = z.object({
  source: DataSourceSchema,
  policy: PolicyStatusSchema,
  scannedAt: z.string(),
  stores: z.array(StoreRefSchema),
  summary: ScanSummarySchema,
  namespaces: z.array(NamespaceUsageSchema),
  problems: z.array(ScanProblemSchema),
  /** "100% in N days at the 7-day rate", when there is enough history. */
  forecast: z.lazy(() => ForecastSchema).optional(),
});
export type SummaryResponse = z.infer<typeof SummaryResponseSchema>;

export const ErrorResponseSchema = z.object({
  error: z.object({ code: z.string(), message: z.string() }),
});
export type ErrorResponse = z.infer<typeof ErrorResponseSchema>;

/**
 * A session id as the API accepts it: opaque, resolved only against the server's own index. Path
 * separators, `%`, NUL and other controls are refused outright (400), so nothing that looks like a
 * path ever gets near the file system.
 */
export const SessionIdSchema = z
  .string()
  .min(1)
  .max(256)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:+@=-]*$/, { error: "not a session id" });

export const ProtectRequestSchema = z.strictObject({
  ids: z.array(SessionIdSchema).min(1).max(10_000),
  /** true: pin; false: unpin. */
  protect: z.boolean(),
});
export type ProtectRequest = z.infer<typeof ProtectRequestSchema>;

export const ProtectResponseSchema = z.object({
  /** Ids whose pin changed (pinned, or unpinned). */
  changed: z.array(z.string()),
  /** Ids that were already as asked. */
  unchanged: z.array(z.string()),
});
export type ProtectResponse = z.infer<typeof ProtectResponseSchema>;

/** `GET /api/sessions`: sort, filter, search and page the sessions. */
export const SessionsQuerySchema = z.strictObject({
  sort: z.enum(["lru", "size", "created"]).default("lru"),
  namespace: z.string().max(4096).optional(),
  store: z.enum(["pi", "agentsh", "workspace"]).optional(),
  tag: z.string().max(256).optional(),
  /** Case-insensitive text in the path, name, summary or namespace. */
  text: z.string().max(256).optional(),
  offset: z.coerce.number().int().nonnegative().default(0),
  limit: z.coerce.number().int().positive().max(100_000).default(100_000),
});
export type SessionsQuery = z.infer<typeof SessionsQuerySchema>;

/** One row of the sessions table, decoded: what the table shows and filters on, nothing more. */
export interface SessionRow {
  id: string;
  path: string;
  store: "pi" | "agentsh" | "workspace";
  namespace: string;
  sizeBytes: number;
  createdAt: string;
  modifiedAt: string;
  lastUsedAt: string;
  messageCount: number;
  name?: string;
  tags?: string[];
  warnings: number;
  /** Why it may not be removed, when it may not ("active", "pinned", …). */
  kept?: string;
}

/**
 * The sessions table on the wire, compact enough for 100,000 rows: every store root and namespace
 * once, and one array per session — [id, root index, path below the root, namespace index, bytes,
 * created and modified (epoch seconds), last used (seconds after modified), messages, name, tags,
 * warnings, kept].
 */
export const SessionsResponseSchema = z.object({
  total: z.number(),
  /** Matching the filter, before paging. */
  matching: z.number(),
  roots: z.array(StoreRefSchema),
  namespaces: z.array(z.string()),
  rows: z.array(
    z.tuple([
      z.string(),
      z.number(),
      z.string(),
      z.number(),
      z.number(),
      z.number(),
      z.number(),
      z.number(),
      z.number(),
      z.string().nullable(),
      z.array(z.string()).nullable(),
      z.number(),
      z.string().nullable(),
    ]),
  ),
});
export type SessionsResponse = z.infer<typeof SessionsResponseSchema>;

/** The rows as objects, for the table. */
export function decodeSessionRows(response: SessionsResponse): SessionRow[] {
  const iso = (seconds: number) => new Date(seconds * 1000).toISOString();
  return response.rows.map(
    ([
      id,
      root,
      path,
      ns,
      sizeBytes,
      created,
      modified,
      lastUsed,
      messageCount,
      name,
      tags,
      warnings,
      kept,
    ]) => {
      const store = response.roots[root]!;
      return {
        id,
        path: `${store.root}/${path}`,
        store: store.kind,
        namespace: response.namespaces[ns]!,
        sizeBytes,
        createdAt: iso(created),
        modifiedAt: iso(modified),
        lastUsedAt: iso(modified + lastUsed),
        messageCount,
        ...(name !== null ? { name } : {}),
        ...(tags !== null ? { tags } : {}),
        warnings,
        ...(kept !== null ? { kept } : {}),
      };
    },
  );
}

/**
 * `POST /api/plan/selection`: a hand selection as opaque ids (small: the body limit is 64 KiB), or
 * "every session matching this filter", evaluated by the server on its own index with the same
 * function the table filters with — for a selection of any size. Either way exemptions apply.
 */
export const PlanSelectionRequestSchema = z.union([
  z.strictObject({ ids: z.array(SessionIdSchema).min(1).max(100_000) }),
  z.strictObject({ filter: SessionFilterSchema }),
]);
export type PlanSelectionRequest = z.input<typeof PlanSelectionRequestSchema>;

/** `POST /api/delete`: session ids with the fingerprints the preview saw. */
export const DeleteRequestSchema = z.strictObject({
  items: z
    .array(z.strictObject({ id: SessionIdSchema, fingerprint: FingerprintSchema }))
    .min(1)
    .max(10_000),
  dryRun: z.boolean().default(false),
});
export type DeleteRequest = z.infer<typeof DeleteRequestSchema>;

export const TrashRefsSchema = z.strictObject({
  refs: z
    .array(
      z
        .string()
        .min(1)
        .max(256)
        .regex(/^[A-Za-z0-9][A-Za-z0-9._:+@=-]*$/, { error: "not a trash entry or session id" }),
    )
    .min(1)
    .max(10_000),
});
export const PurgeRequestSchema = TrashRefsSchema.extend({
  /** "COUNT:BYTES" of exactly what will be purged. */
  confirm: z.string().regex(/^\d+:\d+$/, { error: "must be COUNT:BYTES" }),
});

export const AuditQuerySchema = z.strictObject({
  offset: z.coerce.number().int().nonnegative().default(0),
  limit: z.coerce.number().int().positive().max(1000).default(100),
  action: AuditEntrySchema.shape.action.optional(),
  actor: AuditEntrySchema.shape.actor.optional(),
});
export type AuditQuery = z.infer<typeof AuditQuerySchema>;

export const ForecastSchema = z.object({
  ratePerDay: z.number(),
  daysToFull: z.number().nullable(),
  estimated: z.boolean().optional(),
});

/**
 * `GET /api/growth?days=7|30[&namespace=…][&by=namespace]`: the series the charts draw, and the
 * forecast; with `by=namespace` also the daily points split by namespace, ready to stack.
 */
export const GrowthResponseSchema = z.object({
  days: z.number(),
  namespace: z.string().optional(),
  points: z.array(
    z.object({ t: z.string(), bytes: z.number(), count: z.number(), estimated: z.boolean().optional() }),
  ),
  forecast: ForecastSchema.optional(),
  /** See `growthByNamespace` in growth.ts: the top namespaces, the rest as "other". */
  byNamespace: z
    .object({
      namespaces: z.array(z.string()),
      otherNamespaces: z.number().int().nonnegative(),
      points: z.array(
        z.object({
          t: z.string(),
          bytes: z.number(),
          series: z.array(z.number()),
          estimated: z.boolean().optional(),
        }),
      ),
    })
    .optional(),
});
export type GrowthResponse = z.infer<typeof GrowthResponseSchema>;

export const GrowthQuerySchema = z.strictObject({
  days: z.coerce.number().int().positive().max(400).default(30),
  namespace: z.string().max(4096).optional(),
  /** "namespace": add the breakdown by namespace. */
  by: z.enum(["total", "namespace"]).default("total"),
});

/** `GET /api/sessions/:id`: everything known about one session. */
export const SessionDetailResponseSchema = z.object({
  session: SessionRecordSchema,
  /** Why it may not be removed, when it may not. */
  kept: z.object({ reason: z.string(), detail: z.string() }).optional(),
  /** pi sessions: what the file holds. */
  detail: z
    .object({
      entryTypes: z.record(z.string(), z.number()),
      leaves: z.number(),
      branchPoints: z.number(),
      compactions: z.number(),
      firstUserMessage: z.string().optional(),
      longLines: z.number(),
    })
    .optional(),
  lineage: z.object({
    parent: z.object({ id: z.string(), path: z.string() }).optional(),
    forks: z.array(z.object({ id: z.string(), path: z.string() })),
  }),
});
export type SessionDetailResponse = z.infer<typeof SessionDetailResponseSchema>;

/** `GET /api/audit?offset&limit`: newest first. */
export const AuditPageSchema = z.object({
  total: z.number().int().nonnegative(),
  entries: z.array(AuditEntrySchema),
});
export type AuditPage = z.infer<typeof AuditPageSchema>;

/**
 * `GET /api/policy` and the answer to `PUT`: the file's own JSON (what the editor starts from, so
 * saving never writes every default into it), and the effective config when the file is valid.
 */
export const PolicyResponseSchema = z.object({
  path: z.string(),
  source: z.enum(["file", "defaults", "invalid"]),
  /** The file's JSON; absent when there is no file or it is not JSON. */
  raw: z.unknown().optional(),
  /** With defaults filled in; absent while the file is invalid. */
  config: ConfigSchema.optional(),
  problems: z.array(ConfigProblemSchema),
});
export type PolicyResponse = z.infer<typeof PolicyResponseSchema>;

/** The 400 of `PUT /api/policy` and `POST /api/plan/preview`: every problem with its JSON path. */
export const InvalidConfigErrorSchema = z.object({
  error: z.object({
    code: z.literal("invalid_config"),
    message: z.string(),
    problems: z.array(ConfigProblemSchema),
  }),
});

/** `POST /api/scan` (202): false when a scan was already running (follow that one). */
export const ScanStartSchema = z.object({ started: z.boolean() });
