import { describe, expect, it } from "vitest";
import type { PolicyResponse, SessionRow } from "../../../shared/api.js";
import { type ConfigProblem, DEFAULT_CONFIG, validateConfig } from "../../../shared/config.js";
import type { Candidate, Plan } from "../../../shared/plan.js";
import { ApiError, type ApiClient } from "../api/client.js";
import {
  bytesFromText,
  createPolicyForm,
  type Draft,
  getIn,
  inFormWords,
  namespaceMatches,
  numberFromText,
  previewByRule,
  protectedMatches,
  storeMatches,
  textOfBytes,
  unitFor,
} from "./policy-form.js";

const HOME = "/home/ada";
const GIB = 1024 ** 3;

/** A config file with every key set, none to its default. */
const FULL = {
  $schema: "./schema.json",
  enabled: false,
  sessionDir: "~/pi-sessions",
  stores: [{ kind: "pi", root: "~/pi-sessions" }],
  mode: "hard-block",
  quota: {
    maxTotalSizeBytes: 5 * GIB,
    maxSessionCount: 900,
    warnRatio: 0.8,
    infoRatio: 0.6,
    namespaces: [{ pattern: "/work/*", maxTotalSizeBytes: GIB, maxSessionCount: 50 }],
    agents: { claude: { maxTotalSizeBytes: 2 * GIB, maxSessionCount: null } },
  },
  retention: {
    maxAgeDays: 90,
    minKeepRecentCount: 10,
    keepLastPerNamespace: 2,
    eviction: "largest-first",
    neverReopened: { olderThanDays: 3, maxUserMessages: 2, activeMinutes: 30 },
    allowEmptyStore: true,
    autoClean: true,
    autoCleanMaxDeletesPerRun: 5,
    dryRun: false,
  },
  protection: { protectedPatterns: ["*incident*"], neverDeleteActiveSession: true },
  activity: { graceMinutes: 20 },
  deletion: { target: "quarantine", quarantineDir: "~/.local/share/session-quarantine" },
};

/** Every path to a leaf of a config object (`quota.namespaces` is one leaf: a list). */
function leafPaths(value: unknown, at = ""): string[] {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return [at];
  const entries = Object.entries(value);
  if (entries.length === 0) return [at];
  return entries.flatMap(([k, v]) => leafPaths(v, at ? `${at}.${k}` : k));
}

/**
 * An API over one config "file" in memory that validates a save with the same function and rules
 * the server does (text-only folder rules with a home), refusing what does not pass.
 */
function fileApi(initial: Draft | undefined, options: { drop?: string } = {}) {
  let file = initial;
  const saves: unknown[] = [];
  const response = (): PolicyResponse => ({
    path: `${HOME}/.pi/agent/session-retention.json`,
    source: file === undefined ? "defaults" : "file",
    ...(file === undefined ? {} : { raw: file }),
    problems: [],
    home: HOME,
  });
  const api: Pick<ApiClient, "policy" | "previewPlan" | "savePolicy"> = {
    policy: async () => response(),
    previewPlan: async () => {
      throw new Error("not used");
    },
    savePolicy: async (config) => {
      saves.push(config);
      const checked = validateConfig(config, HOME);
      if (!checked.ok) throw new ApiError("invalid config", 400, checked.problems);
      file = structuredClone(config) as Draft;
      // A server that loses a setting on the way (the defect this page must never hide).
      if (options.drop) delete (file[options.drop.split(".")[0]!] as Draft)[options.drop.split(".")[1]!];
      return response();
    },
  };
  return { api, saves, file: () => file };
}

describe("the policy form's round trip", () => {
  it("the full config names every setting the schema has", () => {
    const full = leafPaths(FULL);
    for (const path of leafPaths(DEFAULT_CONFIG))
      expect(
        full.some((p) => p === path || p.startsWith(`${path}.`)),
        path,
      ).toBe(true);
  });

  it("load → edit one field → save: every other setting of the file is written back unchanged", async () => {
    const { api, saves, file } = fileApi(structuredClone(FULL));
    const form = createPolicyForm(api);
    await form.load();
    expect(form.problems.value).toEqual([]);
    expect(form.dirty.value).toBe(false);

    form.edit("retention.maxAgeDays", numberFromText("120", null));
    form.edit("retention.neverReopened.olderThanDays", numberFromText("4", undefined));
    expect(form.canSave.value).toBe(true);
    expect(await form.save()).toBe(true);

    const expected = structuredClone(FULL);
    expected.retention.maxAgeDays = 120;
    expected.retention.neverReopened.olderThanDays = 4;
    expect(saves).toEqual([expected]);
    expect(file()).toEqual(expected);
    for (const path of leafPaths(FULL)) expect(getIn(file(), path), path).toEqual(getIn(expected, path));
    expect(form.status.value).toEqual({ kind: "saved", message: expect.stringContaining("Saved to") });
    expect(form.dirty.value).toBe(false);
  });

  it("an edit back to the default removes the key; the file keeps only what was set", async () => {
    const { api, file } = fileApi(undefined);
    const form = createPolicyForm(api);
    await form.load();
    form.edit("quota.maxSessionCount", bytesFromText("", "GiB"));
    form.edit("activity.graceMinutes", numberFromText("15", undefined));
    form.edit("activity.graceMinutes", numberFromText("", undefined));
    expect(await form.save()).toBe(true);
    expect(file()).toEqual({ quota: { maxSessionCount: null } });
  });
});

