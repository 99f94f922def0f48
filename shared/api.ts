// Payloads of the HTTP API, shared by the server (which validates what it sends) and the web app.
import { z } from "zod";
import { AuditEntrySchema } from "./audit.js";
import { ConfigSchema, QUOTA_MODES } from "./config.js";
import { ExternalSweepSchema, QuotaStateSchema } from "./plan.js";
import {
  AgentUsageSchema,
  NamespaceUsageSchema,
  PiWithoutExtensionSchema,
  ScanProblemSchema,
  ScanSummarySchema,
} from "./scan-report.js";
import {
  FingerprintSchema,
  SessionRecordSchema,
  type StoreKind,
  StoreKindSchema,
  StoreRefSchema,
} from "./session-record.js";
import { SessionFilterSchema } from "./session-filter.js";
import { MAX_IDS_PER_REQUEST, MAX_SELECTION_IDS } from "./request-limits.js";
import { CleanupSinceSchema, PURGE_CONFIRMATION_FORM, SoftDeleteResultSchema } from "./trash.js";

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
  /** Where each agent with a limit in `quota.agents` stands against it. */
  agentQuotas: z.partialRecord(StoreKindSchema, QuotaStateSchema).optional(),
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
  /** Per agent (store kind): its sessions, bytes and namespaces, biggest first. */
  agents: z.array(AgentUsageSchema),
  problems: z.array(ScanProblemSchema),
  /** Per store: its sessions, and how much there is not a session of it (left alone). */
  findings: z.array(
    z.object({
      store: StoreRefSchema,
      sessions: z.number().int().nonnegative(),
      notSessions: z.number().int().nonnegative(),
      notSessionBytes: z.number().int().nonnegative(),
    }),
  ),
  /** What agents' own retention (Claude Code's cleanup) will delete next, whatever our policy says. */
  externalSweeps: z.array(ExternalSweepSchema).optional(),
  /** pi processes running without our extension: their sessions are kept by a rougher rule. */
  piWithoutExtension: z.array(PiWithoutExtensionSchema).optional(),
  /** "100% in N days at the 7-day rate", when there is enough history. */
  forecast: z.lazy(() => ForecastSchema).optional(),
  /** The look this answer comes from (see `LookEventSchema`). */
  version: z.number().int().nonnegative().optional(),
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
  ids: z.array(SessionIdSchema).min(1).max(MAX_IDS_PER_REQUEST),
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

/** `POST /api/keep`: keep Claude Code sessions from Claude's own cleanup (their file time becomes now). */
export const KeepRequestSchema = z.strictObject({
  ids: z.array(SessionIdSchema).min(1).max(MAX_IDS_PER_REQUEST),
});
export type KeepRequest = z.infer<typeof KeepRequestSchema>;

export const KeepResponseSchema = z.object({
  /** Each session kept, with the file time it had before. */
  kept: z.array(z.object({ id: z.string(), path: z.string(), before: z.string() })),
});
export type KeepResponse = z.infer<typeof KeepResponseSchema>;

/** `GET /api/sessions`: sort, filter, search and page the sessions. */
export const SessionsQuerySchema = z.strictObject({
  sort: z.enum(["lru", "size", "created"]).default("lru"),
  namespace: z.string().max(4096).optional(),
  store: StoreKindSchema.optional(),
  tag: z.string().max(256).optional(),
  /** Case-insensitive text in the path, name, first message, summary or namespace. */
  text: z.string().max(256).optional(),
  offset: z.coerce.number().int().nonnegative().default(0),
  limit: z.coerce.number().int().positive().max(100_000).default(100_000),
});
export type SessionsQuery = z.infer<typeof SessionsQuerySchema>;

/** One row of the sessions table, decoded: what the table shows and filters on, nothing more. */
export interface SessionRow {
  id: string;
  path: string;
  store: StoreKind;
  namespace: string;
  sizeBytes: number;
  /** Epoch seconds: what the table sorts on (cheap to compare, nothing to allocate). */
  createdSeconds: number;
  modifiedSeconds: number;
  lastUsedSeconds: number;
  /** The same times as ISO strings, for display (decoded rows make them only when read). */
  readonly createdAt: string;
  readonly modifiedAt: string;
  readonly lastUsedAt: string;
  messageCount: number;
  name?: string;
  tags?: string[];
  warnings: number;
  /** Why it may not be removed, when it may not ("active", "pinned", …). */
  kept?: string;
  /** The first user message, one short line: the title of a session without a name or last prompt. */
  firstMessage?: string;
  /** The policy's verdict (a `VerdictCode`: the rule that would clean it, or why it is kept). */
  verdict?: string;
  /** The last prompt, one short line, where the agent titles a session by it (Claude Code). */
  lastPrompt?: string;
  /** Its agent's user archived it (Claude Code). */
  archived?: true;
}

