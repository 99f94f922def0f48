import { describe, expect, it } from "vitest";
import {
  type ConfigProblem,
  configJsonSchema,
  DEFAULT_CONFIG,
  sessionDirProblem,
  validateConfig,
} from "./config.js";

const HOME = "/home/me";

function problemsOf(raw: unknown): ConfigProblem[] {
  const result = validateConfig(raw, HOME);
  if (result.ok) throw new Error("expected the config to be invalid");
  return result.problems;
}

describe("validateConfig", () => {
  it("gives the safe defaults for an empty file: warn-only, no auto-clean, dry run", () => {
    const result = validateConfig({}, HOME);
    expect(result).toEqual({ ok: true, config: DEFAULT_CONFIG });
    expect(DEFAULT_CONFIG).toMatchObject({
      enabled: true,
      mode: "warn-only",
      quota: { maxTotalSizeBytes: 20 * 1024 ** 3, maxSessionCount: null, warnRatio: 0.9, infoRatio: 0.7 },
      retention: {
        maxAgeDays: 180,
        minKeepRecentCount: 30,
        keepLastPerNamespace: 1,
        eviction: "lru",
        neverReopened: null,
        allowEmptyStore: false,
        autoClean: false,
        dryRun: true,
      },
      protection: { protectedPatterns: [], neverDeleteActiveSession: true },
      activity: { graceMinutes: 10 },
    });
  });

  it("accepts the documented example config as written", () => {
    const spec = {
      enabled: true,
      sessionDir: "~/.pi/agent/sessions",
      mode: "warn-only",
      quota: { maxTotalSizeBytes: 21474836480, maxSessionCount: 2000, warnRatio: 0.9, infoRatio: 0.7 },
      retention: {
        maxAgeDays: 180,
        minKeepRecentCount: 30,
        autoClean: false,
        autoCleanMaxDeletesPerRun: 20,
        dryRun: true,
      },
      protection: { protectedPatterns: ["*important*", "*prod-incident*"], neverDeleteActiveSession: true },
    };
    expect(validateConfig(spec, HOME).ok).toBe(true);
  });

  it("accepts our extensions and null limits", () => {
    const result = validateConfig(
      {
        $schema: "./session-retention.schema.json",
        quota: {
          maxTotalSizeBytes: null,
          namespaces: [{ pattern: "/home/me/work/*", maxTotalSizeBytes: 1e9 }],
        },
        retention: {
          maxAgeDays: null,
          eviction: "largest-first",
          keepLastPerNamespace: 0,
          neverReopened: { olderThanDays: 7, maxUserMessages: 1 },
        },
        activity: { graceMinutes: 0 },
      },
      HOME,
    );
    expect(result.ok && result.config.retention.neverReopened).toEqual({
      olderThanDays: 7,
      maxUserMessages: 1,
      activeMinutes: 60,
    });
    expect(result.ok && result.config.quota.namespaces[0]).toEqual({
      pattern: "/home/me/work/*",
      maxTotalSizeBytes: 1e9,
      maxSessionCount: null,
    });
  });

  it.each<[string, unknown, string, string]>([
    ["relative session root", { sessionDir: "sessions" }, "sessionDir", "absolute path"],
    ["/ as session root", { sessionDir: "/" }, "sessionDir", "whole file system"],
    ["/ in disguise", { sessionDir: "/tmp/.." }, "sessionDir", "whole file system"],
    ["$HOME as session root", { sessionDir: "/home/me/" }, "sessionDir", "home folder"],
    ["~ as session root", { sessionDir: "~" }, "sessionDir", "home folder"],
    ["a folder above $HOME", { sessionDir: "/home" }, "sessionDir", "contains the home folder"],
    ["negative size", { quota: { maxTotalSizeBytes: -1 } }, "quota.maxTotalSizeBytes", "greater than 0"],
    ["zero size", { quota: { maxTotalSizeBytes: 0 } }, "quota.maxTotalSizeBytes", "use null for no limit"],
    ["fractional count", { quota: { maxSessionCount: 2.5 } }, "quota.maxSessionCount", "whole number"],
    ["negative age", { retention: { maxAgeDays: -3 } }, "retention.maxAgeDays", "greater than 0"],
    ["negative keep", { retention: { minKeepRecentCount: -1 } }, "retention.minKeepRecentCount", "≥ 0"],
    ["negative grace", { activity: { graceMinutes: -5 } }, "activity.graceMinutes", "≥ 0"],
    ["ratio above 1", { quota: { warnRatio: 1.5 } }, "quota.warnRatio", "at most 1"],
    [
      "ratios out of order",
      { quota: { infoRatio: 0.95, warnRatio: 0.9 } },
      "quota.infoRatio",
      "below warnRatio (0.9)",
    ],
    [
      "bad glob",
      { protection: { protectedPatterns: ["ok*", "bad[x"] } },
      "protection.protectedPatterns[1]",
      "never closed",
    ],
    [
      "bad namespace glob",
      { quota: { namespaces: [{ pattern: "" }] } },
      "quota.namespaces[0].pattern",
      "empty pattern",
    ],
    [
      "unknown agent",
      { quota: { agents: { cursor: { maxSessionCount: 5 } } } },
      "quota.agents.cursor",
      "unknown key (one of pi, claude, codex, gemini, agentsh, workspace)",
    ],
    [
      "agent name misspelt",
      { quota: { agents: { codx: { maxSessionCount: 5 } } } },
      "quota.agents.codx",
      'unknown key (did you mean "codex"?)',
    ],
    [
      "agent typo",
      { quota: { agents: { claude: { maxSessionCont: 5 } } } },
      "quota.agents.claude.maxSessionCont",
      'did you mean "maxSessionCount"',
    ],
    [
      "agent limit of 0",
      { quota: { agents: { claude: { maxSessionCount: 0 } } } },
      "quota.agents.claude.maxSessionCount",
      "use null",
    ],
    [
      "unknown key",
      { quota: { maxTotalSizeByte: 5 } },
      "quota.maxTotalSizeByte",
      'did you mean "maxTotalSizeBytes"',
    ],
    ["unknown top-level key", { retension: {} }, "retension", 'did you mean "retention"'],
    ["unknown key with no near match", { colour: "red" }, "colour", "unknown key"],
    ["unknown mode", { mode: "block" }, "mode", "off"],
    ["unknown eviction", { retention: { eviction: "random" } }, "retention.eviction", "lru"],
    [
      "active sessions made deletable",
      { protection: { neverDeleteActiveSession: false } },
      "protection.neverDeleteActiveSession",
      "cannot be turned off",
    ],
    ["not an object", [1, 2], "(top level)", "JSON object"],
    ["a string", "hello", "(top level)", "JSON object"],
  ])("%s → a problem at its JSON path", (_, raw, path, message) => {
    const problems = problemsOf(raw);
    expect(problems).toContainEqual({ path, message: expect.stringContaining(message) });
  });

  it("reports every problem at once, not just the first", () => {
    const problems = problemsOf({
      sessionDir: "/",
      quota: { maxTotalSizeBytes: -1, warnRatio: 2 },
      retention: { maxAgeDays: "old", eviction: "random" },
      typo: true,
    });
    expect(problems.map((p) => p.path).sort()).toEqual([
      "quota.maxTotalSizeBytes",
      "quota.warnRatio",
      "retention.eviction",
      "retention.maxAgeDays",
      "sessionDir",
      "typo",
    ]);
  });
});