describe("what blocks Save", () => {
  it("a number field that does not parse keeps its text in the draft, is named at its path, and Save sends nothing", async () => {
    const { api, saves } = fileApi({ quota: { maxSessionCount: 500 } });
    const form = createPolicyForm(api);
    await form.load();
    form.edit("quota.maxSessionCount", numberFromText("12x", null));
    expect(form.draft.value).toEqual({ quota: { maxSessionCount: "12x" } });
    expect(form.problems.value.map((p) => p.path)).toEqual(["quota.maxSessionCount"]);
    expect(form.canSave.value).toBe(false);
    expect(await form.save()).toBe(false);
    expect(saves).toEqual([]);
  });

  it("an invalid row (a pattern that is not a glob, a size of 0) is named at its own path", async () => {
    const { api, saves } = fileApi({});
    const form = createPolicyForm(api);
    await form.load();
    form.edit("quota.namespaces", [{ pattern: "/work/[ab", maxTotalSizeBytes: bytesFromText("0", "GiB") }]);
    form.edit("protection.protectedPatterns", ["ok*", ""]);
    const paths = form.problems.value.map((p: ConfigProblem) => p.path).sort();
    expect(paths).toEqual([
      "protection.protectedPatterns[1]",
      "quota.namespaces[0].maxTotalSizeBytes",
      "quota.namespaces[0].pattern",
    ]);
    expect(await form.save()).toBe(false);
    expect(saves).toEqual([]);
    // Fixed, it saves.
    form.edit("quota.namespaces", [{ pattern: "/work/[ab]*", maxTotalSizeBytes: bytesFromText("2", "GiB") }]);
    form.edit("protection.protectedPatterns", ["ok*"]);
    expect(await form.save()).toBe(true);
    expect(saves).toHaveLength(1);
  });

  it("a save the server refuses says so and keeps the draft; never 'Saved'", async () => {
    const { api } = fileApi({});
    // The server judges folders against the real disk too: here it refuses what the page let through.
    api.savePolicy = async () => {
      throw new ApiError("invalid config", 400, [{ path: "deletion.quarantineDir", message: "is a store" }]);
    };
    const form = createPolicyForm(api);
    await form.load();
    form.edit("deletion.quarantineDir", "~/.local/share/q1");
    expect(await form.save()).toBe(false);
    expect(form.status.value?.kind).toBe("rejected");
    expect(form.status.value?.message).toMatch(/^Not saved/);
    expect(form.shownProblems.value).toEqual([{ path: "deletion.quarantineDir", message: "is a store" }]);
    expect(form.canSave.value).toBe(false);
    expect(form.draft.value).toEqual({ deletion: { quarantineDir: "~/.local/share/q1" } });
    // Editing again clears the server's word: the page checks anew.
    form.edit("deletion.quarantineDir", "~/.local/share/q2");
    expect(form.canSave.value).toBe(true);
  });

  it("a file that comes back without a setting sent is named, not 'Saved'", async () => {
    const { api } = fileApi({}, { drop: "retention.maxAgeDays" });
    const form = createPolicyForm(api);
    await form.load();
    form.edit("retention.maxAgeDays", 30);
    form.edit("retention.dryRun", false);
    expect(await form.save()).toBe(false);
    expect(form.status.value).toEqual({
      kind: "error",
      message: expect.stringContaining("retention.maxAgeDays"),
    });
    expect(form.draft.value).toEqual({ retention: { maxAgeDays: 30, dryRun: false } });
  });
});

describe("numbers and units", () => {
  it("an amount in a unit is whole bytes, and shows back as typed", () => {
    expect(bytesFromText("1.5", "GiB")).toBe(1.5 * GIB);
    expect(bytesFromText(" 512 ", "MiB")).toBe(512 * 1024 ** 2);
    expect(bytesFromText("", "GiB")).toBeNull();
    expect(bytesFromText("lots", "GiB")).toBe("lots");
    expect(textOfBytes(1.5 * GIB, "GiB")).toBe("1.5");
    expect(textOfBytes(bytesFromText("0.25", "TiB"), "TiB")).toBe("0.25");
    expect(textOfBytes(null, "GiB")).toBe("");
    expect(unitFor(512 * 1024 ** 2)).toBe("MiB");
    expect(unitFor(20 * GIB)).toBe("GiB");
    expect(unitFor(3 * 1024 ** 4)).toBe("TiB");
    expect(unitFor(null)).toBe("GiB");
  });

  it("a number's text: empty is the field's empty value, junk stays text", () => {
    expect(numberFromText("", null)).toBeNull();
    expect(numberFromText("  ", undefined)).toBeUndefined();
    expect(numberFromText("0.9", undefined)).toBe(0.9);
    expect(numberFromText("1e3", undefined)).toBe(1000);
    expect(numberFromText("9 days", undefined)).toBe("9 days");
  });
});

