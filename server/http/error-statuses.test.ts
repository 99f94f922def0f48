// Every error the API can answer, through the real app (app.request()) on a real store: each kind
// gets its status and stable code from the one mapping in app.ts's onError, with a message that
// says what is wrong and nothing that leaks the server's paths or stack — and nothing changes on
// disk. A full disk is a real one (a tiny tmpfs) where this machine lets us mount one.
import { execFileSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { PlanSchema } from "../../shared/plan.js";
import { idsThatFit, REQUEST_BODY_LIMIT_BYTES } from "../../shared/request-limits.js";
import { setModified, writeSession } from "../../test-support/pi-store.js";
import { acquireLock } from "../fs/lock-file.js";
import { statePaths } from "../state/state-dir.js";
import { createApp } from "./app.js";
import { createDashboardService, type DashboardApi } from "./dashboard-service.js";
import { piStores } from "../../test-support/pi-stores.js";

const PORT = 4997;
const TOKEN = "tok";
const headers = { Host: `127.0.0.1:${PORT}`, Authorization: `Bearer ${TOKEN}` };
const jsonHeaders = { ...headers, "Content-Type": "application/json" };

const VALID_CONFIG = {
  retention: { maxAgeDays: 30, minKeepRecentCount: 0, keepLastPerNamespace: 0 },
  deletion: { target: "quarantine" },
};

let root: string;
let configFile: string;
let paths: string[];

function appFor(api: DashboardApi) {
  const app = createApp({ api, port: () => PORT, token: TOKEN });
  const send = (method: string, path: string, body: unknown) =>
    app.request(`http://127.0.0.1:${PORT}${path}`, {
      method,
      headers: jsonHeaders,
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
  const get = (path: string) => app.request(`http://127.0.0.1:${PORT}${path}`, { headers });
  return { app, send, get };
}

const realService = () =>
  createDashboardService({
    stores: piStores(root),
    source: { kind: "pi" },
    config: { file: configFile },
  });

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "sr-err-")));
  // Two old sessions past the 30 days the config keeps, and a new one (a clean may not empty the store).
  paths = [1, 2].map((day) => {
    const path = writeSession(root, "/work/app", day).getSessionFile()!;
    setModified(path, new Date(Date.UTC(2025, 0, day)));
    return path;
  });
  paths.push(writeSession(root, "/work/app", 3).getSessionFile()!);
  configFile = join(mkdtempSync(join(tmpdir(), "sr-err-cfg-")), "session-retention.json");
  writeFileSync(configFile, JSON.stringify(VALID_CONFIG));
});

/** The error body, checked for its shape. */
async function errorOf(response: Response): Promise<{ code: string; message: string; problems?: unknown }> {
  const body = (await response.json()) as { error: { code: string; message: string } };
  expect(body.error).toEqual(
    expect.objectContaining({ code: expect.any(String), message: expect.any(String) }),
  );
  return body.error;
}

/** The plan's candidates as a delete request names them. */
async function deleteItems(get: (path: string) => Response | Promise<Response>) {
  const plan = PlanSchema.parse(await (await get("/api/plan")).json());
  expect(plan.candidates.length).toBeGreaterThan(0);
  return plan.candidates.map((c) => ({ id: c.id, fingerprint: c.fingerprint }));
}

const stillThere = () => {
  for (const path of paths) expect(existsSync(path)).toBe(true);
};

