import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_CONFIG } from "../../shared/config.js";
import { mkfifo, neverBlockedBy } from "../../test-support/fifo.js";
import {
  applyOverride,
  ConfigOverrideError,
  describeInvalidConfig,
  loadConfig,
  saveConfig,
} from "./config-file.js";

function configFile(content: string) {
  const dir = mkdtempSync(join(tmpdir(), "sr-config-"));
  const file = join(dir, "session-retention.json");
  writeFileSync(file, content);
  return file;
}

describe("loadConfig", () => {
  it("uses the defaults when the default file does not exist", () => {
    const agentDir = mkdtempSync(join(tmpdir(), "sr-agent-"));
    const status = loadConfig({ env: { ...process.env, PI_CODING_AGENT_DIR: agentDir } });
    expect(status).toEqual({
      ok: true,
      path: join(agentDir, "session-retention.json"),
      source: "defaults",
      config: DEFAULT_CONFIG,
    });
  });

  it("reads the default file beside pi's settings", () => {
    const agentDir = mkdtempSync(join(tmpdir(), "sr-agent-"));
    writeFileSync(join(agentDir, "session-retention.json"), JSON.stringify({ mode: "hard-block" }));
    const status = loadConfig({ env: { ...process.env, PI_CODING_AGENT_DIR: agentDir } });
    expect(status.ok && [status.source, status.config.mode]).toEqual(["file", "hard-block"]);
  });

  it("an explicit --config that does not exist is an error, not the defaults", () => {
    const status = loadConfig({ file: "/nonexistent/cfg.json" });
    expect(status).toMatchObject({ ok: false, problems: [{ path: "(file)", message: "does not exist" }] });
  });

  it("not JSON: says where, and the program goes read-only", () => {
    const status = loadConfig({ file: configFile('{\n  "mode": "off",\n  oops\n}') });
    expect(status.ok).toBe(false);
    if (status.ok) return;
    expect(status.problems[0]!.message).toMatch(/^not valid JSON: .*\(line 3, column \d+\)$/);
    expect(describeInvalidConfig(status)).toContain("Running read-only");
    expect(status.sessionDir).toBe("unknown");
  });

  it("a folder instead of a file is unusable, and says so", () => {
    const dir = mkdtempSync(join(tmpdir(), "sr-config-"));
    const status = loadConfig({ file: dir });
    expect(status).toMatchObject({
      ok: false,
      problems: [{ path: "(file)", message: expect.stringMatching(/^is a folder, not a regular file/) }],
    });
  });

  it("every problem in one message, each with its JSON path", () => {
    const status = loadConfig({
      file: configFile(JSON.stringify({ quota: { warnRatio: 0.5 }, retention: { maxAgeDay: 3 } })),
    });
    expect(status.ok).toBe(false);
    if (status.ok) return;
    expect(describeInvalidConfig(status).split("\n")).toEqual([
      `invalid config ${status.path}:`,
      "  quota.infoRatio: must be below warnRatio (0.5), got 0.7",
      '  retention.maxAgeDay: unknown key (did you mean "maxAgeDays"?)',
      "Running read-only: sessions can be scanned and shown; nothing is deleted until the config is fixed.",
    ]);
  });

  it("expands ~ in sessionDir", () => {
    const status = loadConfig({ file: configFile(JSON.stringify({ sessionDir: "~/pi-sessions" })) });
    expect(status.ok && status.config.sessionDir).toBe(join(process.env.HOME!, "pi-sessions"));
  });

  it("in an invalid file, keeps a sessionDir that is fine on its own and distrusts a bad one", () => {
    const good = loadConfig({ file: configFile(JSON.stringify({ sessionDir: "/srv/s", mode: "x" })) });
    expect(!good.ok && good.sessionDir).toBe("/srv/s");
    const none = loadConfig({ file: configFile(JSON.stringify({ mode: "x" })) });
    expect(!none.ok && none.sessionDir).toBeUndefined();
    const bad = loadConfig({ file: configFile(JSON.stringify({ sessionDir: "/", mode: "x" })) });
    expect(!bad.ok && bad.sessionDir).toBe("unknown");
  });

  it("--set overrides are validated like the file", () => {
    const file = configFile(JSON.stringify({ retention: { maxAgeDays: 30 } }));
    const ok = loadConfig({
      file,
      sets: ["retention.maxAgeDays=90", "mode=off", "quota.maxSessionCount=null"],
    });
    expect(
      ok.ok && [ok.config.retention.maxAgeDays, ok.config.mode, ok.config.quota.maxSessionCount],
    ).toEqual([90, "off", null]);
    const bad = loadConfig({ file, sets: ["retention.maxAgeDays=-1"] });
    expect(bad).toMatchObject({ ok: false, problems: [{ path: "retention.maxAgeDays" }] });
  });
});

