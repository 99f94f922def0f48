// A preview counts only what can move: with Codex sessions among the candidates and no `codex`
// binary to delete them with, the CLI's DELETE prompt, `plan`, the dashboard's plan and its
// selection plan all leave them out — each reason said once, with its sessions — and the count a
// user confirms is the count that moves.
import { existsSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Plan, PlanSchema } from "../../shared/plan.js";
import { SoftDeleteResultSchema } from "../../shared/trash.js";
import { writeCodexStore } from "../../test-support/codex-store.js";
import { setModified, writeSession } from "../../test-support/pi-store.js";
import { runCaptured as run } from "../../test-support/cli-run.js";
import { snapshotTree, treeChanges } from "../../test-support/tree-snapshot.js";
import type { CleanJson } from "../cli/clean-command.js";
import { createApp } from "../http/app.js";
import { createDashboardService } from "../http/dashboard-service.js";
import { piStores } from "../../test-support/pi-stores.js";

/** Codex's own reason, as codexTools gives it when no binary is found. */
const NO_CODEX = /no `codex` binary was found: put it on PATH or set SESSION_RETENTION_CODEX$/;

let saved: { PATH?: string; SESSION_RETENTION_CODEX?: string };
beforeEach(() => {
  saved = { PATH: process.env.PATH, SESSION_RETENTION_CODEX: process.env.SESSION_RETENTION_CODEX };
  // No `codex` anywhere on PATH (npx puts node_modules/.bin, which has one, first).
  process.env.PATH = (process.env.PATH ?? "")
    .split(delimiter)
    .filter((dir) => dir && !existsSync(join(dir, "codex")))
    .join(delimiter);
  delete process.env.SESSION_RETENTION_CODEX;
});
afterEach(() => {
  process.env.PATH = saved.PATH;
  if (saved.SESSION_RETENTION_CODEX !== undefined)
    process.env.SESSION_RETENTION_CODEX = saved.SESSION_RETENTION_CODEX;
});

/** Five old pi sessions and a Codex store (sixteen threads, families among them), all past the age limit. */
function stores() {
  const pi = realpathSync(mkdtempSync(join(tmpdir(), "sr-pi-")));
  for (let i = 0; i < 5; i++)
    setModified(writeSession(pi, `/work/p${i}`, 1 + i).getSessionFile()!, new Date(Date.UTC(2025, 0, 1 + i)));
  const codex = writeCodexStore(realpathSync(mkdtempSync(join(tmpdir(), "sr-codex-"))));
  const config = join(realpathSync(mkdtempSync(join(tmpdir(), "sr-cfg-"))), "session-retention.json");
  writeFileSync(
    config,
    JSON.stringify({
      retention: { maxAgeDays: 30, minKeepRecentCount: 0, keepLastPerNamespace: 0, allowEmptyStore: true },
      deletion: { target: "quarantine" },
    }),
  );
  return { pi, codex: codex.root, config };
}

/** The sessions left out, by reason. */
const leftOutCounts = (groups: Plan["leftOut"]) =>
  Object.fromEntries((groups ?? []).map((g) => [g.reason, g.sessions.length]));

describe("a preview with Codex sessions and no `codex` binary", () => {
  it("CLI: the DELETE prompt's count is the count that moves; the Codex sessions are left out, said once", async () => {
    const s = stores();
    const args = ["--root", s.pi, "--store", `codex:${s.codex}`, "--config", s.config];
    const codexBefore = snapshotTree([s.codex]);

    const plan = await run(["plan", ...args]);
    expect(plan.status).toBe(0);
    // One paragraph for the reason, whatever the number of sessions it holds.
    expect(plan.stdout.match(/no `codex` binary was found/g)).toHaveLength(1);
    expect(plan.stdout).toMatch(/Left out: \d+ sessions that cannot be moved now, not counted above:/);
    const planned = PlanSchema.parse(JSON.parse((await run(["plan", "--json", ...args])).stdout));
    expect(planned.candidates.map((c) => c.store.kind)).toEqual(Array(5).fill("pi"));
    const [reason, leftOut] = Object.entries(leftOutCounts(planned.leftOut))[0]!;
    expect(reason).toMatch(NO_CODEX);
    expect(leftOut).toBeGreaterThan(0);

    const clean = await run(["clean", "--json", ...args], () => "DELETE");
    expect(clean.status).toBe(0);
    const document = JSON.parse(clean.stdout) as CleanJson;
    const result = SoftDeleteResultSchema.parse(document.result);
    expect(clean.questions).toEqual([expect.stringMatching(/^Type DELETE to move 5 sessions /)]);
    expect(result.moved).toHaveLength(5);
    expect(result.skipped).toEqual([]);
    expect(leftOutCounts(document.leftOut)).toEqual({ [reason]: leftOut });
    // Nothing of Codex's store was touched.
    expect(treeChanges(codexBefore, snapshotTree([s.codex]))).toEqual([]);
  });

  it("dashboard: the plan's and the selection's counts are what the delete moves", async () => {
    const s = stores();
    const service = createDashboardService({
      stores: [...piStores(s.pi), { kind: "codex", root: s.codex }],
      source: { kind: "pi" },
      config: { file: s.config },
    });
    const app = createApp({ api: service, port: () => 4997, token: "t" });
    const headers = { Host: "127.0.0.1:4997", Authorization: "Bearer t" };
    const request = (path: string, body?: unknown) =>
      app.request(`http://127.0.0.1:4997${path}`, {
        method: body === undefined ? "GET" : "POST",
        headers: body === undefined ? headers : { ...headers, "Content-Type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    const codexBefore = snapshotTree([s.codex]);

    // The headline's and the wizard's plan (GET /api/plan).
    const plan = PlanSchema.parse(await (await request("/api/plan")).json());
    expect(plan.candidates).toHaveLength(5);
    const [reason] = Object.keys(leftOutCounts(plan.leftOut));
    expect(reason).toMatch(NO_CODEX);
    const deleted = SoftDeleteResultSchema.parse(
      await (await request("/api/delete", { previewId: plan.previewId })).json(),
    );
    expect(deleted.moved).toHaveLength(plan.candidates.length);
    expect(deleted.skipped).toEqual([]);

    // A hand selection of every session left: the Codex ones are left out there too.
    const sessions = (await service.plan()).kept.map((k) => k.id);
    const selection = PlanSchema.parse(
      await (await request("/api/plan/selection", { ids: sessions })).json(),
    );
    expect(selection.candidates).toEqual([]);
    expect(Object.keys(leftOutCounts(selection.leftOut))).toEqual([reason]);
    expect(treeChanges(codexBefore, snapshotTree([s.codex]))).toEqual([]);
  });
});
