// A session's name, cwd and file name can hold control characters. Through runCli, no command
// prints one raw (it could clear the screen, rewrite the lines confirmed with DELETE, or forge a
// line), and --json still carries the exact strings.
import { mkdirSync, mkdtempSync, realpathSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { writeConfigFile } from "../../test-support/config-file.js";
import { oneLine } from "../../shared/session-title.js";
import { describe, expect, it } from "vitest";
import { visible } from "../../shared/visible-text.js";
import { piFolder, setModified, writeSession } from "../../test-support/pi-store.js";
import { statePaths } from "../state/state-dir.js";
import { runCli } from "./main.js";

/** Clear the screen and home the cursor, then a line feed that would start a line of its own. */
const NAME = "evil\u001b[2J\u001b[H\nDELETE\u009b31m\u007f";
/** A carriage return, a right-to-left override, and a line feed again. */
const CWD = "/work/safe\rEVIL \u202eexe.txt\nDELETE";
const TAG = "tag\u001b]0;title\u0007";
/** Any control character a terminal or a bidi renderer acts on, line feeds (between lines) aside. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

async function run(...argv: string[]) {
  const out: string[] = [];
  const questions: string[] = [];
  const status = await runCli(argv, {
    stdout: (t) => out.push(t),
    stderr: (t) => out.push(t),
    ask: async (q) => (questions.push(q), "no"),
  });
  return { status, output: [...out, ...questions].join("\n") };
}

/** No raw control character, and no line forged by the line feed inside the name. */
function expectSafe(output: string) {
  expect(output).not.toMatch(RAW);
  expect(output).not.toMatch(/^\s*DELETE/m);
}

/**
 * Three old sessions that carry the characters — a name (and a tag), a cwd, a file name — and a
 * recent plain one the policy keeps.
 */
function store() {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "sr-visible-")));
  const named = writeSession(root, "/work/plain", 2, { name: NAME });
  const metaDir = statePaths().sessionsMeta;
  mkdirSync(metaDir, { recursive: true });
  const id = named.getSessionId();
  writeFileSync(join(metaDir, `${id}.meta.json`), JSON.stringify({ sessionId: id, tags: [TAG] }));
  const inCwd = writeSession(root, CWD, 3).getSessionFile()!;
  const plain = writeSession(root, "/work/plain", 4).getSessionFile()!;
  const fileName = join(dirname(plain), basename(plain).replace("_", "_\u001b[31mred\u001b[0m_"));
  renameSync(plain, fileName);
  const kept = writeSession(root, "/work/plain", 1).getSessionFile()!;
  [named.getSessionFile()!, inCwd, fileName].forEach((path, i) =>
    setModified(path, new Date(Date.UTC(2025, 0, 1 + i))),
  );
  setModified(kept, new Date(Date.UTC(2025, 1, 1)));
  const config = writeConfigFile(
    {
      retention: { maxAgeDays: 30, minKeepRecentCount: 1, keepLastPerNamespace: 0 },
      deletion: { target: "quarantine" },
    },
    join(mkdtempSync(join(tmpdir(), "sr-cfg-")), "session-retention.json"),
  );
  return { id, inCwd, fileName, args: ["--root", root, "--config", config] };
}

describe("control characters from sessions", () => {
  it("scan shows them escaped, and --json carries them exactly", async () => {
    const s = store();
    const table = await run("scan", ...s.args);
    expect(table.status).toBe(0);
    expectSafe(table.output);
    for (const text of [CWD, TAG]) expect(table.output).toContain(visible(text));
    // A name is a title: one line, its control characters made spaces (as pi's picker shows it).
    expect(table.output).toContain(`“${oneLine(NAME)}”`);

    const json = await run("scan", "--json", ...s.args);
    expectSafe(json.output);
    const report = JSON.parse(json.output) as {
      sessions: Array<{ id: string; name?: string; tags?: string[]; namespace: string; path: string }>;
    };
    expect(report.sessions.find((r) => r.id === s.id)).toMatchObject({ name: NAME, tags: [TAG] });
    expect(report.sessions.map((r) => r.namespace)).toContain(CWD);
    expect(report.sessions.map((r) => r.path)).toEqual(expect.arrayContaining([s.inCwd, s.fileName]));
  });

  it("plan shows them escaped, and --json carries them exactly", async () => {
    const s = store();
    const plan = await run("plan", "--list-kept", ...s.args);
    expect(plan.status).toBe(0);
    expectSafe(plan.output);
    expect(plan.output).toContain(visible(piFolder(CWD)));
    expect(plan.output).toContain(visible(basename(s.fileName)));

    const json = await run("plan", "--json", ...s.args);
    expectSafe(json.output);
    const { candidates } = JSON.parse(json.output) as {
      candidates: Array<{ path: string; namespace: string }>;
    };
    expect(candidates.map((c) => c.path)).toEqual(expect.arrayContaining([s.inCwd, s.fileName]));
    expect(candidates.map((c) => c.namespace)).toContain(CWD);
  });

  it("clean's preview and its DELETE prompt show them escaped, and so do the result and the trash", async () => {
    const s = store();
    const preview = await run("clean", ...s.args); // answers "no" at the prompt
    expect(preview.status).toBe(1);
    expect(preview.output).toContain("Type DELETE to move 3 sessions");
    expectSafe(preview.output);
    expect(preview.output).toContain(visible(piFolder(CWD)));
    expect(preview.output).toContain(visible(basename(s.fileName)));

    const cleaned = await run("clean", "--yes", ...s.args);
    expect(cleaned.status).toBe(0);
    expect(cleaned.output).toMatch(/^\d+ sessions, .*: moved to the trash/m); // earlier tests' index files are orphans by now
    expectSafe(cleaned.output);

    const trash = await run("trash", "list");
    expectSafe(trash.output);
    expect(trash.output).toContain(visible(basename(s.fileName)));
    const json = await run("trash", "list", "--json");
    expectSafe(json.output);
    const { entries } = JSON.parse(json.output) as { entries: Array<{ originalPath: string }> };
    expect(entries.map((e) => e.originalPath)).toEqual(expect.arrayContaining([s.inCwd, s.fileName]));

    expectSafe((await run("audit")).output);
    expectSafe((await run("trash", "restore", s.fileName)).output); // names nothing: its error quotes it
  });
});
