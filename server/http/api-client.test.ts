// The web app's typed client against the real routes and service on a real store: every endpoint
// once, through the same validation the dashboard uses, and the errors it turns answers into.
import { existsSync, mkdtempSync, readFileSync, realpathSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { writeClaudeTranscript } from "../../test-support/claude-transcript.js";
import { setModified, writeSession } from "../../test-support/pi-store.js";
import { filterSessions, NO_FILTER, type SessionFilter } from "../../shared/session-filter.js";
import { ApiError, type ApiClient, createApiClient } from "../../web/src/api/client.js";
import { createApp } from "./app.js";
import { createDashboardService } from "./dashboard-service.js";
import { piStores } from "../../test-support/pi-stores.js";

const PORT = 4997;
const TOKEN = "client-token";

let root: string;
let configFile: string;
let paths: string[];
let app: ReturnType<typeof createApp>;
let client: ApiClient;

const clientFor = (fetch: typeof globalThis.fetch, token = TOKEN) =>
  createApiClient({ base: `http://127.0.0.1:${PORT}`, fetch, token: () => token });

/** The app as the page's fetch reaches it: a browser adds the Host and same-origin headers itself. */
const browserFetch: typeof fetch = async (input, init) =>
  app.request(input as string, {
    ...init,
    headers: {
      ...(init?.headers as Record<string, string>),
      Host: `127.0.0.1:${PORT}`,
      "Sec-Fetch-Site": "same-origin",
    },
  });

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "sr-client-")));
  paths = ["/work/app", "/work/app", "/work/lib"].map((cwd, i) => {
    const path = writeSession(root, cwd, 1 + i).getSessionFile()!;
    setModified(path, new Date(Date.UTC(2025, 0, 1 + i)));
    return path;
  });
  configFile = join(mkdtempSync(join(tmpdir(), "sr-client-cfg-")), "session-retention.json");
  writeFileSync(
    configFile,
    JSON.stringify({
      retention: { maxAgeDays: 30, minKeepRecentCount: 1, keepLastPerNamespace: 0 },
      deletion: { target: "quarantine" },
    }),
  );
  const api = createDashboardService({
    stores: piStores(root),
    source: { kind: "pi" },
    config: { file: configFile },
  });
  app = createApp({ api, port: () => PORT, token: TOKEN });
  client = clientFor(browserFetch);
});