/**
 * The sessions table on the wire, compact enough for 100,000 rows: every store root and namespace
 * once, and one array per session — [id, root index, path below the root (see `rowPath`), namespace
 * index, bytes, created and modified (epoch seconds), last used (seconds after modified), messages,
 * name, tags, warnings, kept, first message (one line of at most 80 characters: session-title.ts),
 * the policy's verdict (a `VerdictCode`, null without a valid policy), last prompt (as the first
 * message; null when there is none or it is the first message), archived (1, or null)].
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
      z.string().nullable(),
      z.string().nullable(),
      z.string().nullable(),
      z.literal(1).nullable(),
    ]),
  ),
  /** Each verdict code's words for the current policy ("would clean · older than 30 days"). */
  verdicts: z.record(z.string(), z.string()).optional(),
  /** The look this answer comes from (see `LookEventSchema`). */
  version: z.number().int().nonnegative().optional(),
});
export type SessionsResponse = z.infer<typeof SessionsResponseSchema>;

/** One row on the wire (see `SessionsResponseSchema`). */
export type SessionRowTuple = SessionsResponse["rows"][number];

/**
 * The sessions table's envelope; the rows are checked by `isSessionRowTuple`, which agrees with
 * the row schema above (a test holds them together) at a fraction of its cost: at 100,000 rows
 * zod's per-element parse is a noticeable part of opening the sessions page.
 */
export const SessionsEnvelopeSchema = SessionsResponseSchema.extend({ rows: z.array(z.unknown()) });

const isNumber = (value: unknown): value is number => typeof value === "number";
const isString = (value: unknown): value is string => typeof value === "string";

/** True when `row` has the shape of `SessionsResponseSchema`'s row tuple. */
export function isSessionRowTuple(row: unknown): row is SessionRowTuple {
  if (!Array.isArray(row) || row.length !== 17) return false;
  const tags: unknown = row[10];
  return (
    isString(row[0]) &&
    isNumber(row[1]) &&
    isString(row[2]) &&
    isNumber(row[3]) &&
    isNumber(row[4]) &&
    isNumber(row[5]) &&
    isNumber(row[6]) &&
    isNumber(row[7]) &&
    isNumber(row[8]) &&
    (row[9] === null || isString(row[9])) &&
    (tags === null || (Array.isArray(tags) && tags.every(isString))) &&
    isNumber(row[11]) &&
    (row[12] === null || isString(row[12])) &&
    (row[13] === null || isString(row[13])) &&
    (row[14] === null || isString(row[14])) &&
    (row[15] === null || isString(row[15])) &&
    (row[16] === null || row[16] === 1)
  );
}

/**
 * The answer as the schema's type when every row has the row's shape and names a root and a
 * namespace that the answer has; undefined otherwise.
 */
export function checkSessionsResponse(value: unknown): SessionsResponse | undefined {
  const envelope = SessionsEnvelopeSchema.safeParse(value);
  if (!envelope.success) return undefined;
  const { rows, roots, namespaces } = envelope.data;
  for (const row of rows)
    if (!isSessionRowTuple(row) || !(row[1] in roots) || !(row[3] in namespaces)) return undefined;
  return envelope.data as SessionsResponse;
}

/** Stands for `<id>.jsonl` at the end of a row's path: no path can hold a NUL. */
const ID_FILE = "\u0000";

/**
 * A session's path below its root as a row sends it. pi names a file `<time>_<id>.jsonl`, so the id
 * the row already carries is left out of the name (~3.6 MB of 19 at 100,000 sessions).
 */
export function rowPath(pathBelowRoot: string, id: string): string {
  const idFile = `${id}.jsonl`;
  return pathBelowRoot.endsWith(`_${idFile}`)
    ? pathBelowRoot.slice(0, -idFile.length) + ID_FILE
    : pathBelowRoot;
}

/** The path below the root that `rowPath` stands for. */
export function pathOfRow(sent: string, id: string): string {
  return sent.endsWith(ID_FILE) ? `${sent.slice(0, -ID_FILE.length)}${id}.jsonl` : sent;
}

const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

/**
 * A decoded row. The ISO times are made when read — only for the rows on screen — because at
 * 100,000 sessions making 300,000 of them up front was most of the decoding time and memory.
 */
