// The extension inside pi's real runtime (test-support/pi-runtime.ts): pi loads it from this
// package's "pi" manifest, its AgentSession emits the events and runs the commands, a scripted UI
// answers the dialogs, and the stores are written by pi's own SessionManager.
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { visible } from "../shared/visible-text.js";
import { listTrash } from "../server/delete/deletion-engine.js";
import { runningInstance } from "../server/http/instance.js";
import { writeActiveMarker } from "../server/state/active-marker.js";
import { readAudit } from "../server/state/audit-log.js";
import { readPins } from "../server/state/protection-list.js";
import { statePaths } from "../server/state/state-dir.js";
import type { ExtensionFactory } from "@mariozechner/pi-coding-agent";
import { mkfifo, neverBlockedBy } from "../test-support/fifo.js";
import { type PiUnderTest, scriptedUi, SessionManager, startPi } from "../test-support/pi-runtime.js";
import {
  assistantMessage,
  piFolder,
  setModified,
  userMessage,
  writeSession,
} from "../test-support/pi-store.js";

const DAY = 86_400_000;
const agentDir = () => process.env.PI_CODING_AGENT_DIR!;
const store = () => join(agentDir(), "sessions");
/** The project pi works in: a real folder (pi refuses a session whose cwd is gone). */
const project = () => join(process.env.HOME!, "project");
const namespaceDir = () => join(store(), piFolder(project()));

/** `count` sessions of one project, the first `old` of them last used 200 days ago. */
function writeStore(count: number, old: number): string[] {
  const files: string[] = [];
  for (let i = 0; i < count; i++) {
    const file = writeSession(store(), project(), 3).getSessionFile()!;
    setModified(file, new Date(Date.now() - (i < old ? 200 + i : 1 + i / 10) * DAY));
    files.push(file);
  }
  return files;
}

function writeConfig(config: object) {
  writeFileSync(statePaths().configFile, JSON.stringify(config));
}

const retention = { maxAgeDays: 180, minKeepRecentCount: 2 };

/** The session pi works in: a new one in the same project (no file yet: pi writes it lazily). */
function currentSession() {
  return SessionManager.create(project(), namespaceDir());
}

let pi: PiUnderTest | undefined;
afterEach(async () => {
  await pi?.runtime.dispose();
  pi = undefined;
});
beforeEach(() => {
  rmSync(agentDir(), { recursive: true, force: true });
  mkdirSync(agentDir(), { recursive: true });
  rmSync(join(process.env.XDG_DATA_HOME!, "Trash"), { recursive: true, force: true });
  mkdirSync(project(), { recursive: true });
});

async function start(ui = scriptedUi(), sessionManager = currentSession(), extra?: ExtensionFactory) {
  pi = await startPi({ cwd: project(), sessionManager, ui: ui.ui, ...(extra ? { extra } : {}) });
  return { pi, ui };
}

/** What goes to stderr — where the extension answers without a UI — kept instead of printed. */
function captureStderr() {
  const written: string[] = [];
  const spy = vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
    written.push(String(chunk));
    return true;
  });
  return { written, spy };
}

/** Runs a command and waits for the look it triggers. */
async function command(p: PiUnderTest, text: string) {
  const looked = p.nextLook();
  await p.runtime.session.prompt(text);
  return looked;
}

