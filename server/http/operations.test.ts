// A delete as an operation, through the real routes, service and engine on a real store, with the
// page's own client: its status while it runs, a stop mid-run, the result kept for a page that
// comes back (until dismissed), its undo, and the guard in front of every route.
import { existsSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import type { OperationStatus } from "../../shared/api.js";
import { setModified, writeSession } from "../../test-support/pi-store.js";
import { ApiError, type ApiClient, createApiClient } from "../../web/src/api/client.js";
import { runCli } from "../cli/main.js";
import { STOPPED_REASON } from "../delete/deletion-engine.js";
import { createApp } from "./app.js";
import { createDashboardService } from "./dashboard-service.js";
import { piStores } from "../../test-support/pi-stores.js";

const PORT = 4996;
const TOKEN = "operations-token";
const ORIGIN = `http://127.0.0.1:${PORT}`;
const SESSIONS = 200;

let paths: string[];
let configFile: string;
let app: ReturnType<typeof createApp>;
let client: ApiClient;

beforeEach(() => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "sr-ops-")));
  paths = Array.from({ length: SESSIONS }, (_, i) => {
    const path = writeSession(root, `/work/p${i % 4}`, 1).getSessionFile()!;
    setModified(path, new Date(Date.UTC(2025, 0, 1)));
    return path;
  });
  configFile = join(mkdtempSync(join(tmpdir(), "sr-ops-cfg-")), "session-retention.json");
  writeFileSync(
    configFile,
    JSON.stringify({
      retention: { minKeepRecentCount: 0, keepLastPerNamespace: 0, allowEmptyStore: true },
      deletion: { target: "quarantine" },
    }),
  );
  const api = createDashboardService({
    stores: piStores(root),
    source: { kind: "pi" },
    config: { file: configFile },
  });
  app = createApp({ api, port: () => PORT, token: TOKEN });
  client = createApiClient({
    base: ORIGIN,
    token: () => TOKEN,
    fetch: async (input, init) =>
      app.request(input as string, {
        ...init,
        headers: {
          ...(init?.headers as Record<string, string>),
          Host: `127.0.0.1:${PORT}`,
          "Sec-Fetch-Site": "same-origin",
        },
      }),
  });
});

/** The ids the table would send: every session, as a preview the delete executes. */
async function preview() {
  const { rows } = await client.sessions();
  return (await client.planSelection({ ids: rows.map((s) => s.id) })).previewId!;
}

