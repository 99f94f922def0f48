// The dashboard API on a real store, through app.request(): sessions, plan and its preview, policy,
// delete, trash and audit — each with what must and must not change on disk.
import {
  appendFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  decodeSessionRows,
  GrowthResponseSchema,
  SessionDetailResponseSchema,
  SessionsQuerySchema,
  SessionsResponseSchema,
} from "../../shared/api.js";
import { PlanSchema } from "../../shared/plan.js";
import { operationOf, TrashActionResultSchema, TrashListSchema } from "../../shared/trash.js";
import { setModified, writeSession } from "../../test-support/pi-store.js";
import { growthFile } from "../state/growth-store.js";
import { statePaths } from "../state/state-dir.js";
import { createApp } from "./app.js";
import { createDashboardService } from "./dashboard-service.js";
import { piStores } from "../../test-support/pi-stores.js";

const PORT = 4998;
const TOKEN = "tok";
const headers = { Host: `127.0.0.1:${PORT}`, Authorization: `Bearer ${TOKEN}` };
const jsonHeaders = { ...headers, "Content-Type": "application/json" };

let app: ReturnType<typeof createApp>;
let root: string;
let configFile: string;
let paths: string[];

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "sr-api-")));
  paths = [];
  for (const [i, cwd] of ["/work/app", "/work/app", "/work/lib", "/play"].entries()) {
    const path = writeSession(root, cwd, 1 + i, i === 2 ? { name: "Billing bug" } : {}).getSessionFile()!;
    setModified(path, new Date(Date.UTC(2025, 0, 1 + i)));
    paths.push(path);
  }
  configFile = join(mkdtempSync(join(tmpdir(), "sr-cfg-")), "session-retention.json");
  writeFileSync(
    configFile,
    JSON.stringify({
      retention: { maxAgeDays: 30, minKeepRecentCount: 1, keepLastPerNamespace: 0 },
      deletion: { target: "quarantine" },
    }),
  );
  const service = createDashboardService({
    stores: piStores(root),
    source: { kind: "pi" },
    config: { file: configFile },
  });
  app = createApp({ api: service, port: () => PORT, token: TOKEN });
});

const get = (path: string) => app.request(`http://127.0.0.1:${PORT}${path}`, { headers });
const send = (method: string, path: string, body: unknown) =>
  app.request(`http://127.0.0.1:${PORT}${path}`, {
    method,
    headers: jsonHeaders,
    body: JSON.stringify(body),
  });

/** The id the store gives the session at `path`. */
const idOf = (path: string | undefined) => /_([0-9a-f-]{36})\.jsonl$/.exec(path!)![1]!;

/** The sessions table as the page gets it: validated and decoded. */
async function sessionRows(query = "") {
  const response = SessionsResponseSchema.parse(await (await get(`/api/sessions${query}`)).json());
  return { ...response, sessions: decodeSessionRows(response) };
}

describe("GET /api/sessions", () => {
  it("sorts, filters, searches and pages; rows say why a session is kept", async () => {
    const all = await sessionRows();
    expect(all.total).toBe(4);
    expect(all.sessions.map((s) => s.path)).toEqual(paths); // least recently used first
    expect(all.sessions.at(-1)!.kept).toBe("recent");
    expect(all.sessions[0]).toMatchObject({
      store: "pi",
      namespace: "/work/app",
      lastUsedAt: "2025-01-01T00:00:00.000Z",
    });
    expect(all.namespaces.sort()).toEqual(["/play", "/work/app", "/work/lib"]);
    const bySize = await sessionRows("?sort=size&limit=1");
    expect(bySize).toMatchObject({ matching: 4, sessions: [{ path: paths[3] }] });
    const text = await sessionRows("?text=billing");
    expect(text.sessions.map((s) => s.name)).toEqual(["Billing bug"]);
    expect((await sessionRows("?namespace=/work/app")).matching).toBe(2);
    expect((await get("/api/sessions?sort=random")).status).toBe(400);
    expect((await get("/api/sessions?limit=-1")).status).toBe(400);
  });

  it("sends the table serialized once per look, with its length; a new look serializes it anew", async () => {
    const first = await get("/api/sessions");
    expect(first.headers.get("content-type")).toBe("application/json");
    const text = await first.text();
    expect(Number(first.headers.get("content-length"))).toBe(Buffer.byteLength(text));
    expect(await (await get("/api/sessions")).text()).toBe(text); // the same look: the same bytes
    // A change the table must show: a pin (kept: pinned) and a new session after a rescan.
    const oldest = (await sessionRows()).sessions[0]!;
    expect(oldest.kept).toBeUndefined();
    expect((await send("POST", "/api/protect", { ids: [oldest.id], protect: true })).status).toBe(200);
    expect((await sessionRows()).sessions[0]!.kept).toBe("pinned");
    writeSession(root, "/work/new", 9);
    expect((await send("POST", "/api/scan", {})).status).toBe(202);
    const after = await sessionRows();
    expect(after.total).toBe(5);
    expect(after.namespaces).toContain("/work/new");
  });
});

