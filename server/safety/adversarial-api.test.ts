// The dashboard's API and the library API against hostile places (test-support/hostile-home.ts):
// a policy naming `/`, home, a symlink to it, `""`, a path holding a control character… as a store
// root or the quarantine is refused with 400 and the rule (the config file byte-identical);
// `scanStores`, `pruneSessions` and the workspace metadata writers reject such places with the
// gate's RefusedPlaceError; keeping Claude Code sessions refuses a transcript that is no longer
// where Claude keeps them, and everything that changes a store is refused while the config is
// invalid (read-only), which never makes the summary fail. Nothing in the sandbox changes, ever.
import { existsSync, readFileSync, renameSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
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
  hostileWorkspaceAttempts,
  LONG_AGO,
  type StoreAttempt,
  unchangedBy,
  writeBaitConfig,
} from "../../test-support/hostile-home.js";
import { writeClaudeTranscript } from "../../test-support/claude-transcript.js";
import { fileTimes } from "../../test-support/tree-snapshot.js";
import { canRunAsNobody, publicLinks, runAsNobody } from "../../test-support/unprivileged.js";
import type { SummaryResponse } from "../../shared/api.js";
import { ReadOnlyError } from "../config/config-file.js";
import { softDelete } from "../delete/deletion-engine.js";
import { createApp } from "../http/app.js";
import { createDashboardService } from "../http/dashboard-service.js";
import { scanStores } from "../scan/scanner.js";
import { statePaths } from "../state/state-dir.js";
import {
  createSessionMetadata,
  pruneSessions,
  repairSessionMetadata,
  touchSession,
} from "../workspace/workspace-api.js";
import { RefusedPlaceError } from "./place-gate.js";
import { piStores } from "../../test-support/pi-stores.js";

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
      stores: piStores(box.piStore),
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
    expectRefused(await refusal(() => scanStores({ stores: piStores(...tried.roots) })), tried);
  });

  it.each(attempts)("scanStores({ adapterStores: [agentsh at %s] }) rejects", async (_, { attempt }) => {
    const tried = attempt("agentsh");
    const stores = tried.roots.map((root) => ({ kind: "agentsh" as const, root }));
    expectRefused(await refusal(() => scanStores({ stores })), tried);
  });

  // The engine resolves ids against its own scan of the roots it is given: with the bait's ids, a
  // broken gate would move the bait.
  it.each(attempts)("softDelete({ roots: [%s], items: the bait }) rejects", async (_, { attempt }) => {
    const tried = attempt("pi");
    const items = BAIT_IDS.map((id) => ({ id }));
    const remove = () =>
      softDelete(
        { items, stores: piStores(...tried.roots), via: "selection", dryRun: tried.system },
        { actor: "cli" },
      );
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

describe("the library's workspace metadata writers", () => {
  const writers = [
    ["touchSession", (dir: string) => touchSession(dir)],
    ["createSessionMetadata", (dir: string) => createSessionMetadata(dir)],
    ["repairSessionMetadata", (dir: string) => repairSessionMetadata(dir)],
    ["repairSessionMetadata (dry run)", (dir: string) => repairSessionMetadata(dir, { dryRun: true })],
  ] as const;

  describe.each(writers)("%s", (name, write) => {
    it.each(byName(hostileWorkspaceAttempts(box).filter((a) => !a.system)))(
      "refuses %s; nothing is written",
      async (_, attempt) => {
        const error = await unchangedBy(box, () => {
          try {
            write(attempt.given);
          } catch (e) {
            return e;
          }
          return undefined;
        });
        expect(error).toBeInstanceOf(RefusedPlaceError);
        expect((error as RefusedPlaceError).rule).toBe(attempt.rule);
        expectNamed((error as RefusedPlaceError).message, attempt, "flag");
      },
    );

    // `/`, /etc, the account's home and links to them: in a process of nobody's, who could not
    // write there even if the gate let the call through (and with a time limit: a repair walks).
    const links = canRunAsNobody ? publicLinks() : undefined;
    const library = pathToFileURL(join(process.cwd(), "dist", "server", "index.js")).href;
    const call = `const lib = await import(${JSON.stringify(library)});
      const [fn, dir] = process.argv.slice(1);
      try {
        if (fn.startsWith("repairSessionMetadata")) lib.repairSessionMetadata(dir, { dryRun: fn.includes("dry") });
        else lib[fn](dir);
        console.log(JSON.stringify({ wrote: true }));
      } catch (e) {
        console.log(JSON.stringify({ name: e.name, rule: e.rule, message: e.message }));
      }`;
    it.skipIf(!canRunAsNobody).each(byName(hostileWorkspaceAttempts(box).filter((a) => a.system)))(
      "refuses %s, in a process of an unprivileged user",
      (_, attempt) => {
        const given =
          attempt.given === box.links.root
            ? links!.root
            : attempt.given === box.links.etc
              ? links!.etc
              : attempt.given;
        const account = hostileWorkspaceAttempts(box).find((a) => a.system && a.rule === "home");
        const run = runAsNobody(["--input-type=module", "-e", call, name, given], {
          cwd: links!.folder,
          env: {
            HOME: account?.resolved ?? "/nonexistent",
            PI_CODING_AGENT_DIR: "/nonexistent/agent",
            XDG_DATA_HOME: "/nonexistent/share",
          },
        });
        expect(run.signal, "killed by the time limit").toBeNull();
        const outcome = JSON.parse(run.stdout || "{}") as { name?: string; rule?: string; message?: string };
        expect(outcome.name, run.stderr).toBe("RefusedPlaceError");
        expect(outcome.rule).toBe(attempt.rule);
        expectNamed(outcome.message!, attempt, "flag");
      },
    );
  });
});

describe("keeping Claude Code sessions, and read-only", () => {
  const PORT = 4996;
  const TOKEN = "adversarial-keep";
  const claude = join(box.home, ".claude");
  const id = "0c1a0de0-0000-4000-8000-000000000001";
  let transcript: string;
  let app: ReturnType<typeof createApp>;
  beforeAll(() => {
    transcript = writeClaudeTranscript(claude, { id, cwd: "/work/app", modified: LONG_AGO });
    const service = createDashboardService({
      stores: [{ kind: "claude", root: claude }],
      source: { kind: "pi" },
      config: {},
      // The look the keep resolves its ids in stays the one taken before a folder is swapped.
      freshMs: 600_000,
    });
    app = createApp({ api: service, port: () => PORT, token: TOKEN });
  });
  afterAll(() => writeBaitConfig());

  const send = (method: string, path: string, body?: unknown) =>
    app.request(`http://127.0.0.1:${PORT}${path}`, {
      method,
      headers: {
        Host: `127.0.0.1:${PORT}`,
        Authorization: `Bearer ${TOKEN}`,
        "Content-Type": "application/json",
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
  /** Every file's content and time in the sandbox, before and after: a keep changes only times. */
  const untouched = async <T>(attempt: () => T | Promise<T>) => {
    const times = fileTimes(box.root);
    const result = await unchangedBy(box, attempt);
    expect(fileTimes(box.root)).toEqual(times);
    return result;
  };

  it("POST /api/keep while the config is invalid → 409 read_only; Claude's files unchanged", async () => {
    expect((await send("GET", "/api/summary")).status).toBe(200);
    writeBaitConfig({ quota: { warnRatio: 5 } });
    const response = await untouched(() => send("POST", "/api/keep", { ids: [`claude:${id}`] }));
    expect(response.status).toBe(409);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("read_only");
    expect(body.error.message).toContain("quota.warnRatio");
  });

  it("the metadata writers while the config is invalid → ReadOnlyError; nothing is written", async () => {
    writeBaitConfig({ quota: { warnRatio: 5 } });
    const workspace = join(box.workspaces, "ws-1");
    for (const write of [
      () => touchSession(workspace),
      () => createSessionMetadata(join(box.work, "proxy")),
      () => repairSessionMetadata(join(box.work, "proxy")),
    ])
      await unchangedBy(box, () => expect(write).toThrow(ReadOnlyError));
  });

  it("POST /api/keep of a transcript whose project folder became a symlink since the look → 400; the file it leads to unchanged", async () => {
    writeBaitConfig();
    expect((await send("GET", "/api/summary")).status).toBe(200);
    // The project folder swapped for a link to ~/Documents, which holds a file of the same name.
    const project = join(claude, "projects", "-work-app");
    const aside = join(claude, "aside");
    const decoy = join(box.home, "Documents", `${id}.jsonl`);
    writeFileSync(decoy, "my notes\n");
    renameSync(project, aside);
    symlinkSync(join(box.home, "Documents"), project);
    try {
      const response = await untouched(() => send("POST", "/api/keep", { ids: [`claude:${id}`] }));
      expect(response.status).toBe(400);
      const body = (await response.json()) as { error: { message: string } };
      expect(body.error.message).toContain("(rule session-place)");
    } finally {
      unlinkSync(project);
      renameSync(aside, project);
      unlinkSync(decoy);
    }
  });

  // The control: the same keep, with a valid config and the folder in place, does change the time.
  it("POST /api/keep with a valid config and the transcript in place refreshes its time", async () => {
    writeBaitConfig();
    const before = fileTimes(claude).get(transcript);
    const response = await send("POST", "/api/keep", { ids: [`claude:${id}`] });
    expect(response.status).toBe(200);
    expect(fileTimes(claude).get(transcript)).not.toBe(before);
  });

  it.each([
    ["sessionDir", { sessionDir: `${box.work}/a\u0000b` }, "sessionDir"],
    ["stores[].root", { stores: [{ kind: "agentsh", root: `${box.work}/a\u0000b` }] }, "stores[0].root"],
    [
      "deletion.quarantineDir",
      { deletion: { quarantineDir: `${box.work}/q\u0000` } },
      "deletion.quarantineDir",
    ],
  ])(
    "a config file already holding a NUL in %s: GET /api/summary answers 200, read-only, naming it",
    async (_, extra, at) => {
      writeBaitConfig(extra);
      const response = await send("GET", "/api/summary");
      expect(response.status).toBe(200);
      const { policy } = (await response.json()) as SummaryResponse;
      expect(policy.readOnly).toBe(true);
      const problem = policy.problems.find((p) => p.path === at);
      expect(problem?.message, JSON.stringify(policy.problems)).toMatch(
        /holds the control character U\+0000 .*\(rule control-character\)/,
      );
    },
  );

  it("PUT /api/policy with a NUL in deletion.quarantineDir → 400 naming it; the file unchanged", async () => {
    writeBaitConfig();
    const file = readFileSync(statePaths().configFile);
    const response = await unchangedBy(box, () =>
      send("PUT", "/api/policy", {
        config: baitConfig({ deletion: { quarantineDir: `${box.work}/q\u0000` } }),
      }),
    );
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { problems: Array<{ path: string; message: string }> } };
    expect(body.error.problems.find((p) => p.path === "deletion.quarantineDir")?.message).toMatch(
      /\(rule control-character\)/,
    );
    expect(readFileSync(statePaths().configFile)).toEqual(file);
    expect(existsSync(`${box.work}/q`)).toBe(false);
  });
});
