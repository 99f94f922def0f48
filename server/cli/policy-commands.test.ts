// plan, status, protect/unprotect and config through runCli, on stores written by pi's own
// SessionManager, with the config file and the state dir in the test's temporary home.
import { mkdirSync, mkdtempSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { PlanSchema } from "../../shared/plan.js";
import { setModified, writeSession } from "../../test-support/pi-store.js";
import { removeActiveMarker, writeActiveMarker } from "../state/active-sessions.js";
import { readAudit } from "../state/audit-log.js";
import { statePaths } from "../state/state-dir.js";
import { runCli } from "./main.js";

async function run(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const status = await runCli(argv, { stdout: (t) => out.push(t), stderr: (t) => err.push(t) });
  return { status, stdout: out.join("\n"), stderr: err.join("\n") };
}

const DAY = 24 * 3600 * 1000;
const daysAgo = (n: number) => new Date(Date.now() - n * DAY);

/** A store: two old sessions, one named "incident", and a recent one, in two namespaces. */
function store() {
  const root = mkdtempSync(join(tmpdir(), "sr-policy-"));
  const ancient = writeSession(root, "/work/app", 3).getSessionFile()!;
  const incident = writeSession(root, "/work/app", 2, { name: "prod incident review" }).getSessionFile()!;
  const old = writeSession(root, "/work/lib", 1).getSessionFile()!;
  const fresh = writeSession(root, "/work/lib", 1).getSessionFile()!;
  setModified(ancient, daysAgo(400));
  setModified(incident, daysAgo(300));
  setModified(old, daysAgo(200));
  setModified(fresh, daysAgo(1));
  return { root, ancient, incident, old, fresh };
}

let configFile: string;
beforeEach(() => {
  configFile = join(mkdtempSync(join(tmpdir(), "sr-cfg-")), "session-retention.json");
});

function config(content: unknown) {
  writeFileSync(configFile, typeof content === "string" ? content : JSON.stringify(content));
}

const lenient = { retention: { minKeepRecentCount: 0, keepLastPerNamespace: 0, maxAgeDays: 180 } };

describe("session-retention plan", () => {
  it("--json: candidates with their rule, kept with their reason, valid against the schema", async () => {
    const s = store();
    config({ ...lenient, protection: { protectedPatterns: ["*incident*"] } });
    const { status, stdout } = await run("plan", "--json", "--root", s.root, "--config", configFile);
    expect(status).toBe(0);
    const plan = PlanSchema.parse(JSON.parse(stdout));
    expect(plan.candidates.map((c) => [c.path, c.rule])).toEqual([
      [s.ancient, "maxAgeDays"],
      [s.old, "maxAgeDays"],
    ]);
    expect(plan.kept.map((k) => [k.path, k.reason])).toEqual([
      [s.fresh, "within-policy"],
      [s.incident, "protected"],
    ]);
    expect(plan.bytesToFree).toBe(plan.candidates.reduce((sum, c) => sum + c.sizeBytes, 0));
    expect(plan.quotaBefore.level).toBe("ok");
  });

  it("prints rules, bytes to free, quota before/after and the riskiest; --list-kept lists the kept", async () => {
    const s = store();
    config(lenient);
    const { status, stdout } = await run("plan", "--root", s.root, "--config", configFile, "--list-kept");
    expect(status).toBe(0);
    expect(stdout).toMatch(/^Policy: .*session-retention\.json · mode warn-only · eviction lru$/m);
    expect(stdout).toMatch(/^Now: +.* in 4 sessions · .* → ok$/m);
    expect(stdout).toMatch(/^Candidates: 3 sessions, .* to free$/m);
    expect(stdout).toContain("maxAgeDays");
    expect(stdout).toContain("last used 400 days ago (limit 180 days)");
    expect(stdout).toContain("Riskiest");
    expect(stdout).toMatch(/^Kept: 1 session \(within policy 1\)$/m);
    expect(stdout).toContain("This is a preview");
  });

  it("lists the first 20 candidates and how many more; --all lists every one; --json has them all", async () => {
    const root = mkdtempSync(join(tmpdir(), "sr-policy-"));
    for (let i = 0; i < 25; i++)
      setModified(writeSession(root, `/work/p${i % 3}`, 1).getSessionFile()!, daysAgo(200 + i));
    config(lenient);
    const candidates = (stdout: string) =>
      stdout
        .split("Riskiest")[0]!
        .split("\n")
        .filter((line) => line.endsWith(".jsonl"));
    const top = await run("plan", "--root", root, "--config", configFile);
    expect(top.status).toBe(0);
    expect(top.stdout).toContain("Candidates: 25 sessions");
    expect(candidates(top.stdout)).toHaveLength(20);
    expect(top.stdout).toContain("\n  …and 5 more (--all to list every one)\n");
    const all = await run("plan", "--root", root, "--config", configFile, "--all");
    expect(candidates(all.stdout)).toHaveLength(25);
    expect(all.stdout).not.toContain("more (--all");
    const json = await run("plan", "--json", "--root", root, "--config", configFile);
    expect(PlanSchema.parse(JSON.parse(json.stdout)).candidates).toHaveLength(25);
  });

  it("--set overrides a setting for one run", async () => {
    const s = store();
    config(lenient);
    const { stdout } = await run(
      "plan",
      "--json",
      "--root",
      s.root,
      "--config",
      configFile,
      "--set",
      "retention.maxAgeDays=250",
    );
    expect(PlanSchema.parse(JSON.parse(stdout)).candidates.map((c) => c.path)).toEqual([
      s.ancient,
      s.incident,
    ]);
  });

  it("never lists the session a live pi process has open (acceptance criterion 6)", async () => {
    const s = store();
    config(lenient);
    writeActiveMarker(statePaths().activeMarkers, {
      pid: process.pid,
      sessionFile: s.ancient,
      startedAt: new Date().toISOString(),
    });
    try {
      const plan = PlanSchema.parse(
        JSON.parse((await run("plan", "--json", "--root", s.root, "--config", configFile)).stdout),
      );
      expect(plan.candidates.map((c) => c.path)).not.toContain(s.ancient);
      expect(plan.kept.find((k) => k.path === s.ancient)).toMatchObject({ reason: "active" });
    } finally {
      // The marker names our own (live) pid: remove it so other tests are unaffected.
      removeActiveMarker(statePaths().activeMarkers, process.pid);
    }
  });

  it("says REFUSED when the plan would empty the store", async () => {
    const s = store();
    config({ retention: { minKeepRecentCount: 0, keepLastPerNamespace: 0, maxAgeDays: 0.5 } });
    const { status, stdout } = await run("plan", "--root", s.root, "--config", configFile);
    expect(status).toBe(0);
    expect(stdout).toMatch(/^REFUSED — refused: the plan would remove every session of /m);
  });

  it("an invalid config: the one clear message, exit 2, no plan", async () => {
    const s = store();
    config({ retention: { maxAgeDays: -1 }, protection: { protectedPatterns: ["[oops"] } });
    const { status, stdout, stderr } = await run("plan", "--root", s.root, "--config", configFile);
    expect(status).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toContain(`invalid config ${configFile}:`);
    expect(stderr).toContain("retention.maxAgeDays: must be greater than 0");
    expect(stderr).toContain("protection.protectedPatterns[0]: not a usable glob");
    expect(stderr).toContain("Running read-only");
  });

  it("a corrupt protection list stops the plan instead of being read as 'no pins'", async () => {
    const s = store();
    config(lenient);
    mkdirSync(statePaths().dir, { recursive: true });
    writeFileSync(statePaths().protectedList, "{ broken");
    try {
      const { status, stderr } = await run("plan", "--root", s.root, "--config", configFile);
      expect(status).toBe(2);
      expect(stderr).toContain("protected.json is not valid JSON");
    } finally {
      writeFileSync(statePaths().protectedList, JSON.stringify({ version: 1, pins: [] }));
    }
  });
});

describe("every invalid config form: the clear error, and read-only", () => {
  it.each<[string, unknown, string]>([
    ["relative root", { sessionDir: "sessions" }, "sessionDir: must be an absolute path"],
    ["/ as root", { sessionDir: "/" }, "sessionDir: "],
    ["$HOME as root", { sessionDir: "~" }, "is the home folder"],
    [
      "negative number",
      { retention: { minKeepRecentCount: -2 } },
      "retention.minKeepRecentCount: must be a whole number ≥ 0",
    ],
    ["ratios out of order", { quota: { infoRatio: 0.95 } }, "quota.infoRatio: must be below warnRatio (0.9)"],
    [
      "bad glob",
      { protection: { protectedPatterns: ["x\\"] } },
      "protection.protectedPatterns[0]: not a usable glob",
    ],
    ["unknown key", { retention: { maxAge: 3 } }, "retention.maxAge: unknown key"],
    ["not JSON", "{ mode: warn-only }", "(file): not valid JSON"],
  ])("%s", async (_, content, message) => {
    const s = store();
    config(content);
    const plan = await run("plan", "--root", s.root, "--config", configFile);
    expect(plan.status).toBe(2);
    expect(plan.stderr).toContain(message);
    expect(plan.stderr).toContain("Running read-only");
    const status = await run("status", "--root", s.root, "--config", configFile);
    expect(status).toMatchObject({ status: 3, stdout: expect.stringMatching(/^unknown · invalid config /) });
    // Showing still works: scan reads the sessions of the store it was given.
    expect((await run("scan", "--root", s.root, "--config", configFile)).status).toBe(0);
  });
});

describe("session-retention status", () => {
  it.each([
    [0.5, "ok", 0],
    [0.75, "info", 0],
    [0.95, "warn", 1],
    [1.2, "critical", 2],
  ] as const)("at %s of the size limit: %s, exit %i", async (ratio, level, exit) => {
    const s = store();
    const { stdout: json } = await run("scan", "--json", "--root", s.root);
    const total = (JSON.parse(json) as { summary: { totalBytes: number } }).summary.totalBytes;
    config({ quota: { maxTotalSizeBytes: Math.ceil(total / ratio), maxSessionCount: null } });
    const { status, stdout } = await run("status", "--root", s.root, "--config", configFile);
    expect(status).toBe(exit);
    expect(stdout.split("\n")).toHaveLength(1);
    expect(stdout).toMatch(new RegExp(`^${level} · .* of .* \\(\\d+%\\) · mode warn-only$`));
  });

  it("count is the secondary measure and can raise the level", async () => {
    const s = store();
    config({ quota: { maxTotalSizeBytes: null, maxSessionCount: 4 } });
    const { status, stdout } = await run("status", "--root", s.root, "--config", configFile, "--json");
    expect(status).toBe(2);
    expect(JSON.parse(stdout)).toMatchObject({ level: "critical", mode: "warn-only", sessionCount: 4 });
  });

  it("an agent over its own quota sets the exit status, while the global level stays the first word", async () => {
    const s = store();
    config({
      quota: { maxTotalSizeBytes: null, maxSessionCount: null, agents: { pi: { maxSessionCount: 3 } } },
    });
    const { status, stdout } = await run("status", "--root", s.root, "--config", configFile);
    expect(status).toBe(2);
    expect(stdout).toMatch(/^ok · .* · pi critical \(4 of 3 sessions \(133%\)\)$/);
    config({
      quota: { maxTotalSizeBytes: null, maxSessionCount: null, agents: { pi: { maxSessionCount: 100 } } },
    });
    expect((await run("status", "--root", s.root, "--config", configFile)).status).toBe(0);
  });

  it("mode off: the level is printed but the exit status is 0", async () => {
    const s = store();
    config({ mode: "off", quota: { maxSessionCount: 2 } });
    const { status, stdout } = await run("status", "--root", s.root, "--config", configFile);
    expect([status, stdout.split(" ")[0]]).toEqual([0, "critical"]);
  });

  it("invalid config or bad arguments: unknown, exit 3 (2 would read as critical)", async () => {
    const s = store();
    config("{ nope");
    expect(await run("status", "--root", s.root, "--config", configFile)).toMatchObject({ status: 3 });
    expect(await run("status", "--bogus")).toMatchObject({ status: 3 });
  });
});

describe("session-retention protect / unprotect", () => {
  it("pins by a part of the id or by path, audits it, and the plan keeps the pinned session", async () => {
    const s = store();
    config(lenient);
    const scan = JSON.parse((await run("scan", "--json", "--root", s.root)).stdout) as {
      sessions: { id: string; path: string }[];
    };
    const idOf = (path: string) => scan.sessions.find((x) => x.path === path)!.id;
    // UUIDv7: the start is a timestamp all four share; the end tells them apart.
    const ambiguous = await run("protect", idOf(s.ancient).slice(0, 8), "--root", s.root);
    expect(ambiguous).toMatchObject({
      status: 2,
      stderr: expect.stringContaining("is part of 4 session ids"),
    });
    const out = await run("protect", idOf(s.ancient).slice(-12), s.old, "--root", s.root);
    expect(out.status).toBe(0);
    expect(out.stdout).toContain(`protected ${idOf(s.ancient)}`);
    expect(out.stdout).toContain(`protected ${idOf(s.old)}`);

    const plan = PlanSchema.parse(
      JSON.parse((await run("plan", "--json", "--root", s.root, "--config", configFile)).stdout),
    );
    expect(plan.candidates.map((c) => c.path)).toEqual([s.incident]);
    expect(
      plan.kept
        .filter((k) => k.reason === "pinned")
        .map((k) => k.path)
        .sort(),
    ).toEqual([s.ancient, s.old].sort());

    const again = await run("protect", idOf(s.ancient), "--root", s.root);
    expect(again.stdout).toContain("already protected");

    const audit = readAudit(statePaths().auditLog).entries;
    expect(audit[0]).toMatchObject({ actor: "cli", action: "protect", result: "ok" });
    expect(audit[0]!.items.map((x) => x.path).sort()).toEqual([s.ancient, s.old].sort());

    const un = await run("unprotect", idOf(s.ancient), idOf(s.old), "--root", s.root);
    expect(un.stdout).toContain(`unprotected ${idOf(s.ancient)}`);
    expect(readAudit(statePaths().auditLog).entries[0]).toMatchObject({ action: "unprotect" });
    expect((await run("protect", "--list")).stdout).toBe("No pinned sessions.");
  });

  it("all or nothing: one unknown argument changes nothing", async () => {
    const s = store();
    const before = readAudit(statePaths().auditLog).entries.length;
    const { status, stderr } = await run("protect", s.old, "no-such-session", "--root", s.root);
    expect(status).toBe(2);
    expect(stderr).toContain('no session "no-such-session"');
    expect((await run("protect", "--list")).stdout).toBe("No pinned sessions.");
    expect(readAudit(statePaths().auditLog).entries).toHaveLength(before);
  });

  it("a pin survives the session file being renamed", async () => {
    const s = store();
    config(lenient);
    await run("protect", s.old, "--root", s.root);
    const renamed = s.old.replace(/\.jsonl$/, "-renamed.jsonl");
    renameSync(s.old, renamed);
    const plan = PlanSchema.parse(
      JSON.parse((await run("plan", "--json", "--root", s.root, "--config", configFile)).stdout),
    );
    expect(plan.kept.find((k) => k.path === renamed)).toMatchObject({ reason: "pinned" });
    await run("unprotect", renamed, "--root", s.root);
  });
});

describe("session-retention config", () => {
  it("schema prints a JSON Schema", async () => {
    const { status, stdout } = await run("config", "schema");
    expect(status).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ type: "object", additionalProperties: false });
  });

  it("check: valid, defaults, invalid", async () => {
    config({ mode: "hard-block" });
    expect(await run("config", "check", "--config", configFile)).toMatchObject({
      status: 0,
      stdout: `${configFile}: valid`,
    });
    expect((await run("config", "check")).stdout).toContain("the defaults apply");
    config({ mode: "hard-blok" });
    const bad = await run("config", "check", "--config", configFile);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("mode: Invalid option");
  });

  it("show prints the effective config with the defaults filled in", async () => {
    config({ retention: { maxAgeDays: 30 } });
    const shown = JSON.parse((await run("config", "show", "--config", configFile)).stdout);
    expect(shown).toMatchObject({ mode: "warn-only", retention: { maxAgeDays: 30, minKeepRecentCount: 30 } });
  });

  it("an unknown action or a --set without = is a usage error", async () => {
    expect(await run("config", "frobnicate")).toMatchObject({ status: 2 });
    expect(await run("config", "check", "--set", "oops")).toMatchObject({
      status: 2,
      stderr: expect.stringContaining("--set wants key=value"),
    });
  });

  it("an invalid --set value is blamed on the flag, not on a config file that does not exist", async () => {
    // No file at the default path (the test's home): the defaults plus the flag.
    const result = await run("config", "check", "--set", "quota.maxSessionCount=abc");
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(
      /^invalid value on the command line:\n {2}quota\.maxSessionCount: .+ \(from --set quota\.maxSessionCount=abc\)\nRunning read-only/,
    );
    expect(result.stderr).not.toContain("session-retention.json");
  });

  it("with a bad file and a bad --set, each problem names where its value came from", async () => {
    config({ mode: "sometimes" });
    const result = await run("config", "check", "--config", configFile, "--set", 'quota={"warnRatio":7}');
    expect(result.status).toBe(2);
    const lines = result.stderr.split("\n");
    expect(lines[0]).toBe(`invalid config ${configFile}:`);
    expect(lines.find((l) => l.startsWith("  mode:"))).not.toContain("from --set");
    expect(lines.find((l) => l.startsWith("  quota.warnRatio:"))).toMatch(
      /\(from --set quota=\{"warnRatio":7\}\)$/,
    );
  });
});