describe("plan and policy", () => {
  it("GET /api/plan is the policy's plan, valid against its schema", async () => {
    const plan = PlanSchema.parse(await (await get("/api/plan")).json());
    expect(plan.candidates.map((c) => c.path)).toEqual(paths.slice(0, 3));
    expect(plan.candidates[0]!.fingerprint).toBeDefined();
  });

  it("POST /api/plan/preview evaluates a proposed policy without saving it", async () => {
    const before = readFileSync(configFile, "utf8");
    const preview = await send("POST", "/api/plan/preview", {
      config: { retention: { maxAgeDays: 30, minKeepRecentCount: 3, keepLastPerNamespace: 0 } },
    });
    expect(PlanSchema.parse(await preview.json()).candidates.map((c) => c.path)).toEqual([paths[0]]);
    const invalid = await send("POST", "/api/plan/preview", { config: { retention: { maxAgeDays: -1 } } });
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toMatchObject({ error: { problems: [{ path: "retention.maxAgeDays" }] } });
    expect(readFileSync(configFile, "utf8")).toBe(before);
  });

  it("PUT /api/policy saves a valid config atomically and audits it; an invalid one writes nothing", async () => {
    const bad = await send("PUT", "/api/policy", { config: { mode: "loud" } });
    expect(bad.status).toBe(400);
    expect(JSON.parse(readFileSync(configFile, "utf8")).mode).toBeUndefined();
    const good = await send("PUT", "/api/policy", { config: { mode: "hard-block" } });
    expect(good.status).toBe(200);
    expect(await good.json()).toMatchObject({
      source: "file",
      raw: { mode: "hard-block" }, // the file's own JSON, not every default
      config: { mode: "hard-block", quota: { warnRatio: 0.9 } },
      problems: [],
      home: process.env.HOME, // the editor checks folders against the same home (~/…)
    });
    expect(JSON.parse(readFileSync(configFile, "utf8"))).toEqual({ mode: "hard-block" });
    const audit = (await (await get("/api/audit?limit=1")).json()) as {
      entries: { action: string; actor: string }[];
    };
    expect(audit.entries[0]).toMatchObject({ action: "config", actor: "ui" });
  });

  it("an invalid config on disk: read-only — the plan and deletes answer 409", async () => {
    writeFileSync(configFile, "{ broken");
    expect((await get("/api/plan")).status).toBe(409);
    const plan = await send("POST", "/api/delete", {
      items: [{ id: "x", fingerprint: { dev: 1, ino: 1, size: 1, mtimeNs: "1" } }],
    });
    expect(plan.status).toBe(409);
    const policy = await get("/api/policy");
    expect(policy.status).toBe(200);
    const body = (await policy.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ source: "invalid", problems: [{ message: expect.stringMatching(/JSON/) }] });
    expect(body).not.toHaveProperty("config");
    expect(body).not.toHaveProperty("raw");
  });
});

