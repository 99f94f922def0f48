// The HTTP app through app.request(): payload shape, the Host allow-list and the security headers.
import { describe, expect, it } from "vitest";
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
  it("carries CSP, nosniff, no-referrer and frame denial, errors included", async () => {
    const { app } = makeApp();
    for (const path of ["/api/summary", "/api/nope"]) {
      const response = await get(app, path, `127.0.0.1:${PORT}`);
      expect(response.headers.get("content-security-policy")).toContain("default-src 'none'");
      expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("referrer-policy")).toBe("no-referrer");
      expect(response.headers.get("access-control-allow-origin")).toBeNull();
    }
  });

  it("answers unknown API paths with a typed JSON error", async () => {
    const { app } = makeApp();
    const response = await get(app, "/api/nope", `127.0.0.1:${PORT}`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: { code: "not_found", message: "no such API endpoint" } });
  });
});
