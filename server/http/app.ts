// The dashboard's HTTP app: JSON API under /api, the built web app everywhere else. Routes are
// tested through `app.request()` without opening a port.
import { serveStatic } from "@hono/node-server/serve-static";
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { HTTPException } from "hono/http-exception";
import { UserError } from "../errors.js";
import { LockedError } from "../fs/lock-file.js";
import { ReadOnlyError, UnknownIdsError } from "./api-errors.js";
import type { DashboardApi } from "./dashboard-service.js";
import { OperationConflictError } from "./operations.js";
import { UnknownPreviewError } from "./previews.js";
import { BODY_LIMIT_BYTES, crossSiteGuard, hostGuard, securityHeaders, tokenGuard } from "./guard.js";
import { apiRoutes } from "./routes/api-routes.js";

export interface AppOptions {
  /** What the API can do (a test may pass part of it: the rest answers 404). */
  api: DashboardApi;
  /** Folder of the built web app (dist/web); omitted in API-only tests. */
  webRoot?: string;
  /** The port we listen on, for the Host allow-list (known only once listening when 0 was asked). */
  port: () => number;
  /** The per-launch token every API request must carry. */
  token: string;
}

export function createApp(options: AppOptions) {
  const app = new Hono();
  // Registered globally, before any route: path-scoped guards have been bypassed in past advisories.
  // The headers come first, outside everything else: a guard's refusal, notFound and onError all
  // answer inside it, so no response — 421, 401, 404, 500 — can leave without them.
  app.use("*", securityHeaders());
  app.use("*", hostGuard(options.port));
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

  app.route("/api", apiRoutes(options.api));
  // Prometheus text, for scrapers: the token goes in the same Authorization header.
  app.get("/metrics", async (c) => {
    if (!options.api.metrics) throw new HTTPException(404, { message: "no metrics here" });
    return c.body(await options.api.metrics(), 200, {
      "Content-Type": "text/plain; version=0.0.4; charset=utf-8",
    });
  });

  if (options.webRoot) {
    // No source maps, even if one is in webRoot (the production build emits none): they would hand
    // out the app's whole source, comments and all, for nothing a user needs.
    app.use("/*", async (c, next) => (/\.map$/i.test(c.req.path) ? c.notFound() : next()));
    app.use("/*", serveStatic({ root: options.webRoot }));
    app.get("*", serveStatic({ root: options.webRoot, path: "index.html" }));
  }

  app.notFound((c) => c.json({ error: { code: "not_found", message: "not found" } }, 404));
  app.onError((error, c) => {
    if (error instanceof HTTPException) {
      return c.json({ error: { code: codeFor(error.status), message: error.message } }, error.status);
    }
    // Typed errors of the API and of the engine: the message is the whole story.
    if (error instanceof UnknownIdsError || error instanceof UnknownPreviewError)
      return c.json({ error: { code: "not_found", message: error.message } }, 404);
    if (
      error instanceof ReadOnlyError ||
      error instanceof LockedError ||
      error instanceof OperationConflictError
    )
      return c.json({ error: { code: "conflict", message: error.message } }, 409);
    if (error instanceof UserError)
      return c.json({ error: { code: "bad_request", message: error.message } }, 400);
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
      409: "conflict",
      421: "misdirected_request",
    }[status] ?? "error"
  );
}