describe("delete, trash and audit", () => {
  it("deletes by id and fingerprint; a changed file is skipped; restore and purge with the echoed confirmation", async () => {
    const plan = PlanSchema.parse(await (await get("/api/plan")).json());
    appendFileSync(paths[1]!, '{"type":"message","id":"late"}\n');
    setModified(paths[1]!, new Date(Date.UTC(2025, 0, 2)));
    const response = await send("POST", "/api/delete", {
      items: plan.candidates.map((c) => ({ id: c.id, fingerprint: c.fingerprint })),
    });
    expect(response.status).toBe(200);
    const result = (await response.json()) as {
      moved: { path: string }[];
      skipped: { path: string; reason: string }[];
    };
    expect(result.moved.map((m) => m.path).sort()).toEqual([paths[0], paths[2]].sort());
    expect(result.skipped).toEqual([
      expect.objectContaining({ path: paths[1], reason: "changed since preview" }),
    ]);

    const trash = (await (await get("/api/trash")).json()) as {
      entries: { entryId: string; originalPath: string; sizeBytes: number; state: string }[];
    };
    const inTrash = trash.entries.filter((e) => e.state === "in-trash");
    expect(inTrash).toHaveLength(2);
    const restored = await send("POST", "/api/trash/restore", { refs: [inTrash[0]!.entryId] });
    expect(((await restored.json()) as { done: unknown[] }).done).toHaveLength(1);
    expect(existsSync(inTrash[0]!.originalPath)).toBe(true);

    const last = inTrash[1]!;
    const wrong = await send("POST", "/api/trash/purge", {
      refs: [last.entryId],
      confirm: `1:${last.sizeBytes + 1}`,
    });
    expect(wrong.status).toBe(409);
    const purged = await send("POST", "/api/trash/purge", {
      refs: [last.entryId],
      confirm: `1:${last.sizeBytes}`,
    });
    expect(purged.status).toBe(200);

    const audit = (await (await get("/api/audit?offset=0&limit=2")).json()) as {
      total: number;
      entries: { action: string }[];
    };
    expect(audit.entries.map((e) => e.action)).toEqual(["purge", "restore"]);
    expect(audit.total).toBeGreaterThanOrEqual(3);
  });

  describe("POST /api/trash/empty: purge what was deleted more than N days ago", () => {
    afterEach(() => vi.useRealTimers());

    it("takes only the older cleanup, asks for its exact count:bytes, frees them and audits the purge", async () => {
      const plan = PlanSchema.parse(await (await get("/api/plan")).json());
      const item = (path: string) => {
        const c = plan.candidates.find((x) => x.path === path)!;
        return { id: c.id, fingerprint: c.fingerprint };
      };
      // A month ago (only the clock is faked, and only for this first cleanup), then now.
      vi.useFakeTimers({ toFake: ["Date"], now: Date.now() - 31 * 86_400_000 });
      expect((await send("POST", "/api/delete", { items: [item(paths[0]!)] })).status).toBe(200);
      vi.useRealTimers();
      expect((await send("POST", "/api/delete", { items: [item(paths[1]!)] })).status).toBe(200);
      const before = TrashListSchema.parse(await (await get("/api/trash")).json());
      const old = before.entries.find((e) => e.originalPath === paths[0])!;
      const recent = before.entries.find((e) => e.originalPath === paths[1])!;
      const triggerOf = (entryId: string) =>
        before.triggers?.find((t) => t.operationId === operationOf(entryId));
      expect(triggerOf(old.entryId)).toMatchObject({ actor: "ui", action: "soft-delete" });
      expect(triggerOf(recent.entryId)).toMatchObject({ actor: "ui", action: "soft-delete" });

      // The guard: a body that is not the schema's, a confirmation of anything but exactly the old
      // cleanup (here: both), and no token — each refused, nothing purged.
      expect((await send("POST", "/api/trash/empty", { olderThanDays: 0, confirm: "1:1" })).status).toBe(400);
      expect((await send("POST", "/api/trash/empty", { olderThanDays: 30 })).status).toBe(400);
      const both = `2:${old.sizeBytes + recent.sizeBytes}`;
      expect((await send("POST", "/api/trash/empty", { olderThanDays: 30, confirm: both })).status).toBe(409);
      const noToken = await app.request(`http://127.0.0.1:${PORT}/api/trash/empty`, {
        method: "POST",
        headers: { Host: headers.Host, "Content-Type": "application/json" },
        body: JSON.stringify({ olderThanDays: 30, confirm: `1:${old.sizeBytes}` }),
      });
      expect(noToken.status).toBe(401);
      const crossSite = await app.request(`http://127.0.0.1:${PORT}/api/trash/empty`, {
        method: "POST",
        headers: { ...jsonHeaders, "Sec-Fetch-Site": "cross-site" },
        body: JSON.stringify({ olderThanDays: 30, confirm: `1:${old.sizeBytes}` }),
      });
      expect(crossSite.status).toBe(403);
      expect(existsSync(old.location!)).toBe(true);

      const emptied = await send("POST", "/api/trash/empty", {
        olderThanDays: 30,
        confirm: `1:${old.sizeBytes}`,
      });
      expect(emptied.status).toBe(200);
      const result = TrashActionResultSchema.parse(await emptied.json());
      expect(result.done).toEqual([expect.objectContaining({ entryId: old.entryId, bytes: old.sizeBytes })]);
      expect(existsSync(old.location!)).toBe(false);
      expect(existsSync(recent.location!)).toBe(true);
      const after = TrashListSchema.parse(await (await get("/api/trash")).json());
      expect(after.entries.find((e) => e.entryId === old.entryId)!.state).toBe("purged");
      expect(after.entries.find((e) => e.entryId === recent.entryId)!.state).toBe("in-trash");
      const audit = (await (await get("/api/audit?offset=0&limit=1")).json()) as {
        entries: { action: string; actor: string; bytes?: number }[];
      };
      expect(audit.entries[0]).toMatchObject({ action: "purge", actor: "ui", bytes: old.sizeBytes });

      // Nothing older left: said, not a silent success.
      const again = await send("POST", "/api/trash/empty", { olderThanDays: 30, confirm: "0:0" });
      expect(again.status).toBe(409);
      expect(await again.text()).toContain("nothing in the trash was deleted more than 30 days ago");
    });
  });

  it("two concurrent deletes of the same session: exactly one moves it", async () => {
    const plan = PlanSchema.parse(await (await get("/api/plan")).json());
    const item = { id: plan.candidates[0]!.id, fingerprint: plan.candidates[0]!.fingerprint };
    const [a, b] = await Promise.all([
      send("POST", "/api/delete", { items: [item] }),
      send("POST", "/api/delete", { items: [item] }),
    ]);
    const moved = [];
    for (const response of [a, b]) {
      if (response.status === 200) moved.push(...((await response.json()) as { moved: unknown[] }).moved);
      else expect(response.status).toBe(409); // the other holds the deletion lock
    }
    expect(moved).toHaveLength(1);
    expect(existsSync(paths[0]!)).toBe(false);
  });
});

