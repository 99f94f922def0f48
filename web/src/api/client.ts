// The only module that knows the API's URLs: one typed function per endpoint. Every answer is
// validated with the shared schemas, so a server/web mismatch shows up as a clear error instead of
// a broken page. The token goes in the Authorization header, never in a URL.
import type { z } from "zod";
import {
  type AuditPage,
  AuditPageSchema,
  type AuditQuery,
  checkSessionsResponse,
  decodeSessionRows,
  type DeleteRequest,
  type GrowthResponse,
  GrowthResponseSchema,
  InvalidConfigErrorSchema,
  type KeepResponse,
  LookEventSchema,
  KeepResponseSchema,
  type OperationStatus,
  OperationStatusSchema,
  type PlanSelectionRequest,
  type PolicyResponse,
  PolicyResponseSchema,
  type ProtectResponse,
  ProtectResponseSchema,
  ScanStartSchema,
  type SessionDetailResponse,
  SessionDetailResponseSchema,
  type SessionRow,
  type SessionsQuery,
  type SessionsResponse,
  type SummaryResponse,
  SummaryResponseSchema,
  type WatchStatus,
  WatchStatusSchema,
} from "../../../shared/api.js";
import type { ConfigProblem } from "../../../shared/config.js";
import {
  type Plan,
  type PlanPreview,
  PlanPreviewSchema,
  PlanSchema,
  type PlanSummary,
  PlanSummarySchema,
} from "../../../shared/plan.js";
import { type ScanProgress, ScanProgressSchema } from "../../../shared/scan-report.js";
import {
  type SoftDeleteResult,
  SoftDeleteResultSchema,
  type TrashActionResult,
  TrashActionResultSchema,
  type TrashList,
  TrashListSchema,
} from "../../../shared/trash.js";
import { readEventStream } from "./event-stream.js";

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    /** The config's problems, for `invalid_config` answers (policy save and preview). */
    readonly problems: ConfigProblem[] = [],
  ) {
    super(message);
    this.name = "ApiError";
  }
}

/**
 * A look of the live stream (`LookEvent`), decoded: its summary, and its sessions change with the
 * rows as the sessions table holds them (plain strings: no root or namespace index).
 */
export interface LookChange {
  /** This look's number. */
  version: number;
  /** The look `sessions` is a change from. */
  from: number;
  summary: SummaryResponse;
  sessions: {
    total: number;
    namespaces: string[];
    verdicts?: Record<string, string>;
    /** Rows new or changed since look `from`. */
    upserted: SessionRow[];
    /** Ids gone since look `from`. */
    removed: string[];
  };
}

/** The event without its sessions change, which is checked the fast way (see checkSessionsResponse). */
const LookEnvelopeSchema = LookEventSchema.omit({ sessions: true });

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/** A `look` event's data decoded, or undefined when it is not one. */
export function decodeLook(value: unknown): LookChange | undefined {
  const envelope = LookEnvelopeSchema.safeParse(value);
  if (!envelope.success) return undefined;
  const sessions = (value as { sessions?: unknown }).sessions;
  if (typeof sessions !== "object" || sessions === null) return undefined;
  const { upserted, removed } = sessions as { upserted?: unknown; removed?: unknown };
  if (!Array.isArray(removed) || !removed.every((id) => typeof id === "string")) return undefined;
  // The upserted rows are encoded against the event's own roots and namespaces: checked and
  // decoded as a sessions answer of just those rows.
  const table = checkSessionsResponse({ ...sessions, rows: upserted, matching: 0 });
  if (!table) return undefined;
  const { version, from, summary } = envelope.data;
  return {
    version,
    from,
    summary: { ...summary, version },
    sessions: {
      total: table.total,
      namespaces: table.namespaces,
      ...(table.verdicts ? { verdicts: table.verdicts } : {}),
      upserted: decodeSessionRows(table),
      removed: removed as string[],
    },
  };
}

const TOKEN_KEY = "session-retention-token";

/**
 * The per-launch token: taken once from the address's fragment (`#token=…`, which browsers never
 * send anywhere), kept in this tab's sessionStorage, and removed from the address bar.
 */