describe("sessionDirProblem", () => {
  it("accepts a store below home or elsewhere", () => {
    expect(sessionDirProblem("~/.pi/agent/sessions", HOME)).toBeUndefined();
    expect(sessionDirProblem("/srv/pi-sessions", HOME)).toBeUndefined();
    expect(sessionDirProblem("/home/me2/sessions", HOME)).toBeUndefined(); // beside home, not above it
    expect(sessionDirProblem("/home/me2", HOME)).toContain("a user's home folder");
  });
});

describe("configJsonSchema", () => {
  it("describes the file for editors: defaults, enums and no unknown keys", () => {
    const schema = configJsonSchema() as {
      additionalProperties: boolean;
      properties: Record<string, { default?: unknown; enum?: unknown; properties?: Record<string, unknown> }>;
    };
    expect(schema.additionalProperties).toBe(false);
    expect(schema.properties.mode).toMatchObject({
      default: "warn-only",
      enum: ["off", "warn-only", "hard-block"],
    });
    expect(schema.properties.retention?.properties?.eviction).toMatchObject({
      default: "lru",
      enum: ["lru", "largest-first", "oldest-created"],
    });
    expect(Object.keys(schema.properties).sort()).toEqual(
      [
        "$schema",
        "activity",
        "deletion",
        "enabled",
        "mode",
        "protection",
        "quota",
        "retention",
        "sessionDir",
        "stores",
      ].sort(),
    );
  });
});
