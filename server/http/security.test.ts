// The local server against what any web page the user visits can make a browser send (docs/safety.md
// G14): each hostile request gets its status, and nothing on disk changes. The app runs on a real store through app.request(), without a socket.
import { existsSync, mkdtempSync, readFileSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { writeSession } from "../../test-support/pi-store.js";
import { readAudit } from "../state/audit-log.js";
import { readPins } from "../state/protection-list.js";
import { statePaths } from "../state/state-dir.js";
import { createApp } from "./app.js";
import { createDashboardService } from "./dashboard-service.js";
import { piStores } from "../../test-support/pi-stores.js";

const PORT = 4999;
const TOKEN = "k3Yq_per-launch-token";
const ORIGIN = `http://127.0.0.1:${PORT}`;

let app: ReturnType<typeof createApp>;
let sessionId: string;

beforeAll(async () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "sr-http-")));
  sessionId = writeSession(root, "/work/app", 1).getSessionId();
  writeSession(root, "/work/app", 1);
  const service = createDashboardService({
    stores: piStores(root),
    source: { kind: "pi" },
    config: {},
  });
  app = createApp({ api: service, port: () => PORT, token: TOKEN });
});

const good = { Host: `127.0.0.1:${PORT}`, Authorization: `Bearer ${TOKEN}` };
const json = { ...good, "Content-Type": "application/json" };
const protectBody = (ids: unknown[]) => JSON.stringify({ ids, protect: true });

function request(path: string, init: RequestInit & { headers?: Record<string, string> } = {}) {
  return app.request(`${ORIGIN}${path}`, init);
}

/** Nothing on disk changed: no pins, no audit entries. */
function nothingChanged() {
  expect(readPins(statePaths().protectedList)).toEqual([]);
  expect(readAudit(statePaths().auditLog).entries).toEqual([]);
}

describe("hostile requests: the status, and nothing changed on disk", () => {
  it.each<[string, string, RequestInit & { headers: Record<string, string> }, number]>([
    ["a DNS-rebinding Host", "/api/summary", { headers: { ...good, Host: `attacker.example:${PORT}` } }, 421],
    [
      "localhost. with a trailing dot",
      "/api/summary",
      { headers: { ...good, Host: `localhost.:${PORT}` } },
      421,
    ],
    ["a malformed Host", "/api/summary", { headers: { ...good, Host: "127.0.0.1:port" } }, 421],
    ["an unterminated IPv6 Host", "/api/summary", { headers: { ...good, Host: `[::1:${PORT}` } }, 421],
    ["no token on a GET", "/api/summary", { headers: { Host: good.Host } }, 401],
    ["a wrong token", "/api/summary", { headers: { ...good, Authorization: "Bearer wrong" } }, 401],
    [
      "a token of another scheme",
      "/api/summary",
      { headers: { ...good, Authorization: `Basic ${TOKEN}` } },
      401,
    ],
    ["no token on an unknown route", "/api/does-not-exist", { headers: { Host: good.Host } }, 401],
    [
      "the token in the query string only",
      `/api/summary?token=${TOKEN}`,
      { headers: { Host: good.Host } },
      401,
    ],
    ["no token for the metrics", "/metrics", { headers: { Host: good.Host } }, 401],
    [
      "a cross-site fetch with a valid token",
      "/api/summary",
      { headers: { ...good, "Sec-Fetch-Site": "cross-site" } },
      403,
    ],
    [
      "a same-site (other port) fetch",
      "/api/summary",
      { headers: { ...good, "Sec-Fetch-Site": "same-site" } },
      403,
    ],
    [
      "a cross-site form POST",
      "/api/protect",
      {
        method: "POST",
        headers: {
          ...good,
          Origin: "https://attacker.example",
          "Content-Type": "application/x-www-form-urlencoded",
        },
        body: "ids=x",
      },
      403,
    ],
    [
      "a form POST without Origin",
      "/api/protect",
      {
        method: "POST",
        headers: { ...good, "Content-Type": "application/x-www-form-urlencoded" },
        body: "ids=x",
      },
      415,
    ],
    [
      "JSON sent as text/plain (no preflight)",
      "/api/protect",
      { method: "POST", headers: { ...good, "Content-Type": "text/plain" }, body: protectBody(["x"]) },
      415,
    ],
    [
      "an OPTIONS preflight from another origin",
      "/api/protect",
      {
        method: "OPTIONS",
        headers: {
          Host: good.Host,
          Origin: "https://attacker.example",
          "Access-Control-Request-Method": "POST",
        },
      },
      403,
    ],
    [
      "an oversize body with Content-Length",
      "/api/protect",
      { method: "POST", headers: json, body: protectBody(Array.from({ length: 9000 }, (_, i) => `id-${i}`)) },
      413,
    ],
    [
      "ids with a path in them",
      "/api/protect",
      { method: "POST", headers: json, body: protectBody(["../../x"]) },
      400,
    ],
    [
      "ids encoded as a path",
      "/api/protect",
      { method: "POST", headers: json, body: protectBody(["%2e%2e%2f"]) },
      400,
    ],
    [
      "an id with a NUL",
      "/api/protect",
      { method: "POST", headers: json, body: protectBody(["a\u0000b"]) },
      400,
    ],
    [
      "a 10 KB id",
      "/api/protect",
      { method: "POST", headers: json, body: protectBody(["a".repeat(10_000)]) },
      400,
    ],
    ["not JSON at all", "/api/protect", { method: "POST", headers: json, body: "{ids:" }, 400],
    [
      "unknown fields",
      "/api/protect",
      { method: "POST", headers: json, body: '{"ids":["a"],"protect":true,"x":1}' },
      400,
    ],
    [
      "an unknown, well-formed id",
      "/api/protect",
      { method: "POST", headers: json, body: protectBody(["0190aaaa-0000-7000-8000-000000000000"]) },
      404,
    ],
  ])("%s → %i", async (_what, path, init, status) => {
    const response = await request(path, init);
    expect(response.status).toBe(status);
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
    expect(response.headers.get("access-control-allow-methods")).toBeNull();
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.message).toBeTruthy();
    nothingChanged();
  });

  it("an oversize body without Content-Length (streamed) → 413", async () => {
    const chunk = new TextEncoder().encode(" ".repeat(16 * 1024));
    let sent = 0;
    const body = new ReadableStream({
      pull(controller) {
        if (sent++ < 8) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const response = await request("/api/protect", {
      method: "POST",
      headers: json,
      body,
      // @ts-expect-error Node's fetch needs this for a streamed body
      duplex: "half",
    });
    expect(response.status).toBe(413);
    nothingChanged();
  });
});

describe("a legitimate request from the dashboard", () => {
  it("pins a session, audited with the ui actor", async () => {
    const response = await request("/api/protect", {
      method: "POST",
      headers: { ...json, Origin: ORIGIN, "Sec-Fetch-Site": "same-origin" },
      body: protectBody([sessionId]),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ changed: [sessionId], unchanged: [] });
    expect(readPins(statePaths().protectedList).map((p) => p.id)).toEqual([sessionId]);
    expect(readAudit(statePaths().auditLog).entries[0]).toMatchObject({ actor: "ui", action: "protect" });
    expect(
      existsSync(statePaths().protectedList) && readFileSync(statePaths().protectedList, "utf8"),
    ).toContain(sessionId);
  });
});