class DecodedSessionRow implements SessionRow {
  name?: string;
  tags?: string[];
  kept?: string;
  firstMessage?: string;
  verdict?: string;
  lastPrompt?: string;
  archived?: true;
  constructor(
    readonly id: string,
    readonly path: string,
    readonly store: SessionRow["store"],
    readonly namespace: string,
    readonly sizeBytes: number,
    readonly createdSeconds: number,
    readonly modifiedSeconds: number,
    readonly lastUsedSeconds: number,
    readonly messageCount: number,
    readonly warnings: number,
  ) {}
  get createdAt() {
    return iso(this.createdSeconds);
  }
  get modifiedAt() {
    return iso(this.modifiedSeconds);
  }
  get lastUsedAt() {
    return iso(this.lastUsedSeconds);
  }
  /** Plain data (with the ISO times), e.g. for JSON and for comparing in tests. */
  toJSON(): SessionRow {
    return {
      ...this,
      createdAt: this.createdAt,
      modifiedAt: this.modifiedAt,
      lastUsedAt: this.lastUsedAt,
    };
  }
}

/** The rows as objects, for the table. */
export function decodeSessionRows(response: SessionsResponse): SessionRow[] {
  const { roots, namespaces } = response;
  const rootPaths = roots.map((r) => `${r.root}/`);
  const rows = response.rows;
  const decoded = new Array<SessionRow>(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const [
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
      firstMessage,
      verdict,
      lastPrompt,
      archived,
    ] = rows[i]!;
    const row = new DecodedSessionRow(
      id,
      rootPaths[root]! + pathOfRow(path, id),
      roots[root]!.kind,
      namespaces[ns]!,
      sizeBytes,
      created,
      modified,
      modified + lastUsed,
      messageCount,
      warnings,
    );
    if (name !== null) row.name = name;
    if (tags !== null) row.tags = tags;
    if (kept !== null) row.kept = kept;
    if (firstMessage !== null) row.firstMessage = firstMessage;
    if (verdict !== null) row.verdict = verdict;
    if (lastPrompt !== null) row.lastPrompt = lastPrompt;
    if (archived !== null) row.archived = true;
    decoded[i] = row;
  }
  return decoded;
}

/**
 * `GET /api/events`: the server's event stream (server-sent events, read with fetch and the token
 * header). Event `look` carries this schema each time the server's look at the stores moves on —
 * a session appended to, a file new or gone, a rescan — batched, a few a second at most. Event
 * `watch` carries `WatchStatusSchema` when the stream opens and whenever it changes.
 *
 * A page that holds the table of look `from` applies `sessions` as a change: the rows in `upserted`
 * replace (or add) the rows of the same id, the ids in `removed` go. Its rows are encoded against
 * this event's `roots` and `namespaces`, which — like `verdicts` — are the whole table's. A page that
 * holds any other look reloads the table. While a page follows the stream, every look is sent, so
 * the `version` of any `/api/sessions` answer is the `from` of the next `look` event.
 */
export const LookEventSchema = z.object({
  /** This look's number: it grows by one each time the look changes. */
  version: z.number().int().nonnegative(),
  /** The look this one's `sessions` change is relative to. */
  from: z.number().int().nonnegative(),
  summary: SummaryResponseSchema,
  sessions: SessionsResponseSchema.omit({ matching: true, rows: true }).extend({
    upserted: SessionsResponseSchema.shape.rows,
    removed: z.array(z.string()),
  }),
});
export type LookEvent = z.infer<typeof LookEventSchema>;

/** How the server follows the stores: by watching them, or by rescanning when it cannot watch. */
export const WatchStatusSchema = z.object({
  mode: z.enum(["watching", "rescanning", "off"]),
  /** Why the server cannot watch, and what to do about it (the inotify watch limit, say). */
  message: z.string().optional(),
  /**
   * The last check of the watched look against a full rescan: how many changes it found that the
   * watcher missed (0 is the only good answer), and how many in all since the server started.
   */
  reconciled: z
    .object({
      at: z.string(),
      missed: z.number().int().nonnegative(),
      missedTotal: z.number().int().nonnegative(),
    })
    .optional(),
});
export type WatchStatus = z.infer<typeof WatchStatusSchema>;

/**
 * `POST /api/plan/selection`: a hand selection as opaque ids (small: the body limit is 64 KiB), or
 * "every session matching this filter", evaluated by the server on its own index with the same
 * function the table filters with — for a selection of any size. Either way exemptions apply.
 */
export const PlanSelectionRequestSchema = z.union([
  z.strictObject({ ids: z.array(SessionIdSchema).min(1).max(MAX_SELECTION_IDS) }),
  z.strictObject({ filter: SessionFilterSchema }),
]);
export type PlanSelectionRequest = z.input<typeof PlanSelectionRequestSchema>;