describe("the web app's API client", () => {
  it("reads the summary, the decoded table, a session's detail, the plan and growth", async () => {
    const summary = await client.summary();
    expect(summary.summary.sessionCount).toBe(3);
    const table = await client.sessions({ sort: "size" });
    expect(table.rows.map((r) => r.path).sort()).toEqual([...paths].sort());
    expect(table.rows[0]!.sizeBytes).toBeGreaterThanOrEqual(table.rows[2]!.sizeBytes);
    const filtered = await client.sessions({ namespace: "/work/lib" });
    expect(filtered.rows.map((r) => r.path)).toEqual([paths[2]]);

    const detail = await client.session(table.rows[0]!.id);
    expect(detail.session.path).toBe(table.rows[0]!.path);
    expect(detail.detail?.firstUserMessage).toBeDefined();

    const plan = await client.plan();
    // Three sessions older than 30 days, the newest kept by minKeepRecentCount.
    expect(plan.candidates.map((c) => c.path).sort()).toEqual([paths[0], paths[1]].sort());
    expect((await client.growth(7)).days).toBe(7);
    expect((await client.growth(7)).byNamespace).toBeUndefined();
    const byNamespace = (await client.growth(30, undefined, "namespace")).byNamespace!;
    expect([...byNamespace.namespaces].sort()).toEqual(["/work/app", "/work/lib"]);
    const latest = byNamespace.points.at(-1)!;
    expect(latest.series.reduce((a, b) => a + b, 0)).toBe(latest.bytes);
    expect(latest.bytes).toBe(summary.summary.totalBytes);
  });

  it("plans a hand selection: the pinned one is kept with its reason, the rest would go", async () => {
    const { rows } = await client.sessions();
    await client.protect([rows[0]!.id], true);
    const plan = await client.planSelection({ ids: [rows[0]!.id, rows[1]!.id] });
    expect(plan.candidates.map((c) => [c.id, c.rule])).toEqual([[rows[1]!.id, "selected"]]);
    expect(plan.kept.find((k) => k.id === rows[0]!.id)?.reason).toBe("pinned");
    expect(plan.bytesToFree).toBe(rows[1]!.sizeBytes);
    const bad = await client.planSelection({ ids: ["../../etc"] }).catch((e) => e);
    expect((bad as ApiError).status).toBe(400);
  });

  it("plans every session matching a filter: exactly the rows the table shows for it, exemptions applied", async () => {
    const { rows } = await client.sessions();
    await client.protect([rows.find((r) => r.path === paths[0])!.id], true);
    const table = (await client.sessions()).rows;
    const filters: Partial<SessionFilter>[] = [
      {},
      { namespace: "/work/app" },
      { text: "LIB" },
      { status: "deletable" },
      { status: "kept" },
      { store: "agentsh" },
    ];
    for (const patch of filters) {
      const filter = { ...NO_FILTER, ...patch };
      const shown = filterSessions(table, filter); // what the sessions page shows, with its own function
      const plan = await client.planSelection({ filter: patch });
      const sorted = (ids: string[]) => [...ids].sort();
      expect(sorted(plan.candidates.map((c) => c.id)), JSON.stringify(patch)).toEqual(
        sorted(shown.filter((r) => !r.kept).map((r) => r.id)),
      );
      expect(plan.candidates.every((c) => c.rule === "selected")).toBe(true);
      // The kept ones the filter matched are kept with the reason the table shows.
      for (const row of shown.filter((r) => r.kept))
        expect(plan.kept.find((k) => k.id === row.id)?.reason).toBe(row.kept);
    }
    for (const body of [
      { filter: { path: "/" } },
      { filter: { store: "any" } },
      { ids: [rows[0]!.id], filter: {} },
    ]) {
      const bad = await client.planSelection(body as never).catch((e) => e);
      expect((bad as ApiError).status).toBe(400);
    }
  });

  it("follows a scan's progress stream to its end", async () => {
    expect(await client.startScan()).toBe(true);
    const seen: string[] = [];
    await client.followScan((p) => seen.push(p.phase));
    expect(seen.at(-1)).toBe("done");
  });

  it("previews a policy without saving it; an invalid one reports every problem by path", async () => {
    const before = readFileSync(configFile, "utf8");
    const preview = await client.previewPlan({ retention: { maxAgeDays: 100_000 } });
    expect(preview.candidates).toEqual([]);
    const refused = await client.previewPlan({ quota: { warnRatio: 3 }, mode: "loud" }).catch((e) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).status).toBe(400);
    expect((refused as ApiError).problems.map((p) => p.path).sort()).toEqual(["mode", "quota.warnRatio"]);
    expect(readFileSync(configFile, "utf8")).toBe(before);

    const saved = await client.savePolicy({ mode: "hard-block" });
    expect(saved).toMatchObject({ source: "file", raw: { mode: "hard-block" } });
    expect((await client.policy()).config?.mode).toBe("hard-block");
  });

  it("deletes, lists the trash, restores, deletes again and purges with the echoed count and bytes", async () => {
    const { total: auditBefore } = await client.audit({ limit: 1 });
    const plan = await client.plan();
    const target = plan.candidates[0]!;
    const deleted = await client.deleteSessions({
      items: [{ id: target.id, fingerprint: target.fingerprint! }],
      dryRun: false,
    });
    expect(deleted.moved.map((m) => m.path)).toEqual([target.path]);
    expect(existsSync(target.path)).toBe(false);

    const [entry] = (await client.trash()).entries.filter((e) => e.state === "in-trash");
    expect(entry!.originalPath).toBe(target.path);
    expect((await client.restore([entry!.entryId])).done).toHaveLength(1);
    expect(existsSync(target.path)).toBe(true);

    const again = (await client.plan()).candidates.find((c) => c.id === target.id)!;
    await client.deleteSessions({
      items: [{ id: again.id, fingerprint: again.fingerprint! }],
      dryRun: false,
    });
    const inTrash = (await client.trash()).entries.filter((e) => e.state === "in-trash");
    const wrong = await client.purge([inTrash[0]!.entryId], "1:1").catch((e) => e);
    expect((wrong as ApiError).status).toBe(409);
    const purged = await client.purge([inTrash[0]!.entryId], `1:${inTrash[0]!.sizeBytes}`);
    expect(purged.done).toHaveLength(1);

    const audit = await client.audit({ limit: 10 });
    expect(audit.total).toBe(auditBefore + 4);
    // Newest first.
    expect(audit.entries.slice(0, 4).map((e) => e.action)).toEqual([
      "purge",
      "soft-delete",
      "restore",
      "soft-delete",
    ]);
    const report = await client.report({ since: "2000-01-01T00:00:00Z" }, "md");
    expect(report).toContain(target.path);
    // Filtered: only purges; and the report of one past operation.
    const purges = await client.audit({ action: "purge" });
    expect(purges.entries.map((e) => e.action)).toEqual(["purge"]);
    const firstDelete = audit.entries[3]!;
    const one = JSON.parse(
      await client.report({ since: firstDelete.time, operation: firstDelete.operationId! }, "json"),
    ) as { operations: { action: string }[] };
    expect(one.operations.map((o) => o.action)).toEqual(["soft-delete"]);
  });

  it("keeps the Claude Code sessions Claude's own cleanup would delete: their file time becomes now", async () => {
    const claudeRoot = realpathSync(mkdtempSync(join(tmpdir(), "sr-client-claude-")));
    const day = 86_400_000;
    const old = "0b5e7c1e-0000-4000-8000-000000000001";
    const oldPath = writeClaudeTranscript(claudeRoot, {
      id: old,
      cwd: "/work/app",
      modified: new Date(Date.now() - 60 * day),
    });
    writeClaudeTranscript(claudeRoot, {
      id: "0b5e7c1e-0000-4000-8000-000000000002",
      cwd: "/work/app",
      modified: new Date(Date.now() - day),
    });
    const api = createDashboardService({
      stores: [...piStores(root), { kind: "claude", root: claudeRoot }],
      source: { kind: "pi" },
      config: { file: configFile },
    });
    app = createApp({ api, port: () => PORT, token: TOKEN });

    const summary = await client.summary();
    expect(summary.agents.map((a) => [a.kind, a.sessionCount])).toEqual(
      expect.arrayContaining([
        ["pi", 3],
        ["claude", 2],
      ]),
    );
    const [sweep] = summary.externalSweeps!;
    expect(sweep).toMatchObject({ agent: "claude", storeRoot: claudeRoot, days: 30, ids: [`claude:${old}`] });

    const { kept } = await client.keep(sweep!.ids);
    expect(kept.map((k) => [k.id, k.path])).toEqual([[`claude:${old}`, oldPath]]);
    expect(Date.now() - statSync(oldPath).mtimeMs).toBeLessThan(60_000);
    expect((await client.summary()).externalSweeps).toBeUndefined();
    expect((await client.audit({ action: "keep" })).entries.map((e) => e.items[0]!.id)).toEqual([
      `claude:${old}`,
    ]);

    // Only Claude sessions are kept this way, and an unknown id changes nothing.
    const piId = (await client.sessions({ store: "pi" })).rows[0]!.id;
    expect(((await client.keep([piId]).catch((e) => e)) as ApiError).status).toBe(400);
    expect(((await client.keep(["claude:unknown"]).catch((e) => e)) as ApiError).status).toBe(404);
  });

  it("protects by id and says when an id is unknown", async () => {
    const [row] = (await client.sessions()).rows;
    expect((await client.protect([row!.id], true)).changed).toEqual([row!.id]);
    expect((await client.sessions()).rows.find((r) => r.id === row!.id)!.kept).toBe("pinned");
    const unknown = await client.protect(["0000000000-unknown"], true).catch((e) => e);
    expect((unknown as ApiError).status).toBe(404);
  });

  it("turns a missing token, an unreachable server and a foreign answer into plain messages", async () => {
    const noToken = clientFor(browserFetch, "wrong");
    await expect(noToken.summary()).rejects.toThrow(/no valid access token/);
    const down = clientFor(() => Promise.reject(new TypeError("fetch failed")));
    await expect(down.summary()).rejects.toThrow(/not reachable/);
    const foreign = clientFor(() => Promise.resolve(Response.json({ hello: "world" })));
    await expect(foreign.summary()).rejects.toThrow(/does not understand/);
  });
});
