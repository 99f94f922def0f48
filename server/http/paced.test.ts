// A large plan does not hold the server up: through app.request() on a real store of 5,000
// sessions, other requests are answered while GET /api/plan is still being made, and what it
// then sends (in pieces, totals first) is the whole plan; its summary is a few kilobytes.
import { mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { generateStore } from "../../bench/synthetic-store.js";
import { type Plan, PlanSchema, PlanSummarySchema } from "../../shared/plan.js";
import { createApp } from "./app.js";
import { createDashboardService } from "./dashboard-service.js";
import { jsonPieces } from "./paced.js";
import { piStores } from "../../test-support/pi-stores.js";

const PORT = 4995;
const TOKEN = "paced-token";
const SESSIONS = 5_000;
const headers = { Host: `127.0.0.1:${PORT}`, Authorization: `Bearer ${TOKEN}` };

let app: ReturnType<typeof createApp>;

beforeAll(async () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "sr-paced-")));
  await generateStore(
    {
      name: "paced",
      seed: 27,
      sessions: SESSIONS,
      folders: 20,
      targetLines: 0,
      targetBytes: 0,
      linesRange: [3, 6],
    },
    root,
  );
  // The generated sessions are old: the age rule takes most of them, recency keeps the rest.
  const configFile = join(mkdtempSync(join(tmpdir(), "sr-paced-cfg-")), "session-retention.json");
  writeFileSync(configFile, JSON.stringify({ retention: { maxAgeDays: 30, minKeepRecentCount: 500 } }));
  const api = createDashboardService({
    stores: piStores(root),
    source: { kind: "pi" },
    config: { file: configFile },
    freshMs: 600_000, // one look for the whole test: no rescan in the background
  });
  app = createApp({ api, port: () => PORT, token: TOKEN });
  expect((await get("/api/summary")).status).toBe(200); // the look is taken
}, 120_000);

const get = async (path: string) => app.request(`http://127.0.0.1:${PORT}${path}`, { headers });
const turn = () => new Promise((resolve) => setImmediate(resolve));

describe("a large plan does not hold the server up", () => {
  it("other requests are answered while GET /api/plan is being made; then the whole plan comes, totals first", async () => {
    const events: string[] = [];
    const plan = get("/api/plan").then(async (response) => {
      events.push("plan: headers");
      const text = await response.text();
      events.push("plan: all of it");
      return { response, text };
    });
    // A few turns of the event loop: the plan has begun (made all at once, it was done by now).
    for (let i = 0; i < 3; i++) await turn();
    const others = Promise.all(
      ["/api/summary", "/api/operations/current", "/api/trash"].map(async (path) => {
        const response = await get(path);
        expect(response.status, path).toBe(200);
        await response.text();
        events.push(`answered ${path}`);
      }),
    );
    const [{ response, text }] = await Promise.all([plan, others]);
    // All three answered before the plan was even made (its headers come once it is), in any order.
    expect(events.slice(3)).toEqual(["plan: headers", "plan: all of it"]);
    expect(events.slice(0, 3).sort()).toEqual([
      "answered /api/operations/current",
      "answered /api/summary",
      "answered /api/trash",
    ]);

    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(response.headers.get("cache-control")).toBe("no-store");
    const sent = PlanSchema.parse(JSON.parse(text));
    expect(sent.candidates.length).toBeGreaterThan(SESSIONS / 2);
    expect(sent.candidates.length + sent.kept.length).toBe(SESSIONS);
    expect(sent.previewId).toMatch(/^[A-Za-z0-9_-]{8,}$/);
    // Totals up front: every field but the two lists comes before them.
    expect(text.indexOf('"bytesToFree"')).toBeLessThan(text.indexOf('"candidates":['));
    expect(text.indexOf('"candidates":[')).toBeLessThan(text.indexOf('"kept":['));

    // Its summary: the same totals and counts, without the lists.
    const summary = PlanSummarySchema.parse(await (await get("/api/plan/summary")).json());
    expect(summary).toMatchObject({
      candidateCount: sent.candidates.length,
      keptCount: sent.kept.length,
      bytesToFree: sent.bytesToFree,
      before: sent.before,
      after: sent.after,
    });
    expect(JSON.stringify(summary).length).toBeLessThan(10_000);
  });
});

describe("jsonPieces", () => {
  it("writes what JSON.stringify writes, the lists last and in pieces, each slice through its check", () => {
    const value = {
      a: 1,
      candidates: Array.from({ length: 1234 }, (_, i) => ({ i, s: `"${i}"\n` })),
      b: { c: [null, "x"] },
      kept: [],
      gone: undefined,
    } as unknown as Plan;
    const checked: number[] = [];
    const check = (slice: readonly unknown[]) => {
      checked.push(slice.length);
      return slice;
    };
    const pieces = [...jsonPieces(value, { candidates: check, kept: check }, 500)];
    expect(JSON.parse(pieces.join(""))).toEqual(JSON.parse(JSON.stringify(value)));
    expect(pieces[0]).toBe('{"a":1,"b":{"c":[null,"x"]},');
    expect(checked).toEqual([500, 500, 234]);
    expect([...jsonPieces({ a: 1 }, { kept: check })].join("")).toBe('{"a":1}');
    expect(JSON.parse([...jsonPieces({ kept: [1] }, { kept: check })].join(""))).toEqual({ kept: [1] });
  });
});