describe("a hand selection's plan", () => {
  it("names the selected sessions a rule keeps, and only those (the kept list holds the whole store)", async () => {
    // The most recent session is kept (minKeepRecentCount 1); select it and one that may go.
    const chosen = [paths[0], paths.at(-1)].map(idOf);
    const plan = PlanSchema.parse(await (await send("POST", "/api/plan/selection", { ids: chosen })).json());
    const keptChosen = plan.kept.filter((k) => chosen.includes(k.id));
    expect(keptChosen.map((k) => [k.id, k.reason])).toEqual([[idOf(paths.at(-1)), "recent"]]);
    expect(keptChosen[0]!.title).toBe("question 0 in /play"); // its first message
    expect(plan.kept.filter((k) => !chosen.includes(k.id)).every((k) => k.title === undefined)).toBe(true);
  });
});

describe("a preview executed by its id", () => {
  it("POST /api/delete {previewId} moves exactly what the preview showed, once; an unknown id is 404", async () => {
    const selection = PlanSchema.parse(
      await (await send("POST", "/api/plan/selection", { ids: [paths[0], paths[2]].map(idOf) })).json(),
    );
    expect(selection.previewId).toMatch(/^[A-Za-z0-9_-]{16}$/);
    // A file that changes after the review is skipped: the preview's fingerprint is what counts.
    appendFileSync(paths[2]!, '{"type":"message","id":"late"}\n');
    setModified(paths[2]!, new Date(Date.UTC(2025, 0, 3)));
    const response = await send("POST", "/api/delete", { previewId: selection.previewId });
    const result = (await response.json()) as {
      moved: { path: string }[];
      skipped: { path: string; reason: string }[];
    };
    expect(result.moved.map((m) => m.path)).toEqual([paths[0]]);
    expect(result.skipped).toEqual([
      expect.objectContaining({ path: paths[2], reason: "changed since preview" }),
    ]);
    const again = await send("POST", "/api/delete", { previewId: selection.previewId });
    expect(again.status).toBe(404);
    expect((await send("POST", "/api/delete", { previewId: "AAAAAAAAAAAAAAAA" })).status).toBe(404);
    expect((await send("POST", "/api/delete", { previewId: "../../etc" })).status).toBe(400);
  });
});

