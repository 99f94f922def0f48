// Gemini CLI's own cleanup (general.sessionRetention) as a policy we show: its settings merged the
// way Gemini merges them, what it deletes next in each project it is started in (and never in the
// others), the sweep in plan, status, the dashboard's summary and /metrics, and the warning a restore
// gives when Gemini would delete the restored chat again.
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { PlanSchema } from "../../../shared/plan.js";
import { writeConfigFile } from "../../../test-support/config-file.js";
import { DAY, GEMINI_NOW, GeminiStoreBuilder, writeGeminiStore } from "../../../test-support/gemini-store.js";
import { runCli } from "../../cli/main.js";
import { restore, softDelete } from "../../delete/deletion-engine.js";
import { createDashboardService } from "../../http/dashboard-service.js";
import { collectMetrics } from "../../report/metrics.js";
import { scanStores } from "../../scan/scanner.js";
import { geminiRetention } from "./gemini-settings.js";
import { geminiSweep } from "./gemini-sweep.js";

const newDir = (prefix = "sr-gemini-sweep-") => realpathSync(mkdtempSync(join(tmpdir(), prefix)));
const write = (path: string, text: string) => {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
};
const retentionOf = (value: string) => JSON.stringify({ general: { sessionRetention: JSON.parse(value) } });
const scan = (root: string) => scanStores({ stores: [{ kind: "gemini", root }] });
const out = () => {
  const lines: string[] = [];
  return { lines, io: { stdout: (t: string) => lines.push(t), stderr: (t: string) => lines.push(t) } };
};

describe("geminiRetention: the settings as Gemini merges them", () => {
  /**
   * A Gemini folder, a project folder outside it, and the machine's settings file as Gemini finds
   * it (`$GEMINI_CLI_SYSTEM_SETTINGS_PATH`, the system defaults beside it): this test's own.
   */
  function setting() {
    const home = newDir();
    const root = join(home, ".gemini");
    const project = newDir("sr-project-");
    mkdirSync(root);
    const system = join(home, "etc", "gemini-cli", "settings.json");
    const env = { GEMINI_CLI_SYSTEM_SETTINGS_PATH: system };
    return { root, project, system, retention: (path?: string) => geminiRetention(root, path, env) };
  }
  const days = (r: ReturnType<typeof geminiRetention>) => ("off" in r ? r.off : (r.maxAgeMs ?? 0) / DAY);

  it("is on by default, 30 days by the time in each chat; the user's settings (with comments) come next", () => {
    const { root, retention } = setting();
    expect(retention()).toEqual({
      maxAgeMs: 30 * DAY,
      setting: `general.sessionRetention maxAge = 30d (Gemini CLI's default)`,
    });
    write(
      join(root, "settings.json"),
      `// mine\n{ "general": { /* short */ "sessionRetention": { "maxAge": "2w", "maxCount": 50 } } }`,
    );
    expect(retention()).toEqual({
      maxAgeMs: 14 * DAY,
      maxCount: 50,
      setting: `general.sessionRetention maxAge = 2w, maxCount = 50 (${root}/settings.json)`,
    });
  });

  it("a project's settings count only where Gemini trusts the folder, and never the home folder's", () => {
    const { root, project, retention } = setting();
    write(join(root, "settings.json"), retentionOf('{"maxAge": "7d"}'));
    write(join(project, ".gemini", "settings.json"), retentionOf('{"maxAge": "2d"}'));
    expect(days(retention(project))).toBe(7); // no rule covers it: not trusted
    write(join(root, "trustedFolders.json"), JSON.stringify({ [project]: "TRUST_FOLDER" }));
    expect(days(retention(project))).toBe(2);
    write(join(root, "trustedFolders.json"), JSON.stringify({ [join(project, "x")]: "TRUST_PARENT" }));
    expect(days(retention(project))).toBe(2);
    // The longest rule wins.
    write(
      join(root, "trustedFolders.json"),
      JSON.stringify({ [dirname(project)]: "TRUST_FOLDER", [project]: "DO_NOT_TRUST" }),
    );
    expect(days(retention(project))).toBe(7);
    // Folder trust turned off: every folder is trusted.
    write(
      join(root, "settings.json"),
      `${retentionOf('{"maxAge": "7d"}').slice(0, -1)}, "security": {"folderTrust": {"enabled": false}}}`,
    );
    expect(days(retention(project))).toBe(2);
    // Gemini started in the home folder reads no project settings there: they are the user's own.
    write(join(dirname(root), ".gemini", "settings.json"), retentionOf('{"maxAge": "7d"}'));
    write(join(root, "trustedFolders.json"), JSON.stringify({ [dirname(root)]: "TRUST_FOLDER" }));
    expect(days(retention(dirname(root)))).toBe(7);
  });

  it("system defaults come under the user's settings, the system settings over everything", () => {
    const { root, project, system, retention } = setting();
    write(join(dirname(system), "system-defaults.json"), retentionOf('{"maxAge": "60d", "maxCount": 5}'));
    write(join(root, "settings.json"), retentionOf('{"maxAge": "7d"}'));
    expect(retention(project)).toMatchObject({ maxAgeMs: 7 * DAY, maxCount: 5 });
    write(system, retentionOf('{"maxAge": "90d"}'));
    write(join(root, "trustedFolders.json"), JSON.stringify({ [project]: "TRUST_FOLDER" }));
    write(join(project, ".gemini", "settings.json"), retentionOf('{"maxAge": "1d"}'));
    expect(retention(project)).toEqual({
      maxAgeMs: 90 * DAY,
      maxCount: 5,
      setting: `general.sessionRetention maxAge = 90d (${system}), maxCount = 5 (${join(dirname(system), "system-defaults.json")})`,
    });
  });

  it("off, or rejected by Gemini, means no cleanup; a settings file that is not JSON counts as empty", () => {
    const { root, retention } = setting();
    const set = (value: string) => write(join(root, "settings.json"), retentionOf(value));
    set('{"enabled": false}');
    expect(retention()).toEqual({ off: expect.stringContaining("enabled = false") });
    set('{"maxAge": "30 days"}');
    expect(retention()).toHaveProperty("off");
    set('{"maxAge": "12h"}'); // below minRetention (1d)
    expect(retention()).toHaveProperty("off");
    set('{"maxAge": "12h", "minRetention": "1h"}');
    expect(retention()).toMatchObject({ maxAgeMs: DAY / 2 });
    set('{"maxCount": 0}');
    expect(retention()).toHaveProperty("off");
    write(join(root, "settings.json"), '{ "general": { "sessionRetention": { "maxAge": "7d" } }'); // cut short
    expect(days(retention())).toBe(30);
  });
});