describe("status line", () => {
  it("is silent when ok and says the level at info, warn and critical — per mode", async () => {
    writeStore(10, 0);
    writeConfig({ quota: { maxSessionCount: 20 } });
    const { pi, ui } = await start();
    expect(pi.looks[0]!.quota.level).toBe("ok");
    expect(ui.status.get("session-retention")).toBeUndefined();
    expect(ui.notes).toEqual([]); // no notice below warn

    const cases: Array<[number, string, RegExp | undefined]> = [
      [13, "warn-only", /^sessions 77% of quota$/],
      [11, "warn-only", /^⚠ sessions 91% of quota · \/session-retention clean$/],
      [8, "warn-only", /^⛔ sessions 125% of quota · \/session-retention clean$/],
      [8, "hard-block", /^⛔ sessions 125% of quota: input blocked · \/session-retention clean$/],
      [8, "off", undefined],
    ];
    for (const [limit, mode, expected] of cases) {
      writeConfig({ mode, quota: { maxSessionCount: limit } });
      await command(pi, "/session-retention scan");
      const text = ui.status.get("session-retention");
      if (expected) expect(text, `${limit}/${mode}`).toMatch(expected);
      else expect(text, `${limit}/${mode}`).toBeUndefined();
    }
  });

  it("says when the config is invalid (read-only), and never blocks then", async () => {
    writeStore(3, 0);
    writeFileSync(statePaths().configFile, '{ "mode": "hard-block", "quota": { "maxSessionCount": -1 } }');
    const { pi, ui } = await start();
    expect(ui.status.get("session-retention")).toMatch(/invalid config, read-only/);
    await pi.runtime.session.prompt("hello");
    expect(pi.passed).toEqual(["hello"]);
  });

  it("a FIFO as the config: says what is wrong with it at once (read-only), never hangs pi", async () => {
    writeStore(3, 0);
    const fifo = mkfifo(statePaths().configFile);
    const ui = scriptedUi();
    const problem = `invalid config ${fifo}:\n  (file): is a named pipe (FIFO), not a regular file`;
    await neverBlockedBy(fifo, async () => {
      pi = await startPi({ cwd: project(), sessionManager: currentSession(), ui: ui.ui, waitForLook: false });
      // The stores the file may name cannot be trusted, so there is no look: the warning says why.
      await vi.waitFor(() => expect(ui.notes[0]?.text).toContain(problem), { timeout: 10_000 });
      expect(ui.notes[0]!.text).toMatch(/^session-retention: could not look at the session stores: /);
      await pi.runtime.session.prompt("/session-retention policy");
      expect(ui.notes.at(-1)!.text).toContain(
        `Invalid config ${fifo} (read-only until fixed):\n  (file): is a named pipe (FIFO), not a regular file`,
      );
    });
  });
});

describe("input guard", () => {
  it("blocks ordinary input only at critical in hard-block mode, and lets it through again after a clean", async () => {
    const files = writeStore(10, 4);
    writeConfig({ mode: "hard-block", quota: { maxSessionCount: 8 }, retention });
    const ui = scriptedUi();
    const { pi } = await start(ui);
    expect(pi.looks[0]!.quota.level).toBe("critical");
    // At start, the strong prompt of the critical level, with the way to clean.
    expect(ui.notes[0]).toEqual({
      level: "error",
      text: expect.stringMatching(
        /^Sessions are over their quota: .*10 of 8 sessions \(125%\)\.\nThe policy suggests 4 sessions/,
      ),
    });

    await pi.runtime.session.prompt("please refactor");
    expect(pi.passed).toEqual([]);
    const blocked = ui.notes.at(-1)!;
    expect(blocked.level).toBe("error");
    expect(blocked.text).toMatch(
      /^Not sent: the sessions are over their quota — 10 of 8 sessions \(125%\), 2 over — and the mode is hard-block\.\n/,
    );
    expect(blocked.text).toContain("The policy suggests 4 sessions (");

    // Commands keep working while input is blocked: clean the 4 old sessions.
    ui.answers.push({ select: (options) => options[0] }, { input: "DELETE" });
    await command(pi, "/session-retention clean");
    expect(files.slice(0, 4).every((f) => !existsSync(f))).toBe(true);
    expect(pi.looks.at(-1)!.quota.level).toBe("info");

    await pi.runtime.session.prompt("please refactor");
    expect(pi.passed).toEqual(["please refactor"]);
  });

  it("looks again after a prompt once the last look is 5 minutes old, so a store that fills up mid-session blocks", async () => {
    writeStore(10, 0);
    writeConfig({ mode: "hard-block", quota: { maxSessionCount: 20 } });
    const { pi } = await start();
    const runner = pi.runtime.session.extensionRunner;
    writeConfig({ mode: "hard-block", quota: { maxSessionCount: 8 } }); // as if the store grew past it
    await runner.emit({ type: "agent_end", messages: [] });
    expect(pi.looks).toHaveLength(1); // too soon: no new look
    const now = Date.now();
    const clock = vi.spyOn(Date, "now").mockReturnValue(now + 5 * 60_000);
    try {
      const looked = pi.nextLook();
      await runner.emit({ type: "agent_end", messages: [] });
      expect((await looked).quota.level).toBe("critical");
    } finally {
      clock.mockRestore();
    }
    await pi.runtime.session.prompt("more work");
    expect(pi.passed).toEqual([]);
  });

  it("never blocks in warn-only or off, even when critical", async () => {
    writeStore(10, 0);
    for (const mode of ["warn-only", "off"]) {
      writeConfig({ mode, quota: { maxSessionCount: 5 } });
      const { pi } = await start();
      expect(pi.looks[0]!.quota.level).toBe("critical");
      await pi.runtime.session.prompt(`hello in ${mode}`);
      expect(pi.passed).toEqual([`hello in ${mode}`]);
      await pi.runtime.dispose();
    }
  });
});