/**
 * `POST /api/delete`: the plan a preview showed, by its `previewId` (the server executes exactly
 * its candidates, with the fingerprints it saw, in one request of any size), or session ids with
 * the fingerprints the preview saw (for scripts; one 64 KiB body holds a few hundred).
 */
export const DeleteRequestSchema = z.union([
  z
    .strictObject({
      previewId: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, { error: "not a preview id" }),
      /** The candidates left ticked in the review, when not all: only these of the preview go… */
      ids: z.array(SessionIdSchema).min(1).max(MAX_SELECTION_IDS).optional(),
      /** …or all of it but these, the ones unticked (the shorter list fits the 64 KiB body). */
      except: z.array(SessionIdSchema).min(1).max(MAX_SELECTION_IDS).optional(),
      dryRun: z.boolean().default(false),
    })
    .refine((r) => r.ids === undefined || r.except === undefined, {
      error: "name the ticked sessions (ids) or the unticked ones (except), not both",
    }),
  z.strictObject({
    items: z
      .array(z.strictObject({ id: SessionIdSchema, fingerprint: FingerprintSchema }))
      .min(1)
      .max(MAX_IDS_PER_REQUEST),
    dryRun: z.boolean().default(false),
  }),
]);
export type DeleteRequest = z.infer<typeof DeleteRequestSchema>;

/**
 * A delete the dashboard started as an operation (`POST /api/operations/delete`, same body as
 * `/api/delete`), as `GET /api/operations/current` tells it: running with its progress, or its
 * result, kept until dismissed or until the next operation starts — so a page that was reloaded or
 * left mid-run finds the result and its Undo waiting.
 */
const OperationIdSchema = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, { error: "not an operation id" });
const OperationBase = { id: OperationIdSchema, kind: z.literal("delete"), startedAt: z.iso.datetime() };
export const OperationStatusSchema = z.discriminatedUnion("state", [
  z.object({ state: z.literal("none") }),
  z.object({
    state: z.literal("running"),
    ...OperationBase,
    /** "preparing": the fresh scan and checks before the first move; "moving": item by item. */
    phase: z.enum(["preparing", "moving"]),
    done: z.number().int().nonnegative(),
    total: z.number().int().nonnegative(),
    /** A stop was asked for: the run ends after the current item. */
    stopRequested: z.boolean(),
  }),
  z.object({
    state: z.literal("finished"),
    ...OperationBase,
    finishedAt: z.iso.datetime(),
    result: SoftDeleteResultSchema,
    /** What became of what it moved, read from the journal at each request (an undo by any means shows). */
    since: CleanupSinceSchema.optional(),
  }),
  z.object({
    state: z.literal("failed"),
    ...OperationBase,
    finishedAt: z.iso.datetime(),
    error: z.string(),
  }),
]);
export type OperationStatus = z.infer<typeof OperationStatusSchema>;

/** `POST /api/operations/current/stop` and `…/dismiss`: which operation (a stale page's stop is refused). */
export const OperationRefSchema = z.strictObject({ id: OperationIdSchema });

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
    .max(MAX_IDS_PER_REQUEST),
});
export const PurgeRequestSchema = TrashRefsSchema.extend({
  /** "COUNT:BYTES" of exactly what will be purged. */
  confirm: z.string().regex(PURGE_CONFIRMATION_FORM, { error: "must be COUNT:BYTES" }),
});
/**
 * `POST /api/trash/empty`: purge what was deleted more than `olderThanDays` days ago. The same
 * guard as a purge: `confirm` must be the count and bytes of exactly what that takes now.
 */
export const EmptyTrashRequestSchema = z.strictObject({
  olderThanDays: z.number().int().positive().max(36_500),
  confirm: PurgeRequestSchema.shape.confirm,
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
  /** The policy's verdict ("would clean · older than 30 days"), when the policy is valid. */
  verdict: z.object({ clean: z.boolean(), text: z.string() }).optional(),
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
  /** The sessions it was forked from and forked into, with their titles (session-title.ts). */
  lineage: z.object({
    parent: z.object({ id: z.string(), path: z.string(), title: z.string().optional() }).optional(),
    forks: z.array(z.object({ id: z.string(), path: z.string(), title: z.string().optional() })),
  }),
  /**
   * Its family (a Codex thread and its forks), when it has one: every session of it, and which of
   * them a selection of the whole family may clean (a session kept only for its forks may go with
   * them; one kept for another reason may not).
   */
  family: z
    .object({
      id: z.string(),
      sessions: z.array(z.object({ id: z.string(), path: z.string(), sizeBytes: z.number() })),
      selectable: z.array(z.string()),
    })
    .optional(),
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
  /** The server's home folder: the editor checks folders by the same rules (`~/…`, not home itself). */
  home: z.string().optional(),
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
