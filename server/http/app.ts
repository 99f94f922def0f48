// The dashboard's HTTP app: JSON API under /api, the built web app everywhere else. Routes are
// tested through `app.request()` without opening a port.
import { serveStatic } from "@hono/node-server/serve-static";
import { HTTPException } from "hono/http-exception";
import { type Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { z } from "zod";
import {
  type ProtectRequest,
  ProtectRequestSchema,
  type ProtectResponse,
  ProtectResponseSchema,
  type SummaryResponse,
} from "../../shared/api.js";
import { BODY_LIMIT_BYTES, crossSiteGuard, hostGuard, securityHeaders, tokenGuard } from "./guard.js";

export interface AppOptions {
  /** Latest scan summary (the app rescans through this; it is incremental and cheap). */
  getSummary: () => Promise<SummaryResponse>;
  /** Folder of the built web app (dist/web); omitted in API-only tests. */
  webRoot?: string;
  /** The port we listen on, for the Host allow-list (known only once listening when 0 was asked). */
  port: () => number;
  /** The per-launch token every API request must carry. */
  token: string;
  /** Pins or unpins sessions by id; throws `UnknownIdsError` (nothing changed) for ids not in the store. */
  protect?: (request: ProtectRequest) => Promise<ProtectResponse>;
}

/** Well-formed ids that name no session of the store: 404, and nothing changed. */
export class UnknownIdsError extends Error {
  constructor(readonly ids: readonly string[]) {
    super(
      `no session ${ids.slice(0, 3).join(", ")}${ids.length > 3 ? ` and ${ids.length - 3} more` : ""} in the store`,
    );
    this.name = "UnknownIdsError";
  }
}

/** Parses and validates a JSON body: anything else is a 400 that says what is wrong. */
async function jsonBody<T>(c: Context, schema: z.ZodType<T>): Promise<T> {
  let raw: unknown;
  try {
    raw = await c.req.json();
  } catch {
    throw new HTTPException(400, { message: "the body is not valid JSON" });
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success)
    throw new HTTPException(400, {
      message: parsed.error.issues
        .slice(0, 5)
        .map((i) => `${i.path.join(".") || "(body)"}: ${i.message}`)
        .join("; "),
    });
  return parsed.data;
}

export function createApp(options: AppOptions) {
  const app = new Hono();
  // Registered globally, before any route: path-scoped guards have been bypassed in past advisories.
  app.use("*", hostGuard(options.port));
  app.use("*", securityHeaders());
  app.use("*", crossSiteGuard(options.port));
  app.use(
    "*",
    bodyLimit({
      maxSize: BODY_LIMIT_BYTES,
      onError: () => {
        throw new HTTPException(413, { message: `request bodies are limited to ${BODY_LIMIT_BYTES} bytes` });
      },
    }),
  );
  app.use("*", tokenGuard(options.token));

  app.get("/api/summary", async (c) => c.json(await options.getSummary()));
  app.post("/api/protect", async (c) => {
    const request = await jsonBody(c, ProtectRequestSchema);
    if (!options.protect) throw new HTTPException(404, { message: "no such API endpoint" });
    try {
      return c.json(ProtectResponseSchema.parse(await options.protect(request)));
    } catch (error) {
      if (error instanceof UnknownIdsError) throw new HTTPException(404, { message: error.message });
      throw error;
    }
  });
  app.all("/api/*", () => {
    throw new HTTPException(404, { message: "no such API endpoint" });
  });

  if (options.webRoot) {
    app.use("/*", serveStatic({ root: options.webRoot }));
    app.get("*", serveStatic({ root: options.webRoot, path: "index.html" }));
  }

  app.notFound((c) => c.json({ error: { code: "not_found", message: "not found" } }, 404));
  app.onError((error, c) => {
    if (error instanceof HTTPException) {
      return c.json({ error: { code: codeFor(error.status), message: error.message } }, error.status);
    }
    console.error(error);
    return c.json({ error: { code: "internal", message: "internal error (see the server's log)" } }, 500);
  });
  return app;
}

function codeFor(status: number): string {
  return (
    {
      400: "bad_request",
      401: "unauthorized",
      403: "forbidden",
      404: "not_found",
      415: "unsupported_media_type",
      413: "payload_too_large",
      421: "misdirected_request",
    }[status] ?? "error"
  );
}
