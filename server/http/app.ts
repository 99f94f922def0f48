// The dashboard's HTTP app: JSON API under /api, the built web app everywhere else. Routes are
// tested through `app.request()` without opening a port.
import { serveStatic } from "@hono/node-server/serve-static";
import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { codeOfStatus, httpFailure, NotFoundError } from "../errors.js";
import type { DashboardApi } from "./dashboard-service.js";
import { crossSiteGuard, hostGuard, securityHeaders, tokenGuard } from "./guard.js";
import { requestBodyLimit } from "./json-body.js";
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
  app.use("*", requestBodyLimit());
  app.use("*", tokenGuard(options.token));

  app.route("/api", apiRoutes(options.api));
  // Prometheus text, for scrapers: the token goes in the same Authorization header.
  app.get("/metrics", async (c) => {
    if (!options.api.metrics) throw new NotFoundError("no metrics here");
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
  // The one place an error becomes an answer: each error carries its status and code (../errors.ts).
  app.onError((error, c) => {
    // Hono's own (none of our code throws one): its status, with the code that status has.
    if (error instanceof HTTPException)
      return c.json({ error: { code: codeOfStatus(error.status), message: error.message } }, error.status);
    const failure = httpFailure(error);
    if (failure.log) console.error(error);
    return c.json(failure.body, failure.status);
  });
  return app;
}