describe("geminiSweep: what Gemini deletes when it next starts in each project", () => {
  it("in each project Gemini uses: chats older than maxAge by their own time, and those it cannot load or resume; never a folder it no longer uses", async () => {
    const store = writeGeminiStore(newDir());
    const { sessions } = await scan(store.root);
    const now = new Date(GEMINI_NOW);
    const idOf = new Map(sessions.map((s) => [s.path, s.id]));
    const due = store.sweep.filter((s) => s.current && (!s.valid || s.lastUpdatedMs < GEMINI_NOW - 30 * DAY));
    // What this test relies on: each kind of reason, and folders Gemini never prunes.
    expect(due.filter((s) => !s.valid)).toHaveLength(2);
    expect(store.sweep.filter((s) => !s.current).length).toBeGreaterThan(1);

    const sweep = geminiSweep(store.root, sessions, now)!;
    expect([...sweep.ids].sort()).toEqual(due.map((s) => idOf.get(s.path)!).sort());
    const bytes = due.reduce((total, s) => total + sessions.find((r) => r.path === s.path)!.sizeBytes, 0);
    expect(sweep).toMatchObject({
      agent: "gemini",
      storeRoot: store.root,
      bytes,
      days: 30,
      keepable: false,
      when: "the next time it starts in their projects",
      setting: "general.sessionRetention maxAge = 30d (Gemini CLI's default)",
    });
    // Oldest first.
    const used = sweep.ids.map((id) => Date.parse(sessions.find((s) => s.id === id)!.lastUsedAt));
    expect(used).toEqual([...used].sort((a, b) => a - b));
    const { shop, otherShop, myApp, oldApiSlug } = store.projects;
    expect(sweep.message).toContain(`Gemini CLI will permanently delete ${due.length} sessions`);
    for (const project of [shop, otherShop, myApp, oldApiSlug]) expect(sweep.message).toContain(project.path);
    expect(sweep.message).toContain(
      "2 of them it cannot load or would not resume, deleted whatever their age",
    );
    expect(sweep.message).toContain("It prunes only the project it is started in");
  });

  it("keeps only maxCount of the most recent, and deletes with a chat every chat named with its short id", async () => {
    const b = new GeminiStoreBuilder(newDir());
    const project = b.project("/home/dev/shop");
    const chats = [1, 2, 3, 4, 5].map((days) => b.save(b.chat(project, days).conversationOf(1), project));
    // A chat whose name ends in the same 8 characters as the oldest one's.
    const twin = b.chat(project, 0.5).conversationOf(1);
    const name = b
      .chatName(twin, "jsonl")
      .replace(/-[0-9a-f]{8}\.jsonl$/, `-${b.chatName(chats[4]!.chat, "jsonl").slice(-14)}`);
    write(join(project.dir, "chats", name), twin.jsonl());
    b.keep(join(b.root, "settings.json"), retentionOf('{"maxCount": 3}'));
    b.finish();
    const { sessions } = await scan(b.root);
    const sweep = geminiSweep(b.root, sessions, new Date(GEMINI_NOW))!;
    const swept = sweep.ids.map((id) => sessions.find((s) => s.id === id)!.path).sort();
    // The three oldest; and the twin, the newest (kept by count), goes with the oldest.
    expect(swept).toEqual(
      [chats[2]!.path, chats[3]!.path, chats[4]!.path, join(project.dir, "chats", name)].sort(),
    );
  });
});