describe("what a row matches in the last scan", () => {
  const row = (path: string, namespace: string, name?: string, store = "pi") =>
    ({ path, namespace, name, store }) as SessionRow;

  it("namespace patterns: every match counted; the first matching row governs, as in the engine", () => {
    const namespaces = ["/work/a", "/work/b", "/home/x"];
    expect(namespaceMatches(["/work/a", "/work/*", "[", 7], namespaces)).toEqual([
      { matched: 1, governed: 1 },
      { matched: 2, governed: 1 },
      undefined,
      undefined,
    ]);
  });

  it("protected patterns match path, file name, namespace or name", () => {
    const sessions = [
      row("/s/2024_incident.jsonl", "/work/a"),
      row("/s/2.jsonl", "/work/incident"),
      row("/s/3.jsonl", "/work/b", "incident review"),
      row("/s/4.jsonl", "/work/b", "other"),
    ];
    expect(protectedMatches(["*incident*", "incident review", "2024_*", "", "[x"], sessions)).toEqual([
      3,
      1,
      1,
      undefined,
      undefined,
    ]);
  });

  it("a pattern counted once per scan is not counted again", () => {
    const cache = new Map<string, number>();
    const sessions = [row("/s/a.jsonl", "/work/a"), row("/s/b.jsonl", "/work/b")];
    expect(protectedMatches(["*a*"], sessions, cache)).toEqual([1]);
    // The cache answers for the pattern it knows: this scan's count, even for other rows.
    expect(protectedMatches(["*a*", "*b*"], [], cache)).toEqual([1, 0]);
    expect([...cache]).toEqual([
      ["*a*", 1],
      ["*b*", 0],
    ]);
  });

  it("stores: sessions of the row's kind inside its root, ~ in the server's home", () => {
    const sessions = [
      row(`${HOME}/.pi/agent/sessions/a/1.jsonl`, "/a"),
      row(`${HOME}/.pi/agent/sessions-old/2.jsonl`, "/a"),
      row(`${HOME}/.claude/projects/x/3.jsonl`, "/a", undefined, "claude"),
    ];
    const stores = [
      { kind: "pi", root: "~/.pi/agent/sessions/" },
      { kind: "claude", root: `${HOME}/.claude/projects` },
      { kind: "pi", root: `${HOME}/.claude/projects` },
      { kind: "pi", root: "" },
    ];
    expect(storeMatches(stores, sessions, HOME)).toEqual([1, 1, 0, 0]);
  });
});

describe("the preview by rule", () => {
  it("every rule in the engine's order with its sessions and bytes, zero when it takes none", () => {
    const candidate = (rule: Candidate["rule"], sizeBytes: number) => ({ rule, sizeBytes }) as Candidate;
    const plan = {
      candidates: [candidate("maxAgeDays", 10), candidate("namespaceQuota", 5), candidate("maxAgeDays", 7)],
    } as Pick<Plan, "candidates">;
    expect(previewByRule(plan)).toEqual([
      { rule: "maxAgeDays", label: "too old", sessions: 2, bytes: 17 },
      { rule: "neverReopened", label: "never reopened", sessions: 0, bytes: 0 },
      { rule: "namespaceQuota", label: "namespace quota", sessions: 1, bytes: 5 },
      { rule: "agentQuota", label: "agent quota", sessions: 0, bytes: 0 },
      { rule: "maxTotalSizeBytes", label: "size quota", sessions: 0, bytes: 0 },
      { rule: "maxSessionCount", label: "count quota", sessions: 0, bytes: 0 },
    ]);
  });
});

describe("the schema's words on the form", () => {
  it("null is an empty field; the rest of the message is the server's", () => {
    expect(inFormWords("must be greater than 0 (use null for no limit)")).toBe(
      "must be greater than 0 (leave it empty for no limit)",
    );
    expect(inFormWords("must be greater than 0 (use null to turn the rule off)")).toBe(
      "must be greater than 0 (leave it empty to turn the rule off)",
    );
    expect(inFormWords("must be a whole number of sessions or null (no limit)")).toBe(
      "must be a whole number of sessions or empty (no limit)",
    );
    expect(inFormWords("must be below warnRatio (0.9), got 0.95")).toBe(
      "must be below warnRatio (0.9), got 0.95",
    );
  });
});