describe("clean command", () => {
  it("moves exactly the chosen sessions to the trash, and undo brings them back byte-identical", async () => {
    const files = writeStore(10, 4);
    const before = files.map((f) => readFileSync(f));
    writeConfig({ retention });
    const ui = scriptedUi();
    const { pi } = await start(ui);
    const keep = files[1]!.slice(-16); // rows show the start and the end of the file name
    ui.answers.push(
      // Untick one of the policy's four candidates, then go on.
      { select: (options) => options.find((o) => o.startsWith("[x]") && o.endsWith(keep)) },
      { select: (options) => options.find((o) => o.startsWith("Continue with 3 chosen")) },
      { input: "DELETE" },
    );
    await command(pi, "/session-retention clean");

    const title = ui.dialogs[0]!.title;
    expect(title).toMatch(/The policy suggests 4 sessions/);
    expect(ui.dialogs[0]!.options!.filter((o) => o.startsWith("[x]"))).toHaveLength(4);
    expect(
      ui.dialogs[0]!.options!.some((o) =>
        /^\[x\] +2\.\d\d KiB · used 6mo ago · too old · question 0 in \S+ · ~\/project › \d{4}-\d\d-\d\dT\d\d-\d\d-\d\d…[0-9a-f]{10}\.jsonl$/.test(
          o,
        ),
      ),
    ).toBe(true);
    expect(ui.dialogs[2]!.title).toMatch(/^3 sessions, .* go to the trash\. Riskiest:/);
    const moved = [files[0]!, files[2]!, files[3]!];
    for (const f of moved) expect(existsSync(f), f).toBe(false);
    for (const f of [files[1]!, ...files.slice(4)]) expect(existsSync(f), f).toBe(true);
    const trash = listTrash({ actor: "cli" }).entries.filter((e) => e.state === "in-trash");
    expect(trash.map((e) => e.originalPath).sort()).toEqual([...moved].sort());
    for (const e of trash) expect(existsSync(e.location!)).toBe(true);
    expect(ui.notes.at(-1)!.text).toMatch(
      /^3 sessions \(.*\) moved to the trash — still on disk until emptied\. Undo with \/session-retention undo\./,
    );
    const audit = readAudit(statePaths().auditLog).entries.find((e) => e.action === "soft-delete");
    expect(audit?.actor).toBe("extension");

    await command(pi, "/session-retention undo");
    expect(ui.notes.at(-1)!.text).toMatch(/^Restored 3 sessions/);
    files.forEach((f, i) => expect(readFileSync(f).equals(before[i]!), f).toBe(true));
  });

  it("cancels without moving anything when DELETE is not typed", async () => {
    const files = writeStore(6, 3);
    writeConfig({ retention });
    const ui = scriptedUi();
    const { pi } = await start(ui);
    ui.answers.push({ select: (options) => options[0] }, { input: "delete" });
    await pi.runtime.session.prompt("/session-retention clean");
    expect(files.every((f) => existsSync(f))).toBe(true);
    expect(ui.notes.at(-1)!.text).toBe("Cancelled: nothing was moved.");
  });

  it("offers every session the policy lets go, sorted by size, but never the current, recent or pinned ones", async () => {
    const files = writeStore(6, 0);
    writeConfig({ retention: { ...retention, maxAgeDays: null } });
    const current = currentSession();
    current.appendMessage(userMessage("the live one"));
    current.appendMessage(assistantMessage("written now"));
    const ui = scriptedUi();
    const { pi } = await start(ui, current);
    // Old (set after pi's own writes at start), but live: only its marker keeps it.
    setModified(current.getSessionFile()!, new Date(Date.now() - 300 * DAY));
    await pi.runtime.session.prompt(`/session-retention protect ${files[5]}`);
    // No policy candidates (no age limit, no quota pressure): the list starts with every session
    // the policy lets go; switch the order to largest first, then leave.
    ui.answers.push(
      { select: (options) => options.find((o) => o.startsWith("Sort: least recently used")) },
      { select: "Cancel" },
    );
    await pi.runtime.session.prompt("/session-retention clean");
    expect(ui.dialogs.at(-1)!.options).toContain("Sort: largest first (switch to least recently used first)");
    const name = (f: string) => f.slice(-16);
    const offered = ui.dialogs
      .at(-1)!
      .options!.filter((o) => o.startsWith("[ ]"))
      .map((o) => o.slice(-16));
    // Kept out: the live session (old, but its marker names it), the pinned file 5, and files 0
    // and 1, the two most recently used (minKeepRecentCount 2).
    expect(offered.sort()).toEqual([files[2]!, files[3]!, files[4]!].map(name).sort());
    expect(offered).not.toContain(name(current.getSessionFile()!));
    expect(ui.notes.at(-1)!.text).toBe("Cancelled: nothing was moved.");
    expect(files.every((f) => existsSync(f))).toBe(true);
  });
});

