// Guards that run before every route. A page on any site can make the browser send requests to
// 127.0.0.1; checking Host stops DNS rebinding (a foreign name resolving to us).
import type { MiddlewareHandler } from "hono";
import { HTTPException } from "hono/http-exception";

/** The only Host values we answer: loopback names with our port. `localhost.` (trailing dot) is not one. */
export function allowedHosts(port: number): Set<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);
}

export function hostGuard(port: () => number): MiddlewareHandler {
  return async (c, next) => {
    const host = c.req.header("host")?.toLowerCase();
    // For absolute-form targets (`GET http://evil/ HTTP/1.1`) Node takes the URL's host; check both.
    const urlHost = new URL(c.req.url).host.toLowerCase();
    const allowed = allowedHosts(port());
    if (!host || !allowed.has(host) || !allowed.has(urlHost)) {
      throw new HTTPException(421, { message: "this server only answers to 127.0.0.1, localhost and [::1]" });
    }
    await next();
  };
}

export function securityHeaders(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    c.header(
      "Content-Security-Policy",
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
    c.header("X-Content-Type-Options", "nosniff");
    c.header("Referrer-Policy", "no-referrer");
    c.header("X-Frame-Options", "DENY");
    if (c.req.path.startsWith("/api/")) c.header("Cache-Control", "no-store");
  };
}