export function takeToken(): string | undefined {
  const match = /(?:^#|&)token=([A-Za-z0-9_-]+)/.exec(location.hash);
  if (match) {
    sessionStorage.setItem(TOKEN_KEY, match[1]!);
    // Only the token leaves the address: `#/sessions&token=…` keeps its page.
    const rest = location.hash.replace(match[0], "").replace(/^#&?/, "");
    history.replaceState(null, "", location.pathname + location.search + (rest ? `#${rest}` : ""));
  }
  return sessionStorage.getItem(TOKEN_KEY) ?? undefined;
}

export interface ApiClientOptions {
  /** Default: the page's own origin. */
  base?: string;
  fetch?: typeof fetch;
  token?: () => string | undefined;
}

export type ReportFormat = "md" | "json";

export function createApiClient(options: ApiClientOptions = {}) {
  const base = options.base ?? "";
  const send = options.fetch ?? ((input, init) => fetch(input, init));
  const token = options.token ?? takeToken;

  async function raw(path: string, init: { method?: string; body?: unknown; accept?: string } = {}) {
    const bearer = token();
    const method = init.method ?? (init.body === undefined ? "GET" : "POST");
    let response: Response;
    try {
      response = await send(`${base}${path}`, {
        method,
        headers: {
          Accept: init.accept ?? "application/json",
          ...(init.body === undefined ? {} : { "Content-Type": "application/json" }),
          ...(bearer ? { Authorization: `Bearer ${bearer}` } : {}),
        },
        ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      });
    } catch {
      throw new ApiError(
        "The session-retention server is not reachable. Is `session-retention serve` still running?",
      );
    }
    if (response.status === 401)
      throw new ApiError(
        "This page has no valid access token. Open the address `session-retention serve` printed (it ends in #token=…).",
        401,
      );
    if (!response.ok) {
      const answer: unknown = await response.json().catch(() => undefined);
      const invalid = InvalidConfigErrorSchema.safeParse(answer);
      if (invalid.success)
        throw new ApiError(invalid.data.error.message, response.status, invalid.data.error.problems);
      const message = (answer as { error?: { message?: string } } | undefined)?.error?.message;
      throw new ApiError(message ?? `The server answered ${response.status}.`, response.status);
    }
    return response;
  }

  async function call<T>(
    schema: z.ZodType<T>,
    what: string,
    path: string,
    init?: { method?: string; body?: unknown },
  ): Promise<T> {
    const response = await raw(path, init);
    const parsed = schema.safeParse(await response.json().catch(() => undefined));
    if (!parsed.success)
      throw new ApiError(`The server sent ${what} this page does not understand (version mismatch?).`);
    return parsed.data;
  }

  const params = (values: Record<string, string | number | undefined>) => {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(values))
      if (value !== undefined) search.set(key, String(value));
    const text = search.toString();
    return text ? `?${text}` : "";
  };

  return {
    summary: (): Promise<SummaryResponse> => call(SummaryResponseSchema, "a summary", "/api/summary"),

    /** Starts a scan; false when one was already running (follow that one). */
    startScan: async (): Promise<boolean> =>
      (await call(ScanStartSchema, "a scan answer", "/api/scan", { body: {} })).started,

    /**
     * Follows the running scan's progress stream until it is done. Read with fetch, because
     * EventSource cannot send the Authorization header.
     */
    async followScan(onProgress: (progress: ScanProgress) => void, signal?: AbortSignal): Promise<void> {
      const response = await raw("/api/scan/progress", { accept: "text/event-stream" });
      await readEventStream(
        response,
        ({ event, data }) => {
          if (event === "done") return "stop";
          if (event === "progress") {
            const progress = ScanProgressSchema.safeParse(parseJson(data));
            if (progress.success) onProgress(progress.data);
          }
        },
        signal,
      );
    },

    /**
     * Follows the server's live look (`GET /api/events`) until the stream ends (resolves) or fails
     * (throws; an ApiError when the server refused it or has no such stream). `signal` stops it.
     * Each look comes decoded: its summary, and its sessions change with the rows as the table
     * holds them. An event this page cannot read is left out: the next look's `from` then names a
     * look the table does not hold, and the table reloads.
     */
    async events(
      on: { look: (change: LookChange) => void; watch: (status: WatchStatus) => void },
      signal?: AbortSignal,
    ): Promise<void> {
      const response = await raw("/api/events", { accept: "text/event-stream" });
      if (!response.headers.get("content-type")?.includes("text/event-stream")) {
        void response.body?.cancel().catch(() => {});
        throw new ApiError("This server sends no live events.", response.status);
      }
      await readEventStream(
        response,
        ({ event, data }) => {
          if (event === "watch") {
            const status = WatchStatusSchema.safeParse(parseJson(data));
            if (status.success) on.watch(status.data);
          } else if (event === "look") {
            const change = decodeLook(parseJson(data));
            if (change) on.look(change);
          }
        },
        signal,
      );
    },

    /** The sessions table: the compact wire form, and its rows decoded. */
    async sessions(
      query: Partial<SessionsQuery> = {},
    ): Promise<Omit<SessionsResponse, "rows"> & { rows: SessionRow[] }> {
      // Checked without zod's per-row parse (see checkSessionsResponse): 100,000 rows open fast.
      const answer: unknown = await (
        await raw(`/api/sessions${params(query)}`)
      )
        .json()
        .catch(() => undefined);
      const response = checkSessionsResponse(answer);
      if (!response)
        throw new ApiError(
          "The server sent a sessions table this page does not understand (version mismatch?).",
        );
      return { ...response, rows: decodeSessionRows(response) };
    },

    session: (id: string): Promise<SessionDetailResponse> =>
      call(SessionDetailResponseSchema, "a session", `/api/sessions/${encodeURIComponent(id)}`),

    protect: (ids: string[], protect: boolean): Promise<ProtectResponse> =>
      call(ProtectResponseSchema, "a protect answer", "/api/protect", { body: { ids, protect } }),

    /**
     * Keeps Claude Code sessions from Claude's own cleanup: each transcript's file time becomes now
     * (all or nothing: an id that names no Claude session of the store changes nothing).
     */
    keep: (ids: string[]): Promise<KeepResponse> =>
      call(KeepResponseSchema, "a keep answer", "/api/keep", { body: { ids } }),

    /** The policy's plan, kept by the server as a preview that a delete names by its id. */
    plan: (): Promise<PlanPreview> => call(PlanPreviewSchema, "a plan", "/api/plan"),

    /** The policy's plan without its lists: its totals and how many sessions it would clean. */
    planSummary: (): Promise<PlanSummary> => call(PlanSummarySchema, "a plan's summary", "/api/plan/summary"),

    /**
     * A selection as a plan — hand-picked ids (small), or every session matching a filter (any
     * size; the server evaluates it): candidates with rule `selected`, the selected but kept with
     * their reason.
     */
    planSelection: (selection: PlanSelectionRequest): Promise<PlanPreview> =>
      call(PlanPreviewSchema, "a plan", "/api/plan/selection", { body: selection }),

    /** The plan a proposed config would make; `ApiError.problems` says what is wrong with an invalid one. */
    previewPlan: (config: unknown): Promise<Plan> =>
      call(PlanSchema, "a plan", "/api/plan/preview", { body: { config } }),

    policy: (): Promise<PolicyResponse> => call(PolicyResponseSchema, "a policy", "/api/policy"),

    savePolicy: (config: unknown): Promise<PolicyResponse> =>
      call(PolicyResponseSchema, "a policy", "/api/policy", { method: "PUT", body: { config } }),

    deleteSessions: (request: DeleteRequest): Promise<SoftDeleteResult> =>
      call(SoftDeleteResultSchema, "a deletion result", "/api/delete", { body: request }),

    /** Starts the delete as the server's current operation; follow it with `operation()`. */
    startDelete: (request: DeleteRequest): Promise<OperationStatus> =>
      call(OperationStatusSchema, "an operation", "/api/operations/delete", { body: request }),
    /** The running delete's progress, or the last one's result until it is dismissed. */
    operation: (): Promise<OperationStatus> =>
      call(OperationStatusSchema, "an operation", "/api/operations/current"),
    /** Stop the running delete after its current item. */
    stopOperation: (id: string): Promise<OperationStatus> =>
      call(OperationStatusSchema, "an operation", "/api/operations/current/stop", { body: { id } }),
    /** Forget the finished delete's result (it was seen). */
    dismissOperation: (id: string): Promise<OperationStatus> =>
      call(OperationStatusSchema, "an operation", "/api/operations/current/dismiss", { body: { id } }),

    trash: (): Promise<TrashList> => call(TrashListSchema, "the trash", "/api/trash"),

    restore: (refs: string[]): Promise<TrashActionResult> =>
      call(TrashActionResultSchema, "a restore result", "/api/trash/restore", { body: { refs } }),

    /** `confirm` echoes "COUNT:BYTES" of exactly what will be purged. */
    purge: (refs: string[], confirm: string): Promise<TrashActionResult> =>
      call(TrashActionResultSchema, "a purge result", "/api/trash/purge", { body: { refs, confirm } }),
    /** Purge what was deleted more than `olderThanDays` ago; `confirm` is its "COUNT:BYTES". */
    emptyTrash: (olderThanDays: number, confirm: string): Promise<TrashActionResult> =>
      call(TrashActionResultSchema, "a purge result", "/api/trash/empty", {
        body: { olderThanDays, confirm },
      }),

    audit: (query: Partial<AuditQuery> = {}): Promise<AuditPage> =>
      call(AuditPageSchema, "the audit log", `/api/audit${params(query)}`),

    /** `by: "namespace"` adds the daily points split by namespace, ready to stack. */
    growth: (days: number, namespace?: string, by?: "namespace"): Promise<GrowthResponse> =>
      call(GrowthResponseSchema, "growth history", `/api/growth${params({ days, namespace, by })}`),

    /** A report's text: of the current plan, or of the cleanups since a time (or one of them). */
    async report(
      of: { plan: true } | { since: string; operation?: string },
      format: ReportFormat,
    ): Promise<string> {
      const path =
        "plan" in of
          ? `/api/reports/plan${params({ format })}`
          : `/api/reports/cleanups${params({ format, since: of.since, operation: of.operation })}`;
      return (await raw(path, { accept: format === "md" ? "text/markdown" : "application/json" })).text();
    },
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;