describe("protect, policy and commands without a UI", () => {
  it("protects this session (no argument) and unprotects it, audited", async () => {
    writeStore(2, 0);
    const current = currentSession();
    current.appendMessage(userMessage("keep me"));
    current.appendMessage(assistantMessage("ok"));
    const ui = scriptedUi();
    const { pi } = await start(ui, current);
    await pi.runtime.session.prompt("/session-retention protect");
    expect(readPins(statePaths().protectedList).map((p) => p.path)).toEqual([current.getSessionFile()]);
    await pi.runtime.session.prompt("/session-retention unprotect");
    expect(readPins(statePaths().protectedList)).toEqual([]);
    // The log reads newest first.
    const actions = readAudit(statePaths().auditLog).entries.map((e) => `${e.actor}:${e.action}`);
    expect(actions).toEqual(["extension:unprotect", "extension:protect"]);
  });

  it("says plainly that a session without a file yet cannot be protected", async () => {
    writeStore(2, 0);
    const ui = scriptedUi();
    const { pi } = await start(ui);
    await pi.runtime.session.prompt("/session-retention protect");
    expect(ui.notes.at(-1)!.text).toMatch(/This session has no file yet/);
    expect(readPins(statePaths().protectedList)).toEqual([]);
  });

  it("changes a policy value with validation: a bad value is refused and the file is untouched", async () => {
    writeStore(2, 0);
    writeConfig({ quota: { maxSessionCount: 100 } });
    const ui = scriptedUi();
    const { pi } = await start(ui);
    await pi.runtime.session.prompt("/session-retention policy quota.maxSessionCount -5");
    expect(ui.notes.at(-1)!.level).toBe("error");
    expect(ui.notes.at(-1)!.text).toMatch(
      /^Not saved — quota.maxSessionCount=-5:\n {2}quota.maxSessionCount: /,
    );
    expect(JSON.parse(readFileSync(statePaths().configFile, "utf8"))).toEqual({
      quota: { maxSessionCount: 100 },
    });

    // Through the dialogs: pick the setting, type the value.
    ui.answers.push(
      { select: (options) => options.find((o) => o.startsWith("mode = ")) },
      { input: "hard-block" },
    );
    await command(pi, "/session-retention policy");
    expect(JSON.parse(readFileSync(statePaths().configFile, "utf8"))).toEqual({
      quota: { maxSessionCount: 100 },
      mode: "hard-block",
    });
    expect(pi.looks.at(-1)!.mode).toBe("hard-block");
    expect(readAudit(statePaths().auditLog).entries[0]).toMatchObject({
      actor: "extension",
      action: "config",
    });
  });

  it("answers in text on stderr without a UI, prompts for nothing, moves nothing and blocks nothing", async () => {
    const files = writeStore(6, 3);
    writeConfig({ retention, mode: "hard-block", quota: { maxSessionCount: 4 } });
    const { written, spy } = captureStderr();
    try {
      pi = await startPi({ cwd: project(), sessionManager: currentSession() });
      await command(pi, "/session-retention");
      await pi.runtime.session.prompt("/session-retention clean");
      await pi.runtime.session.prompt("a scripted prompt");
    } finally {
      spy.mockRestore();
    }
    expect(written.join("")).toMatch(
      /^6 sessions, .*\nQuota: .* — critical \(over a limit\) · mode hard-block\n/,
    );
    expect(pi.passed).toEqual(["a scripted prompt"]);
    expect(written.join("")).toContain("The policy suggests 3 sessions");
    expect(written.join("")).toContain("Nothing was moved: cleaning asks for a typed DELETE");
    expect(files.every((f) => existsSync(f))).toBe(true);
  });
});