describe("each kind of error gets its status and code", () => {
  it("a well-formed id that names no session → 404 not_found", async () => {
    const { send } = appFor(realService());
    const response = await send("POST", "/api/protect", {
      ids: ["019a0000-0000-7000-8000-00000000dead"],
      protect: true,
    });
    expect(response.status).toBe(404);
    expect(await errorOf(response)).toEqual({
      code: "not_found",
      message: "no session 019a0000-0000-7000-8000-00000000dead in the store",
    });
  });

  it("a body that is not JSON → 400 bad_request; a bad field → 400 naming it", async () => {
    const { send } = appFor(realService());
    const notJson = await send("POST", "/api/protect", "{ids:");
    expect(notJson.status).toBe(400);
    expect(await errorOf(notJson)).toEqual({ code: "bad_request", message: "the body is not valid JSON" });
    const badField = await send("POST", "/api/protect", { ids: ["x"], protect: "yes" });
    expect(badField.status).toBe(400);
    expect((await errorOf(badField)).message).toMatch(/^protect: /);
  });

  it("an invalid config → 400 invalid_config with each problem, and nothing written", async () => {
    const { send } = appFor(realService());
    const response = await send("PUT", "/api/policy", { config: { mode: "loud" } });
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.code).toBe("invalid_config");
    expect(error.problems).toEqual([expect.objectContaining({ path: "mode" })]);
    expect(JSON.parse(readFileSync(configFile, "utf8"))).toEqual(VALID_CONFIG);
  });

  it("a purge whose confirmation is not COUNT:BYTES of what goes → 409 refused; the entry stays", async () => {
    const { send, get } = appFor(realService());
    const moved = await send("POST", "/api/delete", { items: (await deleteItems(get)).slice(0, 1) });
    expect(moved.status).toBe(200);
    const { entries } = (await (await get("/api/trash")).json()) as {
      entries: { entryId: string; sizeBytes: number; location: string }[];
    };
    const response = await send("POST", "/api/trash/purge", {
      refs: [entries[0]!.entryId],
      confirm: `1:${entries[0]!.sizeBytes + 1}`,
    });
    expect(response.status).toBe(409);
    const error = await errorOf(response);
    expect(error.code).toBe("refused");
    expect(error.message).toContain(`the confirmation must be 1:${entries[0]!.sizeBytes}`);
    expect(existsSync(entries[0]!.location)).toBe(true);
  });

  it("the deletion lock held by another operation → 409 locked; nothing moves", async () => {
    const { send, get } = appFor(realService());
    const items = await deleteItems(get);
    const release = acquireLock(statePaths().deletionLock);
    try {
      const response = await send("POST", "/api/delete", { items });
      expect(response.status).toBe(409);
      const error = await errorOf(response);
      expect(error.code).toBe("locked");
      expect(error.message).toMatch(
        /another session-retention process .* holds .*; try again when it is done/,
      );
    } finally {
      release();
    }
    stillThere();
  });

  it("a config that became invalid → 409 read_only for a purge; nothing is purged", async () => {
    const { send, get } = appFor(realService());
    expect((await send("POST", "/api/delete", { items: (await deleteItems(get)).slice(0, 1) })).status).toBe(
      200,
    );
    const { entries } = (await (await get("/api/trash")).json()) as {
      entries: { entryId: string; sizeBytes: number; location: string }[];
    };
    writeFileSync(configFile, JSON.stringify({ mode: "loud" }));
    const response = await send("POST", "/api/trash/purge", {
      refs: [entries[0]!.entryId],
      confirm: `1:${entries[0]!.sizeBytes}`,
    });
    expect(response.status).toBe(409);
    expect((await errorOf(response)).code).toBe("read_only");
    expect(existsSync(entries[0]!.location)).toBe(true);
  });
});

