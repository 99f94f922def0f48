// The API's routes, one small group per resource, each only parsing, validating and answering.
// What they do lives in dashboard-service.ts. Every refusal is thrown as an error that carries its
// status and code (../../errors.ts); app.ts's onError answers it, so no route builds an error body.
import { type Context, Hono } from "hono";
import { streamSSE } from "hono/streaming";
import { z } from "zod";
import {
  AuditPageSchema,
  AuditQuerySchema,
  DeleteRequestSchema,
  EmptyTrashRequestSchema,
  GrowthQuerySchema,
  GrowthResponseSchema,
  KeepRequestSchema,
  KeepResponseSchema,
  OperationRefSchema,
  OperationStatusSchema,
  PlanSelectionRequestSchema,
  PolicyResponseSchema,
  ProtectRequestSchema,
  ProtectResponseSchema,
  PurgeRequestSchema,
  SessionDetailResponseSchema,
  SessionIdSchema,
  ScanStartSchema,
  SessionsQuerySchema,
  TrashRefsSchema,
} from "../../../shared/api.js";
import { SoftDeleteResultSchema, TrashActionResultSchema, TrashListSchema } from "../../../shared/trash.js";
import {
  CandidateSchema,
  KeptSchema,
  type Plan,
  PlanSchema,
  PlanSummarySchema,
} from "../../../shared/plan.js";
import { cleanupReport, cleanupReportMarkdown, planReportMarkdown } from "../../../shared/report.js";
import { ConflictError, NotFoundError, UserError } from "../../errors.js";
import { InvalidConfigError } from "../api-errors.js";
import type { DashboardApi, DashboardEvent } from "../dashboard-service.js";

/** How long the event stream may stay silent before it sends a comment, so that nothing between closes it. */
const KEEP_ALIVE_MS = 25_000;
/** Events held for one reader of the stream before the older ones are dropped. */
const MAX_QUEUED_EVENTS = 64;
import { jsonBody, query } from "../json-body.js";
import { jsonPieces, pacedBody } from "../paced.js";

const notHere = () => new NotFoundError("no such API endpoint");

/** A result the engine refused as a whole (`refused` says why): 409, nothing was done. */
function unlessRefused<T extends { refused?: string }>(result: T): T {
  if (result.refused) throw new ConflictError(result.refused, "refused");
  return result;
}

/**
 * A plan as JSON, streamed: its totals first, then its candidates and kept sessions in pieces, each
 * checked against its schema as it goes — 100,000 of them are ~60 MB, and made in one go they held
 * every other request up for seconds.
 */
function planResponse(c: Context, plan: Plan) {
  const head = PlanSchema.parse({ ...plan, candidates: [], kept: [] });
  const pieces = jsonPieces(
    { ...head, candidates: plan.candidates, kept: plan.kept },
    {
      candidates: (slice) => CandidateSchema.array().parse(slice),
      kept: (slice) => KeptSchema.array().parse(slice),
    },
  );
  return c.body(pacedBody(pieces), 200, { "Content-Type": "application/json" });
}

/** `fn` if the API has it, else 404: a partial API (in tests) answers only what it implements. */
function need<T>(fn: T | undefined): T {
  if (fn === undefined) throw notHere();
  return fn;
}