describe("active-session marker", () => {
  const markerOf = () => join(statePaths().activeMarkers, `${process.pid}.json`);

  it("is written on start, switched with the session, and removed on shutdown", async () => {
    writeStore(2, 0);
    const first = currentSession();
    const { pi } = await start(scriptedUi(), first);
    expect(JSON.parse(readFileSync(markerOf(), "utf8"))).toMatchObject({
      pid: process.pid,
      sessionFile: first.getSessionFile(),
    });
    const looked = pi.nextLook();
    await pi.runtime.newSession();
    await looked;
    const second = pi.runtime.session.sessionFile;
    expect(second).not.toBe(first.getSessionFile());
    expect(JSON.parse(readFileSync(markerOf(), "utf8")).sessionFile).toBe(second);
    await pi.runtime.dispose();
    expect(existsSync(markerOf())).toBe(false);
  });

  it("names the target session already at shutdown on /resume and /fork, and stays through /reload", async () => {
    const [old] = writeStore(1, 0);
    const first = currentSession();
    first.appendMessage(userMessage("fork me"));
    first.appendMessage(assistantMessage("ok"));
    // What the marker says when the old instance has shut down and the new one has not started.
    const atShutdown: string[] = [];
    const { pi } = await start(scriptedUi(), first, (api) =>
      api.on("session_shutdown", () => {
        atShutdown.push(
          existsSync(markerOf()) ? JSON.parse(readFileSync(markerOf(), "utf8")).sessionFile : "none",
        );
      }),
    );
    let looked = pi.nextLook();
    await pi.runtime.switchSession(old!);
    await looked;
    expect(atShutdown).toEqual([old]);
    expect(JSON.parse(readFileSync(markerOf(), "utf8")).sessionFile).toBe(old);

    looked = pi.nextLook();
    await pi.runtime.switchSession(first.getSessionFile()!);
    await looked;
    const entry = pi.runtime.session.sessionManager.getEntries().find((e) => e.type === "message")!;
    looked = pi.nextLook();
    await pi.runtime.fork(entry.id, { position: "at" });
    await looked;
    const forked = pi.runtime.session.sessionFile!;
    expect(forked).not.toBe(first.getSessionFile());
    expect(atShutdown.at(-1)).toBe(forked);
    expect(JSON.parse(readFileSync(markerOf(), "utf8")).sessionFile).toBe(forked);

    await pi.runtime.session.reload();
    expect(JSON.parse(readFileSync(markerOf(), "utf8")).sessionFile).toBe(forked);
  });

  it("keeps blocking across /new while the new session's first look is under way", async () => {
    writeStore(10, 0);
    writeConfig({ mode: "hard-block", quota: { maxSessionCount: 8 } });
    const { pi } = await start();
    await pi.runtime.newSession();
    await pi.runtime.session.prompt("typed right away"); // before the new instance's look is in
    expect(pi.passed).toEqual([]);
  });

  it("a stale marker (dead process) protects nothing: its session can be cleaned", async () => {
    const files = writeStore(6, 3);
    writeConfig({ retention });
    writeActiveMarker(statePaths().activeMarkers, {
      pid: 2 ** 22 + 12345, // above Linux's pid_max: never alive
      sessionFile: files[0]!,
      startedAt: new Date().toISOString(),
    });
    const ui = scriptedUi();
    const { pi } = await start(ui);
    expect(pi.looks[0]!.candidates.first.map((c) => c.path)).toContain(files[0]);
    ui.answers.push({ select: (options) => options[0] }, { input: "DELETE" });
    await command(pi, "/session-retention clean");
    expect(existsSync(files[0]!)).toBe(false);
  });
});

