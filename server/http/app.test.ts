// The HTTP app through app.request(): payload shape, the Host allow-list, the security headers on
// every answer, and no source maps served.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { type SummaryResponse, SummaryResponseSchema } from "../../shared/api.js";
import { summarizeSessions } from "../../shared/scan-summary.js";
import { createApp } from "./app.js";

const PORT = 4321;
const summary: SummaryResponse = {
  source: { kind: "pi" },
  policy: {
    configPath: "/home/u/.pi/agent/session-retention.json",
    source: "defaults",
    problems: [],
    mode: "warn-only",
    quota: { level: "ok", size: { used: 0, limit: 100, ratio: 0, level: "ok" } },
    readOnly: false,
  },
  scannedAt: "2026-01-01T00:00:00.000Z",
  stores: [{ kind: "pi", root: "/tmp/store" }],
  summary: summarizeSessions([], []),
  namespaces: [],
  agents: [],
  problems: [],
  findings: [],
};

function makeApp() {
  let scans = 0;
  const app = createApp({
    api: {
      getSummary: async () => {
        scans += 1;
        return summary;
      },
    },
    port: () => PORT,
    token: TOKEN,
  });
  return { app, scans: () => scans };
}

const TOKEN = "the-per-launch-token";

const get = (app: ReturnType<typeof makeApp>["app"], path: string, host: string) =>
  app.request(`http://${host}${path}`, { headers: { Host: host, Authorization: `Bearer ${TOKEN}` } });

describe("GET /api/summary", () => {
  it("returns the summary, valid against the shared schema, never cached", async () => {
    const { app } = makeApp();
    const response = await get(app, "/api/summary", `127.0.0.1:${PORT}`);
    expect(response.status).toBe(200);
    expect(SummaryResponseSchema.parse(await response.json())).toEqual(summary);
    expect(response.headers.get("cache-control")).toBe("no-store");
  });

  it.each([`localhost:${PORT}`, `[::1]:${PORT}`, `LOCALHOST:${PORT}`])("answers Host %s", async (host) => {
    const { app } = makeApp();
    expect((await get(app, "/api/summary", host)).status).toBe(200);
  });
});

describe("Host allow-list (DNS rebinding)", () => {
  it.each([
    ["a rebinding name", `evil.example:${PORT}`],
    ["localhost with a trailing dot", `localhost.:${PORT}`],
    ["the right name on another port", "127.0.0.1:1"],
    ["no port", "127.0.0.1"],
    ["a look-alike", `127.0.0.1.evil.example:${PORT}`],
  ])("refuses %s with 421 and does no work", async (_what, host) => {
    const { app, scans } = makeApp();
    const response = await get(app, "/api/summary", host);
    expect(response.status).toBe(421);
    expect(await response.json()).toMatchObject({ error: { code: "misdirected_request" } });
    expect(scans()).toBe(0);
  });

  it("refuses a request without a Host header", async () => {
    const { app } = makeApp();
    const response = await app.request(new Request(`http://127.0.0.1:${PORT}/api/summary`));
    expect(response.status).toBe(421);
  });
});

describe("every response", () => {
  /** The full app: a web root holding a page, a script and its source map; an API that can fail. */
  function fullApp() {
    const webRoot = mkdtempSync(join(tmpdir(), "sr-web-"));
    mkdirSync(join(webRoot, "assets"));
    writeFileSync(join(webRoot, "index.html"), "<!doctype html><title>t</title>");
    writeFileSync(join(webRoot, "assets", "app.js"), "console.log(1);\n//# sourceMappingURL=app.js.map");
    writeFileSync(join(webRoot, "assets", "app.js.map"), '{"version":3,"sources":["app.ts"]}');
    return createApp({
      api: {
        getSummary: async () => summary,
        plan: async () => {
          throw new Error("a bug");
        },
        metrics: async () => "session_retention_up 1\n",
      },
      webRoot,
      port: () => PORT,
      token: TOKEN,
    });
  }
  const host = { Host: `127.0.0.1:${PORT}` };
  const auth = { ...host, Authorization: `Bearer ${TOKEN}` };
  const postJson = { ...auth, "Content-Type": "application/json" };

  it.each<[string, number, string, RequestInit & { headers: Record<string, string> }]>([
    ["the page", 200, "/", { headers: host }],
    ["a script", 200, "/assets/app.js", { headers: host }],
    ["the API", 200, "/api/summary", { headers: auth }],
    ["the metrics", 200, "/metrics", { headers: auth }],
    ["a foreign Host, API", 421, "/api/summary", { headers: { ...auth, Host: `evil.example:${PORT}` } }],
    ["a foreign Host, page", 421, "/", { headers: { Host: `evil.example:${PORT}` } }],
    ["a foreign Host, metrics", 421, "/metrics", { headers: { ...auth, Host: `evil.example:${PORT}` } }],
    ["no token, API", 401, "/api/summary", { headers: host }],
    ["no token, metrics", 401, "/metrics", { headers: host }],
    ["a cross-site fetch", 403, "/api/summary", { headers: { ...auth, "Sec-Fetch-Site": "cross-site" } }],
    [
      "a text/plain POST",
      415,
      "/api/protect",
      { method: "POST", headers: { ...auth, "Content-Type": "text/plain" }, body: "{}" },
    ],
    [
      "an oversize body",
      413,
      "/api/protect",
      { method: "POST", headers: postJson, body: " ".repeat(70_000) },
    ],
    ["an unknown API path", 404, "/api/nope", { headers: auth }],
    ["a source map that exists", 404, "/assets/app.js.map", { headers: host }],
    ["a source map, percent-encoded", 404, "/assets/app.js%2Emap", { headers: host }],
    ["a bug in the API", 500, "/api/plan", { headers: auth }],
  ])("%s → %i, with CSP, nosniff, no-referrer and no framing", async (_what, status, path, init) => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    let response: Response;
    try {
      response = await fullApp().request(`http://127.0.0.1:${PORT}${path}`, init);
    } finally {
      errors.mockRestore();
    }
    expect(response.status).toBe(status);
    expect(response.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("referrer-policy")).toBe("no-referrer");
    expect(response.headers.get("x-frame-options")).toBe("DENY");
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
    // Everything behind the token is never cached, its refusals and errors included.
    const tokenPath = path.startsWith("/api") || path === "/metrics";
    expect(response.headers.get("cache-control")).toBe(tokenPath ? "no-store" : null);
  });

  it("answers unknown API paths with a typed JSON error", async () => {
    const { app } = makeApp();
    const response = await get(app, "/api/nope", `127.0.0.1:${PORT}`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: { code: "not_found", message: "no such API endpoint" } });
  });
});