describe("system errors and bugs", () => {
  // Each is worth the server's log (the answer only points at it): counted, not printed.
  let logged: ReturnType<typeof vi.spyOn>;
  beforeEach(() => {
    logged = vi.spyOn(console, "error").mockImplementation(() => {});
  });
  afterEach(() => {
    expect(logged).toHaveBeenCalledTimes(1);
    logged.mockRestore();
  });
  const throwing = (error: Error): DashboardApi =>
    ({
      getSummary: () => Promise.reject(error),
      savePolicy: () => Promise.reject(error),
    }) as DashboardApi;
  const errno = (code: string, message: string) =>
    Object.assign(new Error(message), { code, syscall: "open" });

  it.each([
    ["ENOSPC", 507, "insufficient_storage", /^the disk is full \(ENOSPC\): free some space and try again$/],
    ["EDQUOT", 507, "insufficient_storage", /^the disk is full \(EDQUOT\)/],
    [
      "EACCES",
      500,
      "permission_denied",
      /refused access to a file it needs \(EACCES\); see the server's log/,
    ],
    ["EPERM", 500, "permission_denied", /\(EPERM\)/],
  ])("%s from below → %i %s, said plainly, without the path", async (code, status, apiCode, message) => {
    const { get } = appFor(throwing(errno(code, `${code}: failed, open '/home/someone/.pi/secret.json'`)));
    const response = await get("/api/summary");
    expect(response.status).toBe(status);
    const error = await errorOf(response);
    expect(error.code).toBe(apiCode);
    expect(error.message).toMatch(message);
    expect(error.message).not.toContain("/home/someone");
  });

  it("a disk error wrapped in another error (its cause) is still a full disk", async () => {
    const wrapped = new Error("could not save", {
      cause: errno("ENOSPC", "ENOSPC: no space left on device"),
    });
    const response = await appFor(throwing(wrapped)).get("/api/summary");
    expect(response.status).toBe(507);
  });

  it("anything else is a bug: 500 internal, no message, path or stack of it in the answer", async () => {
    const bug = new TypeError(
      "cannot read properties of undefined (reading 'x') at /srv/app/server/secret.ts:12",
    );
    const response = await appFor(throwing(bug)).get("/api/summary");
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({
      error: { code: "internal", message: "internal error (see the server's log)" },
    });
    expect(text).not.toMatch(/secret|TypeError|at \//);
  });
});

describe("every route that reads a body refuses one over the limit: 413 payload_too_large", () => {
  const { app, send } = appFor(realService());
  const bodyRoutes = app.routes
    .filter((r) => ["POST", "PUT", "PATCH", "DELETE"].includes(r.method) && !r.path.includes("*"))
    .map((r) => [r.method, r.path] as const);

  it("finds the body-taking routes", () => {
    expect(bodyRoutes.map(([method, path]) => `${method} ${path}`)).toEqual(
      expect.arrayContaining([
        "POST /api/protect",
        "PUT /api/policy",
        "POST /api/trash/purge",
        "POST /api/delete",
      ]),
    );
  });

  it.each(bodyRoutes)("%s %s", async (method, path) => {
    const oversize = JSON.stringify({ padding: "x".repeat(REQUEST_BODY_LIMIT_BYTES) });
    const response = await send(method, path, oversize);
    expect(response.status).toBe(413);
    expect(await errorOf(response)).toEqual({
      code: "payload_too_large",
      message: `request bodies are limited to ${REQUEST_BODY_LIMIT_BYTES} bytes`,
    });
  });

  it("a body just under the limit is read (and judged on what it says)", async () => {
    const response = await send("POST", "/api/protect", {
      ids: ["x"],
      protect: true,
      padding: "x".repeat(REQUEST_BODY_LIMIT_BYTES - 100),
    });
    expect(response.status).toBe(400); // the schema refuses the unknown field: the body was read
  });

  it("the most ids the dashboard sends in one hand-picked selection are read; one more is refused", async () => {
    // Claude Code's ids (`claude:` and a uuid): 1,500 of them, which the wizard once sent as fitting.
    const ids = Array.from(
      { length: 1500 },
      (_, i) => `claude:6f1c2a4e-0000-4000-8000-${String(i).padStart(12, "0")}`,
    );
    const fit = idsThatFit(ids);
    expect(fit).toBeLessThan(ids.length);
    expect((await send("POST", "/api/plan/selection", { ids: ids.slice(0, fit) })).status).not.toBe(413);
    expect((await send("POST", "/api/plan/selection", { ids: ids.slice(0, fit + 1) })).status).toBe(413);
  });
});

// A real full disk: a 64 KiB tmpfs, filled up, mounted where the server writes. Needs the right to
// mount (root in a container); elsewhere these are skipped and the faked ENOSPC above stands in.
const canMount = (() => {
  if (process.platform !== "linux" || process.getuid?.() !== 0) return false;
  const probe = mkdtempSync(join(tmpdir(), "sr-mount-probe-"));
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", probe], { stdio: "ignore" });
    execFileSync("umount", [probe], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();

describe.skipIf(!canMount)("a real full disk → 507 insufficient_storage, and nothing lost", () => {
  const mounted: string[] = [];
  /** A full 64 KiB tmpfs at `dir` (made if missing). */
  function fullDiskAt(dir: string) {
    mkdirSync(dir, { recursive: true });
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", dir]);
    mounted.push(dir);
    try {
      writeFileSync(join(dir, "filler"), Buffer.alloc(1024 * 1024));
    } catch (error) {
      expect((error as NodeJS.ErrnoException).code).toBe("ENOSPC");
    }
  }
  afterEach(() => {
    for (const dir of mounted.splice(0)) execFileSync("umount", [dir]);
  });

  it("saving the policy on a full disk: 507, and the config file as it was", async () => {
    // The config's own folder is the full disk: the file is written next to itself, then renamed.
    const folder = join(mkdtempSync(join(tmpdir(), "sr-full-cfg-")), "cfg");
    mkdirSync(folder);
    fullDiskAt(folder);
    configFile = join(folder, "session-retention.json");
    const response = await appFor(realService()).send("PUT", "/api/policy", { config: VALID_CONFIG });
    expect(response.status).toBe(507);
    expect(await errorOf(response)).toEqual({
      code: "insufficient_storage",
      message: "the disk is full (ENOSPC): free some space and try again",
    });
    expect(readdirSync(folder)).toEqual(["filler"]);
  });

  it("a delete whose journal cannot be written: 507 saying nothing was moved, and every session in place", async () => {
    const { send, get } = appFor(realService());
    const items = await deleteItems(get);
    fullDiskAt(statePaths().trashLedgers);
    const response = await send("POST", "/api/delete", { items });
    expect(response.status).toBe(507);
    const error = await errorOf(response);
    expect(error.code).toBe("insufficient_storage");
    expect(error.message).toMatch(
      /could not write the deletion journal .*no space left on device.*nothing was moved/,
    );
    stillThere();
  });
});
