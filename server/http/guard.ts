// Guards that run before every route. A page on any site can make the browser send requests to
// 127.0.0.1; checking Host stops DNS rebinding (a foreign name resolving to us).
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import { UserError } from "../errors.js";

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
      throw new UserError("this server only answers to 127.0.0.1, localhost and [::1]", { status: 421 });
    }
    await next();
  };
}

/** Paths that need the token: the API and the metrics. The page and its assets carry no data. */
const needsToken = (path: string) => path === "/api" || path.startsWith("/api/") || path === "/metrics";

/** Strict CSP, nosniff, no-referrer, no framing on every response; no-store on every one that needs the token. */
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
    // Its errors too: a cached 401 or 500 of the API is as much the user's business as its data.
    if (needsToken(c.req.path)) c.header("Cache-Control", "no-store");
  };
}

/** A fresh per-launch token: 32 random bytes, URL-safe. */
export function newToken(): string {
  return randomBytes(32).toString("base64url");
}

/** Constant-time comparison: both sides hashed first, so their lengths say nothing either. */
export function tokenMatches(given: string, token: string): boolean {
  const digest = (text: string) => createHash("sha256").update(text).digest();
  return timingSafeEqual(digest(given), digest(token));
}

/**
 * `Authorization: Bearer <token>` on every API request — never from the query string, where it
 * would end up in logs and Referer headers.
 */
export function tokenGuard(token: string): MiddlewareHandler {
  return async (c, next) => {
    if (needsToken(c.req.path)) {
      const header = c.req.header("authorization") ?? "";
      const match = /^Bearer ([A-Za-z0-9_-]+)$/.exec(header);
      if (!match || !tokenMatches(match[1]!, token))
        throw new UserError("missing or wrong token (send Authorization: Bearer <token>)", { status: 401 });
    }
    await next();
  };
}

/**
 * What a web page on another site can make a browser send, refused: a cross-site fetch
 * (`Sec-Fetch-Site` other than same-origin or none, or a foreign `Origin`) → 403; a mutating request
 * that is not exactly JSON (a form post, `text/plain`) → 415. No CORS headers are ever sent.
 */
export function crossSiteGuard(port: () => number): MiddlewareHandler {
  return async (c, next) => {
    const site = c.req.header("sec-fetch-site");
    if (site !== undefined && site !== "same-origin" && site !== "none")
      throw new UserError(`cross-site requests are refused (Sec-Fetch-Site: ${site})`, { status: 403 });
    const origin = c.req.header("origin");
    if (origin !== undefined) {
      const allowed = [...allowedHosts(port())].map((host) => `http://${host}`);
      if (!allowed.includes(origin.toLowerCase()))
        throw new UserError(`requests from ${origin} are refused`, { status: 403 });
    }
    if (!["GET", "HEAD"].includes(c.req.method)) {
      const type = c.req.header("content-type")?.toLowerCase().replace(/\s+/g, "");
      if (type !== "application/json" && type !== "application/json;charset=utf-8")
        throw new UserError("send JSON (Content-Type: application/json)", { status: 415 });
    }
    await next();
  };
}