describe("deletes decide on the config file as it is now, not on the server's last look", () => {
  it("a session protected by a hand edit right before the delete is kept", async () => {
    const plan = PlanSchema.parse(await (await get("/api/plan")).json()); // the server has looked
    const protectedOne = plan.candidates[0]!;
    writeFileSync(
      configFile,
      JSON.stringify({
        retention: { maxAgeDays: 30, minKeepRecentCount: 1, keepLastPerNamespace: 0 },
        protection: { protectedPatterns: [protectedOne.path] },
        deletion: { target: "quarantine" },
      }),
    );
    const response = await send("POST", "/api/delete", {
      items: plan.candidates.map((c) => ({ id: c.id, fingerprint: c.fingerprint })),
    });
    const result = (await response.json()) as {
      moved: { path: string }[];
      skipped: { path: string; reason: string }[];
    };
    expect(result.skipped).toEqual([
      expect.objectContaining({ path: protectedOne.path, reason: expect.stringMatching(/^protected: /) }),
    ]);
    expect(existsSync(protectedOne.path)).toBe(true);
    expect(result.moved.length).toBe(plan.candidates.length - 1);
  });

  it("a config made invalid by hand right before: delete and purge answer 409 and change nothing; restore works", async () => {
    const plan = PlanSchema.parse(await (await get("/api/plan")).json());
    const [first, second] = plan.candidates as [(typeof plan.candidates)[0], (typeof plan.candidates)[0]];
    await send("POST", "/api/delete", { items: [{ id: first.id, fingerprint: first.fingerprint }] });
    const trash = (await (await get("/api/trash")).json()) as {
      entries: {
        entryId: string;
        originalPath: string;
        location: string;
        sizeBytes: number;
        state: string;
      }[];
    };
    const entry = trash.entries.find((e) => e.state === "in-trash" && e.originalPath === first.path)!;
    writeFileSync(configFile, '{ "retention": { "maxAgeDays": "soon" } }');

    const deleted = await send("POST", "/api/delete", {
      items: [{ id: second.id, fingerprint: second.fingerprint }],
    });
    expect(deleted.status).toBe(409);
    expect(existsSync(second.path)).toBe(true);
    const purged = await send("POST", "/api/trash/purge", {
      refs: [entry.entryId],
      confirm: `1:${entry.sizeBytes}`,
    });
    expect(purged.status).toBe(409);
    expect(((await purged.json()) as { error: { message: string } }).error.message).toMatch(/^read-only: /);
    expect(existsSync(entry.location)).toBe(true);
    const restored = await send("POST", "/api/trash/restore", { refs: [entry.entryId] });
    expect(((await restored.json()) as { done: unknown[] }).done).toHaveLength(1);
    expect(existsSync(first.path)).toBe(true);
  });
});

describe("growth", () => {
  it("the first scan backfills 30 estimated days; each scan adds a measured point, one per hour", async () => {
    const growth = await (await get("/api/growth?days=30")).json();
    const parsed = GrowthResponseSchema.parse(growth);
    expect(parsed.points.length).toBeGreaterThanOrEqual(30);
    expect(parsed.points.slice(0, -1).every((p) => p.estimated)).toBe(true);
    expect(parsed.points.at(-1)!.estimated).toBeUndefined();
    const again = GrowthResponseSchema.parse(await (await get("/api/growth?days=30")).json());
    expect(again.points).toHaveLength(parsed.points.length); // same hour: coalesced
    const week = GrowthResponseSchema.parse(
      await (await get("/api/growth?days=7&namespace=/work/app")).json(),
    );
    expect(week.points.at(-1)!.count).toBe(2);
    expect((await get("/api/growth?days=0")).status).toBe(400);
  });

  it("a corrupt growth file is set aside, never fatal", async () => {
    await get("/api/growth");
    const file = growthFile(statePaths().dir, [{ kind: "pi", root }]);
    writeFileSync(file, "{ torn");
    expect((await get("/api/growth")).status).toBe(200);
    const name = file.slice(file.lastIndexOf("/") + 1);
    expect(readdirSync(join(file, "..")).some((n) => n.startsWith(`${name}.corrupt-`))).toBe(true);
  });
});