describe("loadConfig: files that are not a usable config are unusable (read-only), never a hang or a guess", () => {
  /** The one problem of an unusable config, at the default path and as `--config`. */
  function problemOf(make: (file: string) => void): string {
    const agentDir = mkdtempSync(join(tmpdir(), "sr-agent-"));
    const file = join(agentDir, "session-retention.json");
    make(file);
    const [byDefault, explicit] = neverBlockedBy(file, () => [
      loadConfig({ env: { ...process.env, PI_CODING_AGENT_DIR: agentDir } }),
      loadConfig({ file }),
    ]);
    for (const status of [byDefault, explicit]) {
      expect(status.ok).toBe(false);
      if (status.ok) continue;
      expect([status.sessionDir, status.stores]).toEqual(["unknown", "unknown"]);
      expect(describeInvalidConfig(status)).toContain("Running read-only");
    }
    expect(byDefault).toEqual(explicit);
    return (explicit as Extract<typeof explicit, { ok: false }>).problems
      .map((p) => `${p.path}: ${p.message}`)
      .join("\n");
  }

  it("a FIFO: unusable at once, not a hang", () => {
    const problem = problemOf(mkfifo);
    expect(problem).toMatch(/^\(file\): is a named pipe \(FIFO\), not a regular file/);
  });

  it("over 1 MB: names the size and the cap", () => {
    const problem = problemOf((file) =>
      writeFileSync(file, JSON.stringify({ mode: "off", pad: "x".repeat(1024 * 1024) })),
    );
    expect(problem).toBe("(file): is 1.00 MiB (1048599 bytes), over the limit of 1.00 MiB (1048576 bytes)");
  });

  it("invalid UTF-8 in a protected pattern: names the offset; nothing of the file is used", () => {
    const problem = problemOf((file) =>
      writeFileSync(
        file,
        Buffer.concat([
          Buffer.from('{\n  "sessionDir": "/srv/sessions",\n  "protection": { "protectedPatterns": ["*incid'),
          Buffer.from([0xe9]), // "é" in Latin-1: the file was saved in the wrong encoding
          Buffer.from('nt*"] }\n}\n'),
        ]),
      ),
    );
    expect(problem).toBe(
      "(file): is not valid UTF-8: byte 0xe9 at offset 82 (line 3, column 48); save it as UTF-8",
    );
  });

  it("a UTF-8 byte order mark: says so, and how to fix it", () => {
    const problem = problemOf((file) => writeFileSync(file, '\uFEFF{ "mode": "off" }'));
    expect(problem).toContain("(file): starts with a byte order mark (BOM); save it as UTF-8 without a BOM");
  });

  it("a symlink to a regular file is read (dotfile managers)", () => {
    const dir = mkdtempSync(join(tmpdir(), "sr-config-"));
    writeFileSync(join(dir, "real.json"), JSON.stringify({ mode: "off" }));
    symlinkSync(join(dir, "real.json"), join(dir, "session-retention.json"));
    const status = loadConfig({ file: join(dir, "session-retention.json") });
    expect(status.ok && status.config.mode).toBe("off");
  });
});

describe("saveConfig", () => {
  const modeOf = (path: string) => statSync(path).mode & 0o777;
  /** Runs `work` under the usual umask 022, which would turn a 0664 file into 0644. */
  function withUmask022<T>(work: () => T): T {
    const before = process.umask(0o022);
    try {
      return work();
    } finally {
      process.umask(before);
    }
  }

  it("creates a new file private (0600)", () => {
    const file = join(mkdtempSync(join(tmpdir(), "sr-save-")), "session-retention.json");
    expect(saveConfig(file, { mode: "off" }, "cli")).toEqual({ ok: true });
    expect(modeOf(file)).toBe(0o600);
  });

  it("keeps the mode a file has, exactly (the umask does not narrow it)", () => {
    const file = configFile(JSON.stringify({ mode: "off" }));
    chmodSync(file, 0o664);
    withUmask022(() => saveConfig(file, { mode: "warn-only" }, "cli"));
    expect(modeOf(file)).toBe(0o664);
    expect(loadConfig({ file })).toMatchObject({ ok: true, config: { mode: "warn-only" } });
  });

  it("writes through a symlink: the link stays a link, its target gets the change and keeps its mode", () => {
    const dir = mkdtempSync(join(tmpdir(), "sr-save-"));
    const target = join(dir, "dotfiles-config.json");
    writeFileSync(target, JSON.stringify({ mode: "off" }));
    chmodSync(target, 0o640);
    const link = join(dir, "session-retention.json");
    symlinkSync(target, link);
    withUmask022(() => saveConfig(link, { mode: "hard-block" }, "cli"));
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(target, "utf8"))).toEqual({ mode: "hard-block" });
    expect(modeOf(target)).toBe(0o640);
  });
});

describe("applyOverride", () => {
  it("parses JSON values and creates the objects on the way", () => {
    expect(applyOverride({}, 'protection.protectedPatterns=["*x*"]')).toEqual({
      protection: { protectedPatterns: ["*x*"] },
    });
    expect(applyOverride({ a: 1 }, "b=hello world")).toEqual({ a: 1, b: "hello world" });
  });

  it("does not change the object it was given", () => {
    const raw = { quota: { maxSessionCount: 5 } };
    applyOverride(raw, "quota.maxSessionCount=6");
    expect(raw.quota.maxSessionCount).toBe(5);
  });

  it.each(["novalue", "=5", "a..b=1", "__proto__.polluted=1", "quota.constructor=1"])("refuses %j", (set) => {
    expect(() => applyOverride({}, set)).toThrow(ConfigOverrideError);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("state dir files", () => {
  it("the config is not looked for inside the state dir", () => {
    const agentDir = mkdtempSync(join(tmpdir(), "sr-agent-"));
    mkdirSync(join(agentDir, "session-retention"));
    writeFileSync(join(agentDir, "session-retention", "session-retention.json"), "{ not json");
    expect(loadConfig({ env: { ...process.env, PI_CODING_AGENT_DIR: agentDir } }).ok).toBe(true);
  });
});