describe("the store root named in the config", () => {
  it("scan, plan and status use sessionDir instead of pi's own locations", async () => {
    const s = store();
    config({ ...lenient, sessionDir: s.root });
    const scan = JSON.parse((await run("scan", "--json", "--config", configFile)).stdout) as {
      stores: { root: string }[];
      summary: { sessionCount: number };
    };
    expect(scan.stores.map((x) => x.root)).toEqual([s.root]);
    expect(scan.summary.sessionCount).toBe(4);
    const plan = PlanSchema.parse(JSON.parse((await run("plan", "--json", "--config", configFile)).stdout));
    expect(plan.before.sessionCount).toBe(4);
    expect((await run("status", "--config", configFile)).status).toBe(0);
  });

  it("an invalid config still lets scan use a sessionDir that is fine on its own (read-only)", async () => {
    const s = store();
    config({ sessionDir: s.root, quota: { maxTotalSizeBytes: -5 } });
    const scan = await run("scan", "--json", "--config", configFile);
    expect(scan.status).toBe(0);
    expect(JSON.parse(scan.stdout).summary.sessionCount).toBe(4);
    expect((await run("plan", "--config", configFile)).status).toBe(2);
  });

  it("a sessionDir that cannot be trusted is an error, never a fallback to a broader root", async () => {
    config({ sessionDir: "/", mode: "warn-only" });
    const scan = await run("scan", "--config", configFile);
    expect(scan).toMatchObject({ status: 2, stdout: "" });
    expect(scan.stderr).toContain("cannot be trusted while the file is invalid");
    config("{ not json");
    expect((await run("scan", "--config", configFile)).status).toBe(2);
  });

  it("a configured sessionDir that does not exist is an error, not the default store", async () => {
    config({ sessionDir: "/nonexistent/pi-sessions" });
    const scan = await run("scan", "--config", configFile);
    expect(scan).toMatchObject({
      status: 2,
      stderr: expect.stringContaining("/nonexistent/pi-sessions: does not exist"),
    });
  });
});