/** Asks for the status between the engine's items (it lets the event loop run after each). */
async function until(ok: (status: OperationStatus) => boolean): Promise<OperationStatus> {
  for (;;) {
    const status = await client.operation();
    if (ok(status)) return status;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe("a delete as an operation", () => {
  it("reports progress, stops after the current item, keeps the result until dismissed, and undoes", async () => {
    expect(await client.operation()).toEqual({ state: "none" });
    const started = await client.startDelete({ previewId: await preview(), dryRun: false });
    expect(started).toMatchObject({ state: "running", phase: "preparing", stopRequested: false });
    const id = started.state === "running" ? started.id : "";

    // A second delete while one runs is refused, and says why.
    await expect(client.startDelete({ previewId: await preview(), dryRun: false })).rejects.toMatchObject({
      status: 409,
      message: expect.stringMatching(/already running/),
    });

    const moving = await until((s) => s.state === "running" && s.phase === "moving" && s.done >= 5);
    expect(moving).toMatchObject({ total: SESSIONS });
    expect(await client.stopOperation(id)).toMatchObject({ state: "running", stopRequested: true });

    const finished = await until((s) => s.state !== "running");
    if (finished.state !== "finished") throw new Error(`not finished: ${JSON.stringify(finished)}`);
    const { result } = finished;
    expect(result.moved.length).toBeGreaterThanOrEqual(5);
    expect(result.moved.length).toBeLessThan(SESSIONS);
    expect(result.stopped).toEqual({ after: result.moved.length, of: SESSIONS });
    expect(result.skipped).toHaveLength(SESSIONS - result.moved.length);
    expect(result.skipped.every((s) => s.reason === STOPPED_REASON)).toBe(true);
    const moved = new Set(result.moved.map((m) => m.path));
    for (const path of paths) expect(existsSync(path)).toBe(!moved.has(path));

    // A page that comes back (a reload) finds the same result; the table no longer lists what moved.
    expect(await client.operation()).toEqual(finished);
    expect((await client.sessions()).total).toBe(SESSIONS - moved.size);

    // A stop for an operation that no longer runs is refused; dismiss forgets the result.
    await expect(client.stopOperation(id)).rejects.toMatchObject({ status: 409 });
    expect(await client.dismissOperation(id)).toEqual({ state: "none" });
    expect(await client.operation()).toEqual({ state: "none" });

    // Its undo: the trash entries of its engine operation.
    const { entries } = await client.trash();
    const refs = entries
      .filter((e) => e.state === "in-trash" && e.entryId.startsWith(`${result.operationId}:`))
      .map((e) => e.entryId);
    expect(refs).toHaveLength(moved.size);
    expect((await client.restore(refs)).done).toHaveLength(moved.size);
    for (const path of paths) expect(existsSync(path)).toBe(true);
  });

  it("a result says what became of its sessions since — restored by the CLI, by its Undo, purged — as the journal does", async () => {
    const { rows } = await client.sessions();
    const previewId = (await client.planSelection({ ids: rows.slice(0, 4).map((s) => s.id) })).previewId!;
    await client.startDelete({ previewId, dryRun: false });
    const finished = await until((s) => s.state !== "running");
    if (finished.state !== "finished") throw new Error(`not finished: ${JSON.stringify(finished)}`);
    const operationId = finished.result.operationId!;
    expect(finished.result.moved).toHaveLength(4);
    expect(finished.since).toEqual({ restored: 0, inTrash: 4 });

    // One restored from a terminal, the page's result not dismissed: the next read says so.
    const entries = (await client.trash()).entries.filter((e) => e.entryId.startsWith(`${operationId}:`));
    const out: string[] = [];
    const io = { stdout: (t: string) => out.push(t), stderr: (t: string) => out.push(t) };
    expect(
      await runCli(["trash", "restore", "--config", configFile, entries[0]!.entryId], io),
      out.join(""),
    ).toBe(0);
    const partly = await client.operation();
    expect(partly).toMatchObject({ state: "finished", since: { restored: 1, inTrash: 3 } });
    const restoredAt = partly.state === "finished" ? partly.since!.restoredAt! : "";
    expect(Date.parse(restoredAt)).toBeGreaterThanOrEqual(Date.parse(finished.finishedAt));

    // One purged for good: neither restored nor in the trash. The Undo restores the two left.
    const purged = entries[1]!;
    expect((await client.purge([purged.entryId], `1:${purged.sizeBytes}`)).done).toHaveLength(1);
    expect(await client.operation()).toMatchObject({ since: { restored: 1, inTrash: 2 } });
    expect((await client.restore([operationId])).done).toHaveLength(2);
    expect(await client.operation()).toMatchObject({ since: { restored: 3, inTrash: 0 } });
    expect(
      (await client.trash()).entries
        .filter((e) => e.entryId.startsWith(`${operationId}:`))
        .map((e) => e.state)
        .sort(),
    ).toEqual(["purged", "restored", "restored", "restored"]);
  });

  it("an expired preview starts no operation: 404, and the status stays as it was", async () => {
    await expect(client.startDelete({ previewId: "no-such-preview", dryRun: false })).rejects.toBeInstanceOf(
      ApiError,
    );
    expect(await client.operation()).toEqual({ state: "none" });
  });

  it("a dry run finishes as a result, unstopped, and moves nothing", async () => {
    const started = await client.startDelete({ previewId: await preview(), dryRun: true });
    const done = await until((s) => s.state !== "running");
    expect(done).toMatchObject({ state: "finished", id: started.state === "running" ? started.id : "" });
    if (done.state === "finished") {
      expect(done.result.dryRun).toBe(true);
      expect(done.result.stopped).toBeUndefined();
    }
    for (const path of paths) expect(existsSync(path)).toBe(true);
  });
});

describe("the operation routes are guarded like every mutating route", () => {
  const send = (path: string, headers: Record<string, string>, body?: unknown) =>
    app.request(`${ORIGIN}${path}`, {
      method: body === undefined ? "GET" : "POST",
      headers: { Host: `127.0.0.1:${PORT}`, ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const json = { "Content-Type": "application/json" };
  const token = { Authorization: `Bearer ${TOKEN}` };

  it.each([
    ["no token", "/api/operations/current", {}, undefined, 401],
    ["no token", "/api/operations/current/stop", json, { id: "abcdefgh" }, 401],
    ["no token", "/api/operations/delete", json, { previewId: "abcdefgh" }, 401],
    [
      "a cross-site page",
      "/api/operations/current/stop",
      { ...json, ...token, "Sec-Fetch-Site": "cross-site" },
      { id: "abcdefgh" },
      403,
    ],
    [
      "a cross-site page",
      "/api/operations/delete",
      { ...json, ...token, Origin: "https://evil.example" },
      { previewId: "abcdefgh" },
      403,
    ],
    [
      "a form post",
      "/api/operations/current/dismiss",
      { ...token, "Content-Type": "text/plain" },
      { id: "abcdefgh" },
      415,
    ],
    ["a bad id", "/api/operations/current/stop", { ...json, ...token }, { id: "../x" }, 400],
    [
      "an unknown field",
      "/api/operations/current/dismiss",
      { ...json, ...token },
      { id: "abcdefgh", all: true },
      400,
    ],
  ])("%s: %s is refused", async (_why, path, headers, body, status) => {
    expect((await send(path, headers as Record<string, string>, body)).status).toBe(status);
    expect(await client.operation()).toEqual({ state: "none" });
    for (const path of paths) expect(existsSync(path)).toBe(true);
  });
});