describe("reports", () => {
  it("the plan as Markdown or JSON, and the cleanups since a date; the CLI writes the same", async () => {
    const md = await get("/api/reports/plan");
    expect(md.headers.get("content-type")).toContain("text/markdown");
    expect((await md.text()).split("\n")[0]).toMatch(/^# Cleanup plan — /);
    PlanSchema.parse(await (await get("/api/reports/plan?format=json")).json());
    // From now on: the earlier tests' cleanups in this file's audit log are before it.
    const since = new Date().toISOString();
    const cleanups = await get(`/api/reports/cleanups?since=${encodeURIComponent(since)}&format=json`);
    expect(await cleanups.json()).toMatchObject({ totals: { moved: 0 } });
    expect((await get("/api/reports/cleanups?since=yesterday")).status).toBe(400);

    const { runCli } = await import("../cli/main.js");
    const out = join(mkdtempSync(join(tmpdir(), "sr-report-")), "plan.md");
    const io = { stdout: () => {}, stderr: () => {} };
    expect(await runCli(["report", "--root", root, "--config", configFile, "--out", out], io)).toBe(0);
    expect(readFileSync(out, "utf8")).toContain("## Would be removed");
    expect(await runCli(["report", "--since", "1d", "--format", "json", "--out", out], io)).toBe(0);
    expect(JSON.parse(readFileSync(out, "utf8"))).toHaveProperty("totals");
  });
});

describe("freshness of what reads see", () => {
  it("a stale look answers at once while a new one is taken; a change makes reads wait for a new look", async () => {
    const service = createDashboardService({
      stores: piStores(root),
      source: { kind: "pi" },
      config: { file: configFile },
      freshMs: 0,
    });
    expect((await service.getSummary()).summary.sessionCount).toBe(4);
    writeSession(root, "/work/new", 1);
    // Stale: answered from the last look, and a rescan starts behind it.
    expect((await service.getSummary()).summary.sessionCount).toBe(4);
    await expect.poll(async () => (await service.getSummary()).summary.sessionCount).toBe(5);

    // Pinning changes what the table says: the very next read shows it.
    const [row] = (await service.sessions(SessionsQuerySchema.parse({}))).rows;
    await service.protect({ ids: [row![0]], protect: true });
    const after = (await service.sessions(SessionsQuerySchema.parse({}))).rows.find((r) => r[0] === row![0]);
    expect(after![12]).toBe("pinned");
  });
});

describe("scan progress", () => {
  it("POST /api/scan starts a scan; /api/scan/progress streams its progress as server-sent events, then done", async () => {
    const start = await send("POST", "/api/scan", {});
    expect(start.status).toBe(202);
    expect(await start.json()).toEqual({ started: true });
    const response = await get("/api/scan/progress");
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const text = await response.text();
    const events = [...text.matchAll(/event: (\w+)\ndata: (.*)\n/g)].map(([, event, data]) => ({
      event,
      data: JSON.parse(data!) as { phase?: string; filesDone?: number; filesTotal?: number },
    }));
    expect(events.at(-1)).toEqual({ event: "done", data: {} });
    const last = events.filter((e) => e.event === "progress").at(-1)!.data;
    expect(last).toMatchObject({ phase: "done", filesDone: 4, filesTotal: 4 });
    expect((await send("POST", "/api/scan", { now: true })).status).toBe(400);
  });
});

describe("GET /api/sessions/:id", () => {
  it("returns the record, what the file holds, why it is kept, and lineage; bad ids 400, unknown 404", async () => {
    const newest = (await sessionRows()).sessions.at(-1)!;
    const response = await get(`/api/sessions/${newest.id}`);
    expect(response.status).toBe(200);
    const body = SessionDetailResponseSchema.parse(await response.json());
    expect(body.session.path).toBe(paths[3]);
    expect(body.kept).toMatchObject({ reason: "recent" });
    expect(body.detail?.firstUserMessage).toBe("question 0 in /play");
    // The record carries it too, from the scan: the title of a session without a name.
    expect(body.session.firstMessage).toBe("question 0 in /play");
    expect(body.detail?.entryTypes.message).toBe(8);
    expect(body.lineage).toEqual({ forks: [] });
    expect((await get("/api/sessions/..%2F..%2Fetc")).status).toBe(400);
    expect((await get("/api/sessions/0190ffff-0000-7000-8000-000000000000")).status).toBe(404);
  });
});
