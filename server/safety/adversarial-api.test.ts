// The dashboard's API and the library API against hostile places (test-support/hostile-home.ts):
// a policy naming `/`, home, a symlink to it, `""`… as a store root or the quarantine is refused
// with 400 and the rule (the config file byte-identical); `scanStores` and `pruneSessions` reject
// such roots with the gate's RefusedPlaceError. Nothing in the sandbox changes, ever.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BAIT_IDS,
  baitConfig,
  byName,
  configOf,
  expectNamed,
  hostileConfigs,
  hostileSandbox,
  hostileStoreAttempts,
  type StoreAttempt,
  unchangedBy,
} from "../../test-support/hostile-home.js";
import { softDelete } from "../delete/deletion-engine.js";
import { createApp } from "../http/app.js";
import { createDashboardService } from "../http/dashboard-service.js";
import { scanStores } from "../scan/scanner.js";
import { statePaths } from "../state/state-dir.js";
import { pruneSessions } from "../workspace/workspace-api.js";
import { RefusedPlaceError } from "./place-gate.js";

const box = hostileSandbox();

// `.` must name a folder full of bait: the current folder is the sandbox's `work`.
let cwd: string;
beforeAll(() => {
  cwd = process.cwd();
  process.chdir(box.work);
});
afterAll(() => process.chdir(cwd));

describe("the dashboard: PUT /api/policy and POST /api/plan/preview", () => {
  const PORT = 4997;
  const TOKEN = "adversarial-token";
  let app: ReturnType<typeof createApp>;
  beforeAll(async () => {
    const service = createDashboardService({
      roots: [box.piStore],
      adapterStores: [],
      source: { kind: "pi" },
      config: {},
    });
    app = createApp({ api: service, port: () => PORT, token: TOKEN });
    // The dashboard's first look at its store (which writes the scan cache) happens here, not in a case.
    expect((await send("GET", "/api/summary")).status).toBe(200);
  });

  function send(method: string, path: string, body?: unknown) {
    return app.request(`http://127.0.0.1:${PORT}${path}`, {
      method,
      headers: {
        Host: `127.0.0.1:${PORT}`,
        Authorization: `Bearer ${TOKEN}`,
        "Content-Type": "application/json",
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
  }

  describe.each([
    ["PUT", "/api/policy"],
    ["POST", "/api/plan/preview"],
  ])("%s %s", (method, path) => {
    it.each(byName(hostileConfigs(box)))("%s → 400 naming it; nothing changes", async (_, c) => {
      const file = readFileSync(statePaths().configFile);
      const response = await unchangedBy(box, () => send(method, path, { config: baitConfig(configOf(c)) }));
      expect(response.status).toBe(400);
      const body = (await response.json()) as {
        error: { problems: Array<{ path: string; message: string }> };
      };
      const problem = body.error.problems.find((p) => p.path === c.at);
      expect(problem, JSON.stringify(body)).toBeDefined();
      expectNamed(problem!.message, c, "config");
      expect(readFileSync(statePaths().configFile)).toEqual(file);
    });
  });
});

describe("the library API", () => {
  /** The gate's error, or a failure if the call resolved. */
  async function refusal(call: () => Promise<unknown>): Promise<RefusedPlaceError> {
    const error = await unchangedBy(box, () =>
      call().then(
        () => undefined,
        (e: unknown) => e,
      ),
    );
    expect(error).toBeInstanceOf(RefusedPlaceError);
    return error as RefusedPlaceError;
  }
  const expectRefused = (error: RefusedPlaceError, tried: StoreAttempt) => {
    expect(error.rule).toBe(tried.rule);
    expectNamed(error.message, tried, "flag");
  };
  const attempts = byName(hostileStoreAttempts(box));

  it.each(attempts)("scanStores({ roots: [%s] }) rejects", async (_, { attempt }) => {
    const tried = attempt("pi");
    expectRefused(await refusal(() => scanStores({ roots: tried.roots })), tried);
  });

  it.each(attempts)("scanStores({ adapterStores: [agentsh at %s] }) rejects", async (_, { attempt }) => {
    const tried = attempt("agentsh");
    const adapterStores = tried.roots.map((root) => ({ kind: "agentsh" as const, root }));
    expectRefused(await refusal(() => scanStores({ roots: [], adapterStores })), tried);
  });

  // The engine resolves ids against its own scan of the roots it is given: with the bait's ids, a
  // broken gate would move the bait.
  it.each(attempts)("softDelete({ roots: [%s], items: the bait }) rejects", async (_, { attempt }) => {
    const tried = attempt("pi");
    const items = BAIT_IDS.map((id) => ({ id }));
    const remove = () =>
      softDelete({ items, roots: tried.roots, via: "selection", dryRun: tried.system }, { actor: "cli" });
    expectRefused(await refusal(remove), tried);
  });

  // One root per call: the nested pair does not apply.
  it.each(attempts.filter(([, { attempt }]) => attempt("workspace").roots.length === 1))(
    "pruneSessions({ workspaceRoot: %s, olderThanHours: 1 }) rejects",
    async (_, { attempt }) => {
      const tried = attempt("workspace");
      const prune = () =>
        pruneSessions({
          workspaceRoot: tried.roots[0]!,
          olderThanHours: 1,
          dryRun: tried.system,
          log: () => {},
        });
      expectRefused(await refusal(prune), tried);
    },
  );
});
