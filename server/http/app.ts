// The dashboard's HTTP app: JSON API under /api, the built web app everywhere else. Routes are
// tested through `app.request()` without opening a port.
import { serveStatic } from "@hono/node-server/serve-static";
import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import type { SummaryResponse } from "../../shared/api.js";
import { hostGuard, securityHeaders } from "./guard.js";

export interface AppOptions {
  /** Latest scan summary (the app rescans through this; it is incremental and cheap). */
  getSummary: () => Promise<SummaryResponse>;
  /** Folder of the built web app (dist/web); omitted in API-only tests. */
  webRoot?: string;
  /** The port we listen on, for the Host allow-list (known only once listening when 0 was asked). */
  port: () => number;
}

export function createApp(options: AppOptions) {
  const app = new Hono();
  // Registered globally, before any route: path-scoped guards have been bypassed in past advisories.
  app.use("*", hostGuard(options.port));
  app.use("*", securityHeaders());

  app.get("/api/summary", async (c) => c.json(await options.getSummary()));
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
      421: "misdirected_request",
    }[status] ?? "error"
  );
}