describe("auto-clean", () => {
  const stateFile = () => join(statePaths().dir, "auto-clean.json");
  /** Moves the last run — and the config file's last change — a day back, as a night passing would. */
  const nextDay = () => {
    const state = JSON.parse(readFileSync(stateFile(), "utf8"));
    for (const key of Object.keys(state)) state[key] = new Date(Date.parse(state[key]) - DAY).toISOString();
    writeFileSync(stateFile(), JSON.stringify(state));
    const config = statePaths().configFile;
    if (existsSync(config)) setModified(config, new Date(statSync(config).mtimeMs - DAY));
  };

  it("reports only on its first day, then moves at most its cap a day — never the current session", async () => {
    const files = writeStore(8, 0);
    // The current session is the largest, and nothing but its marker keeps it: no grace window,
    // no recent or last-in-namespace keeps, and a count quota that evicts the largest first.
    writeConfig({
      quota: { maxSessionCount: 3 },
      retention: {
        minKeepRecentCount: 0,
        keepLastPerNamespace: 0,
        eviction: "largest-first",
        autoClean: true,
        dryRun: false,
        autoCleanMaxDeletesPerRun: 2,
      },
      activity: { graceMinutes: 0 },
    });
    const current = currentSession();
    current.appendMessage(userMessage("live ".repeat(5000)));
    current.appendMessage(assistantMessage("yes"));
    const live = () => SessionManager.open(current.getSessionFile()!);

    const day1 = scriptedUi();
    await start(day1, current);
    expect(day1.notes.at(-1)!.text).toMatch(
      /^Auto-clean is on: from the next day it will move 2 sessions .* This first run only reports/,
    );
    expect(files.every((f) => existsSync(f))).toBe(true);
    await pi!.runtime.dispose();

    const again = scriptedUi();
    await start(again, live());
    expect(again.notes.filter((n) => n.text.includes("Auto-clean"))).toEqual([]); // once a day
    await pi!.runtime.dispose();

    nextDay();
    const day2 = scriptedUi();
    await start(day2, live());
    expect(day2.notes.at(-1)!.text).toMatch(
      /^Auto-clean moved 2 sessions \(.*\) to the trash \(7 are candidates\) — still on disk until emptied\. Undo with \/session-retention undo\./,
    );
    expect(files.filter((f) => !existsSync(f))).toHaveLength(2);
    expect(existsSync(current.getSessionFile()!)).toBe(true);
    // The log reads newest first.
    const audit = readAudit(statePaths().auditLog).entries.filter((e) => e.actor === "auto");
    expect(audit.map((e) => `${e.action}:${e.mode}:${e.result}`)).toEqual([
      "auto-clean:system-trash:ok",
      "auto-clean:dry-run:dry-run",
    ]);
    expect(audit.flatMap((e) => e.items.map((i) => i.path))).not.toContain(current.getSessionFile());

    // Without the marker, the live session would have been the first to go.
    await pi!.runtime.dispose();
    const plan = await import("../server/plan/plan-inputs.js").then(async ({ gatherPlanInputs, planFor }) => {
      const inputs = await gatherPlanInputs();
      return planFor({ ...inputs, config: inputs.config as never });
    });
    expect(plan.candidates[0]!.path).toBe(current.getSessionFile());
  });

  it("stays report-only while retention.dryRun is true, and is silent when off", async () => {
    const files = writeStore(6, 3);
    writeConfig({ retention: { ...retention, autoClean: true } }); // dryRun defaults to true
    const ui = scriptedUi();
    await start(ui);
    expect(ui.notes.at(-1)!.text).toMatch(/^Auto-clean \(dry run\): would move 3 sessions/);
    await pi!.runtime.dispose();
    nextDay();
    writeConfig({ retention });
    const off = scriptedUi();
    await start(off);
    expect(off.notes).toEqual([]);
    expect(files.every((f) => existsSync(f))).toBe(true);
  });

  it("a FIFO as its state file counts as no state (a report-only run), at once", async () => {
    writeStore(6, 3);
    writeConfig({ retention: { ...retention, autoClean: true } });
    mkdirSync(statePaths().dir, { recursive: true });
    const fifo = mkfifo(stateFile());
    const ui = scriptedUi();
    await neverBlockedBy(fifo, () => start(ui));
    expect(ui.notes.at(-1)!.text).toMatch(/^Auto-clean \(dry run\): would move 3 sessions/);
  });
});