describe("plan, status, the dashboard and /metrics show Gemini's sweep; a restore says when it would come again", () => {
  /** A store in a real project folder: one chat started 40 days ago (last updated a few minutes later), one from yesterday. */
  function store() {
    const b = new GeminiStoreBuilder(newDir(), Date.now());
    const project = b.project(newDir("sr-project-"));
    const old = b.save(b.chat(project, 40).conversationOf(2), project);
    b.save(b.chat(project, 1).conversationOf(1), project);
    const facts = b.finish();
    return { root: facts.root, project: project.path, old: facts.sessions.find((s) => s.path === old.path)! };
  }

  it("plan --json and its text, status, the summary and /metrics", async () => {
    const { root, project, old } = store();
    const flags = ["--store", `gemini:${root}`];
    writeConfigFile({});
    let o = out();
    expect(await runCli(["plan", "--json", ...flags], o.io)).toBe(0);
    const [sweep] = PlanSchema.parse(JSON.parse(o.lines.at(-1)!)).externalSweeps!;
    expect(sweep).toMatchObject({ agent: "gemini", ids: [old.id], bytes: old.sizeBytes, keepable: false });
    o = out();
    await runCli(["plan", ...flags], o.io);
    const said = o.lines.join("\n");
    expect(said).toContain(`! Gemini CLI will permanently delete 1 session`);
    expect(said).toContain(`${project} (1)`);
    expect(said).not.toContain("keep --swept"); // nothing to offer: Gemini judges by the time inside
    o = out();
    await runCli(["status", ...flags], o.io);
    expect(o.lines.join("\n")).toMatch(
      /Gemini CLI will delete 1 session \(.+\) the next time it starts in their projects/,
    );

    const api = createDashboardService({
      stores: [{ kind: "gemini", root }],
      source: { kind: "pi" },
      config: {},
    });
    const summary = await api.getSummary();
    expect(summary.externalSweeps).toEqual([sweep]);
    expect(summary.agents.map((a) => [a.kind, a.sessionCount])).toEqual([["gemini", 2]]);
    // Keeping is Claude's alone: a Gemini id is refused, and nothing changes.
    await expect(api.keep({ ids: [old.id] })).rejects.toThrow(/not a Claude Code session/);

    const metrics = await collectMetrics({
      stores: [{ kind: "gemini", root }],
      config: {},
    });
    expect(metrics).toContain(`session_retention_agent_sessions{agent="gemini"} 2`);
    expect(metrics).toContain(
      `session_retention_agent_sweep_bytes{agent="gemini",store="${root}"} ${old.sizeBytes}`,
    );
  });

  it("a restored chat Gemini would delete again is named, with why; a recent one is not", async () => {
    const { root, project, old } = store();
    writeConfigFile({
      retention: { minKeepRecentCount: 0, keepLastPerNamespace: 0, allowEmptyStore: true },
      deletion: { target: "quarantine" },
    });
    const { sessions } = await scan(root);
    const items = sessions.map((s) => ({ id: s.id, fingerprint: s.fingerprint }));
    const moved = await softDelete(
      { items, stores: [{ kind: "gemini", root }], via: "selection" },
      { actor: "cli" },
    );
    expect(moved.moved).toHaveLength(2);
    const back = await restore([moved.operationId!], { actor: "cli" });
    expect(back.done).toHaveLength(2);
    expect(back.sweptAgain).toEqual([
      {
        id: old.id,
        path: old.path,
        message: expect.stringMatching(
          new RegExp(
            `^Gemini CLI will delete it again the next time it starts in ${project} \\(general\\.sessionRetention maxAge = 30d \\(Gemini CLI's default\\)\\): its chat was last updated 39 days ago\\.`,
          ),
        ),
        agent: "gemini",
        keepable: false,
      },
    ]);
  });
});
