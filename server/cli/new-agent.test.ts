// "A new agent is one folder plus one line in one list": the "notes" agent of
// test-support/fixture-agent/ (a folder that is in no list of the product) is added here by exactly
// those lines — its kind and label in the kind registry, its adapter in the adapter list, each by a
// `vi.mock` that adds one entry — and the real CLI then scans it (`scan --json`), plans for it
// (`plan --json`) and moves its chosen session to the quarantine (`clean`), with no other file of
// the product changed; it is found in its default store with nothing naming it, and a session its
// running process uses is kept, because its adapter says so. The mocks stand for the two edited
// lines; everything else runs as shipped.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdirSync, mkdtempSync, realpathSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Plan } from "../../shared/plan.js";
import type { ScanReport } from "../../shared/scan-report.js";
import { writeConfigFile } from "../../test-support/config-file.js";
import { snapshotTree, treeChanges } from "../../test-support/tree-snapshot.js";
import { NOTES_EDITING } from "../../test-support/fixture-agent/adapter.js";
import type { CliIo } from "./io.js";
import { runCli } from "./main.js";

// The line in the kind registry.
vi.mock("../../shared/store-kinds.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../shared/store-kinds.js")>();
  return {
    ...real,
    STORE_KINDS: [...real.STORE_KINDS, "notes"],
    AGENT_LABELS: { ...real.AGENT_LABELS, notes: "Notes" },
  };
});
// The line in the adapter list.
vi.mock("../stores/adapters.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../stores/adapters.js")>();
  const { notesAdapter } = await import("../../test-support/fixture-agent/adapter.js");
  return { STORE_ADAPTERS: { ...real.STORE_ADAPTERS, notes: notesAdapter } };
});

async function run(argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { stdout: (t) => out.push(t), stderr: (t) => err.push(t) };
  const status = await runCli(argv, io);
  return { status, stdout: out.join(""), stderr: err.join("\n") };
}

/** A notes store: two old notes, a new one, and a file that is no note; and a config that takes what is older than a week. */
function notesStore() {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "sr-notes-")));
  const root = join(base, "notes");
  mkdirSync(root);
  const old = new Date(Date.UTC(2025, 0, 1));
  for (const [name, text] of [
    ["groceries.note", "milk\neggs\n"],
    ["ideas.note", "one\ntwo\nthree\n"],
    ["today.note", "now\n"],
    ["README.txt", "not a note\n"],
  ] as const)
    writeFileSync(join(root, name), text);
  for (const name of ["groceries.note", "ideas.note"]) utimesSync(join(root, name), old, old);
  const config = writeConfigFile(
    {
      retention: { maxAgeDays: 7, minKeepRecentCount: 0, keepLastPerNamespace: 0 },
      activity: { graceMinutes: 0 },
      deletion: { target: "quarantine" },
    },
    join(base, "session-retention.json"),
  );
  return { base, root, args: ["--store", `notes:${root}`, "--config", config] };
}

describe("a new agent: its folder and one line in each list", () => {
  afterEach(() => void vi.unstubAllEnvs());

  it("is found where its adapter says it keeps its store, with nothing naming it; a quarantine there is refused", async () => {
    const { base, root } = notesStore();
    vi.stubEnv("NOTES_HOME", root);
    const config = (extra: object) =>
      writeConfigFile({ retention: { maxAgeDays: 7 }, ...extra }, join(base, "found.json"));
    const scan = await run(["scan", "--json", "--config", config({})]);
    expect(scan.stderr).toContain("looking at the notes store only");
    expect(scan.status).toBe(0);
    expect((JSON.parse(scan.stdout) as ScanReport).stores).toEqual([{ kind: "notes", root }]);

    // The place gate keeps a quarantine out of every agent's default store, the new one's too.
    const inside = config({ deletion: { target: "quarantine", quarantineDir: join(root, "q") } });
    const plan = await run(["plan", "--json", "--config", inside]);
    expect(plan.status).not.toBe(0);
    expect(plan.stderr).toContain("the notes store");
  });

  it("is scanned and listed by `scan --json`", async () => {
    const { root, args } = notesStore();
    const scan = await run(["scan", "--json", ...args]);
    expect(scan.status).toBe(0);
    const report = JSON.parse(scan.stdout) as ScanReport;
    expect(report.stores).toEqual([{ kind: "notes", root }]);
    expect(report.sessions.map((s) => [s.id, s.messageCount]).sort()).toEqual([
      ["notes:groceries", 2],
      ["notes:ideas", 3],
      ["notes:today", 1],
    ]);
    expect(report.problems).toEqual([
      expect.objectContaining({ code: "not-a-session", path: join(root, "README.txt") }),
    ]);
  });

  it("is planned by `plan --json`, and its chosen sessions moved by `clean`, nothing else touched", async () => {
    const { base, root, args } = notesStore();
    const plan = await run(["plan", "--json", ...args]);
    expect(plan.status).toBe(0);
    expect((JSON.parse(plan.stdout) as Plan).candidates.map((c) => c.id).sort()).toEqual([
      "notes:groceries",
      "notes:ideas",
    ]);

    const before = snapshotTree([base]);
    const clean = await run(["clean", "--ids", "notes:ideas", "--yes", ...args]);
    // What is no note stays, and is said to, by the agent's label from the kind registry.
    expect(clean.stderr).toContain("1 item in");
    expect(clean.stderr).toContain("is not a session of this Notes store: left alone, never cleaned.");
    expect(clean.status).toBe(0);
    expect(treeChanges(before, snapshotTree([base]))).toEqual([
      `gone: ${join(root, "ideas.note")} (was ${before.get(join(root, "ideas.note"))})`,
    ]);
  });

  it.runIf(existsSync("/proc/self/environ"))(
    "a session its adapter says a running process uses is kept out of a clean, and moved once that process is gone",
    async () => {
      const { base, root, args } = notesStore();
      const ideas = join(root, "ideas.note");
      // A real process, as the agent's adapter finds its own (here: by the note its environment names).
      const editor = spawn("sleep", ["60"], {
        env: { ...process.env, [NOTES_EDITING]: ideas },
        stdio: "ignore",
      });
      await once(editor, "spawn");
      try {
        const plan = await run(["plan", "--json", ...args]);
        expect((JSON.parse(plan.stdout) as Plan).candidates.map((c) => c.id)).toEqual(["notes:groceries"]);
        const before = snapshotTree([base]);
        const clean = await run(["clean", "--ids", "notes:ideas", "--yes", ...args]);
        expect(clean.stderr).toContain(`edited by notes editor ${editor.pid}`);
        expect(treeChanges(before, snapshotTree([base]))).toEqual([]);
      } finally {
        editor.kill("SIGKILL");
        await once(editor, "exit");
      }
      expect((await run(["clean", "--ids", "notes:ideas", "--yes", ...args])).status).toBe(0);
      expect(existsSync(ideas)).toBe(false);
    },
  );
});