describe("control characters in sessions", () => {
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

  it("are shown escaped in notices and dialogs, never raw", async () => {
    writeStore(3, 0);
    // Old sessions whose cwd, and whose file name, would clear pi's screen, reverse text, forge a line.
    const cwd = "/work/x\u001b[2J\u001b[H\r\u202eevil\nforged";
    const inCwd = writeSession(store(), cwd, 3).getSessionFile()!;
    const plain = writeSession(store(), project(), 3).getSessionFile()!;
    const named = join(namespaceDir(), basename(plain).replace("_", "_\u001b]0;title\u0007_"));
    renameSync(plain, named);
    for (const file of [inCwd, named]) setModified(file, new Date(Date.now() - 300 * DAY));
    writeConfig({ retention: { ...retention, keepLastPerNamespace: 0 } });
    const ui = scriptedUi();
    const { pi } = await start(ui);

    await command(pi, "/session-retention");
    const overview = ui.notes.at(-1)!.text;
    expect(overview).toContain(visible(piFolder(cwd)));
    expect(overview).toContain(visible(basename(named)));

    ui.answers.push({ select: (options) => options[0] }, { input: "DELETE" });
    await command(pi, "/session-retention clean");
    expect(ui.dialogs[0]!.options!.join("\n")).toContain(visible(cwd));
    expect(ui.dialogs[1]!.title).toContain(visible(piFolder(cwd)));
    expect(ui.notes.at(-1)!.text).toMatch(/^2 sessions \(.*\) moved to the trash/);
    expect(existsSync(inCwd) || existsSync(named)).toBe(false);

    await command(pi, "/session-retention undo");
    await pi.runtime.session.prompt(`/session-retention protect ${named}`);
    expect(ui.notes.at(-1)!.text).toBe(`Protected ${visible(named)}`);
    for (const shown of [
      ...ui.notes.map((n) => n.text),
      ...ui.dialogs.flatMap((d) => [d.title, ...(d.options ?? [])]),
    ])
      expect(shown).not.toMatch(RAW);
  });
});

describe("dashboard and completion", () => {
  it("starts the dashboard in the background, then points at the running one", async () => {
    writeStore(2, 0);
    const { written, spy } = captureStderr();
    try {
      // No UI: the dashboard is started with --no-open (no browser on a test machine).
      pi = await startPi({ cwd: project(), sessionManager: currentSession() });
      await pi.runtime.session.prompt("/session-retention dashboard");
      const url = /^Dashboard started: (http:\/\/127\.0\.0\.1:\d+\/#token=\S+)$/m.exec(written.join(""))?.[1];
      expect(url, written.join("")).toBeDefined();
      const [base, token] = url!.split("/#token=");
      const response = await fetch(`${base}/api/summary`, { headers: { Authorization: `Bearer ${token}` } });
      expect(response.status).toBe(200);
      expect((await response.json()).summary.sessionCount).toBe(2);

      await pi.runtime.session.prompt("/session-retention dashboard");
      expect(written.at(-1)).toBe(`The dashboard is running: ${url}\n`);
    } finally {
      spy.mockRestore();
      const running = runningInstance(statePaths().dir);
      if (running) process.kill(running.pid);
    }
  });

  it("completes the sub-commands", async () => {
    writeStore(1, 0);
    const { pi } = await start();
    const command = pi.runtime.session.extensionRunner.getCommand("session-retention")!;
    expect(await command.getArgumentCompletions!("pro")).toEqual([{ value: "protect", label: "protect" }]);
    expect(await command.getArgumentCompletions!("")).toHaveLength(7);
    expect(await command.getArgumentCompletions!("x")).toBeNull();
  });
});