export function apiRoutes(api: DashboardApi) {
  const routes = new Hono();

  routes.get("/summary", async (c) => c.json(await api.getSummary()));

  routes.get("/sessions", async (c) => {
    const q = query(c, SessionsQuerySchema);
    // Not re-validated here: at 100,000 rows that would cost more than building them (the shape
    // is checked by the tests and by the client).
    if (!api.sessionsJson) return c.json(await need(api.sessions)(q));
    // Streamed from the look's serialized rows in small pieces: no 16 MB string per request.
    const { byteLength, pieces } = await api.sessionsJson(q);
    const iterator = pieces();
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = iterator.next();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      },
    });
    return c.body(body, 200, {
      "Content-Type": "application/json",
      "Content-Length": String(byteLength),
    });
  });

  routes.get("/sessions/:id", async (c) => {
    const parsed = SessionIdSchema.safeParse(c.req.param("id"));
    if (!parsed.success) throw new UserError("not a session id");
    return c.json(SessionDetailResponseSchema.parse(await need(api.sessionDetail)(parsed.data)));
  });

  routes.post("/keep", async (c) => {
    const request = await jsonBody(c, KeepRequestSchema);
    return c.json(KeepResponseSchema.parse(await need(api.keep)(request)));
  });

  routes.post("/protect", async (c) => {
    const request = await jsonBody(c, ProtectRequestSchema);
    return c.json(ProtectResponseSchema.parse(await need(api.protect)(request)));
  });

  routes.get("/plan", async (c) => planResponse(c, await need(api.plan)({ preview: true })));
  routes.get("/plan/summary", async (c) => c.json(PlanSummarySchema.parse(await need(api.planSummary)())));
  routes.post("/plan/selection", async (c) => {
    const selection = await jsonBody(c, PlanSelectionRequestSchema);
    return planResponse(c, await need(api.planSelection)(selection));
  });
  routes.post("/plan/preview", async (c) => {
    const { config } = await jsonBody(c, z.strictObject({ config: z.unknown() }));
    const result = await need(api.previewPlan)(config);
    if (!result.ok) throw new InvalidConfigError("the proposed config is invalid", result.problems);
    return planResponse(c, result.plan);
  });

  routes.get("/policy", async (c) => c.json(PolicyResponseSchema.parse(await need(api.getPolicy)())));
  routes.put("/policy", async (c) => {
    const { config } = await jsonBody(c, z.strictObject({ config: z.unknown() }));
    const result = await need(api.savePolicy)(config);
    if (!result.ok) throw new InvalidConfigError("the config is invalid; nothing was saved", result.problems);
    return c.json(PolicyResponseSchema.parse(result.policy));
  });

  routes.post("/delete", async (c) => {
    const request = await jsonBody(c, DeleteRequestSchema);
    const result = unlessRefused(await need(api.deleteSessions)(request));
    return c.json(SoftDeleteResultSchema.parse(result));
  });

  // The same delete as an operation the page follows (and may come back to after a reload).
  routes.post("/operations/delete", async (c) => {
    const request = await jsonBody(c, DeleteRequestSchema);
    return c.json(OperationStatusSchema.parse(need(api.startDelete)(request)), 202);
  });
  routes.get("/operations/current", (c) => c.json(OperationStatusSchema.parse(need(api.operation)())));
  routes.post("/operations/current/stop", async (c) => {
    const { id } = await jsonBody(c, OperationRefSchema);
    return c.json(OperationStatusSchema.parse(need(api.stopOperation)(id)));
  });
  routes.post("/operations/current/dismiss", async (c) => {
    const { id } = await jsonBody(c, OperationRefSchema);
    return c.json(OperationStatusSchema.parse(need(api.dismissOperation)(id)));
  });

  routes.get("/trash", async (c) => c.json(TrashListSchema.parse(await need(api.trash)())));
  routes.post("/trash/restore", async (c) => {
    const { refs } = await jsonBody(c, TrashRefsSchema);
    return c.json(TrashActionResultSchema.parse(await need(api.restore)(refs)));
  });
  routes.post("/trash/purge", async (c) => {
    const { refs, confirm } = await jsonBody(c, PurgeRequestSchema);
    const result = unlessRefused(await need(api.purge)(refs, confirm));
    return c.json(TrashActionResultSchema.parse(result));
  });
  routes.post("/trash/empty", async (c) => {
    const { olderThanDays, confirm } = await jsonBody(c, EmptyTrashRequestSchema);
    const result = unlessRefused(await need(api.emptyTrash)(olderThanDays, confirm));
    return c.json(TrashActionResultSchema.parse(result));
  });

  routes.get("/reports/plan", async (c) => {
    const { format } = query(c, z.strictObject({ format: z.enum(["md", "json"]).default("md") }));
    const plan = await need(api.plan)();
    return format === "json"
      ? c.json(plan)
      : c.body(planReportMarkdown(plan), 200, { "Content-Type": "text/markdown; charset=utf-8" });
  });
  routes.get("/reports/cleanups", async (c) => {
    const { format, since, operation } = query(
      c,
      z.strictObject({
        format: z.enum(["md", "json"]).default("md"),
        since: z.iso.datetime({ offset: true }),
        /** Only this operation (one past cleanup). */
        operation: z.string().max(256).optional(),
      }),
    );
    const { entries } = await need(api.audit)({ offset: 0, limit: Number.MAX_SAFE_INTEGER });
    const chosen = operation === undefined ? entries : entries.filter((e) => e.operationId === operation);
    const report = cleanupReport(chosen, new Date(since), new Date());
    return format === "json"
      ? c.json(report)
      : c.body(cleanupReportMarkdown(report), 200, { "Content-Type": "text/markdown; charset=utf-8" });
  });

  routes.post("/scan", async (c) => {
    await jsonBody(c, z.strictObject({}));
    return c.json(ScanStartSchema.parse(need(api.startScan)()), 202);
  });
  /**
   * Progress of the running scan as server-sent events (`progress`, then `done`). Read it with
   * fetch and the Authorization header: EventSource cannot send one, and the token never goes in
   * a query string.
   */
  routes.get("/scan/progress", (c) => {
    const status = need(api.scanProgress);
    return streamSSE(c, async (stream) => {
      for (;;) {
        const { running, progress } = status();
        if (progress) await stream.writeSSE({ event: "progress", data: JSON.stringify(progress) });
        if (!running) {
          await stream.writeSSE({ event: "done", data: "{}" });
          return;
        }
        await stream.sleep(100);
      }
    });
  });

  /**
   * The look as it moves on, as server-sent events (`watch`, then `look` each time the look
   * changes; see `LookEventSchema`), with a comment every 25 s to keep the connection open. Read it
   * with fetch and the Authorization header, like the scan's progress.
   */
  routes.get("/events", (c) => {
    const subscribe = need(api.subscribe);
    return streamSSE(c, async (stream) => {
      const queue: DashboardEvent[] = [];
      let wake: (() => void) | undefined;
      const unsubscribe = subscribe((event) => {
        // A reader that does not keep up is not followed by a queue without end: past a few dozen
        // events only the newest is kept, whose `from` the page will not hold, so it reloads.
        if (queue.length >= MAX_QUEUED_EVENTS) queue.splice(0, queue.length);
        queue.push(event);
        wake?.();
      });
      stream.onAbort(() => {
        unsubscribe();
        wake?.();
      });
      try {
        while (!stream.aborted && !stream.closed) {
          const event = queue.shift();
          if (event) {
            await stream.writeSSE(event);
            continue;
          }
          const quiet = await new Promise<boolean>((resolve) => {
            const timer = setTimeout(() => resolve(true), KEEP_ALIVE_MS);
            wake = () => {
              clearTimeout(timer);
              resolve(false);
            };
          });
          wake = undefined;
          if (quiet) await stream.write(": ping\n\n");
        }
      } finally {
        unsubscribe();
      }
    });
  });

  routes.get("/growth", async (c) => {
    const { days, namespace, by } = query(c, GrowthQuerySchema);
    return c.json(GrowthResponseSchema.parse(await need(api.growth)(days, namespace, by === "namespace")));
  });

  routes.get("/audit", async (c) => {
    return c.json(AuditPageSchema.parse(await need(api.audit)(query(c, AuditQuerySchema))));
  });

  routes.all("*", () => {
    throw notHere();
  });
  return routes;
}
