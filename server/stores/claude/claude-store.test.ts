// Claude Code's store end to end, against stores written by test-support/claude-store.ts from the
// formats: what a scan finds (every field, checked against the generator's own account of what it
// wrote), what a clean moves (a session's whole bundle and nothing else of `~/.claude`), and that a
// restore puts back every byte and every file's time.
import {
  appendFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigSchema } from "../../../shared/config.js";
import { evaluatePolicy } from "../../../shared/policy.js";
import type { SessionRecord } from "../../../shared/session-record.js";
import {
  CLAUDE_NOW,
  ClaudeStoreBuilder,
  type ClaudeStoreFacts,
  type ExpectedOrphan,
  type ExpectedSession,
  type Transcript,
  writeClaudeStore,
} from "../../../test-support/claude-store.js";
import { lenientConfig, writeConfigFile } from "../../../test-support/config-file.js";
import { engine, tripsOf } from "../../../test-support/round-trip.js";
import {
  fileTimes,
  insideAny,
  snapshotTree,
  treeChanges,
  without,
} from "../../../test-support/tree-snapshot.js";
import { runCli } from "../../cli/main.js";
import { listTrash, restore, softDelete } from "../../delete/deletion-engine.js";
import { gatherPlanInputs } from "../../plan/plan-inputs.js";
import { scanStores } from "../../scan/scanner.js";
import { MAX_LINES } from "../read-caps.js";

const DAY = 86_400_000;

const newHome = () => realpathSync(mkdtempSync(join(tmpdir(), "sr-claude-")));
const claudeStore = () => writeClaudeStore(newHome());
const { storesOf, selection, roundTrip } = tripsOf("claude");
const scan = (root: string) => scanStores({ stores: storesOf(root) });

/** A store of one session, built by `build` from its first line on, and what a scan must find in it. */
function oneSession(build: (t: Transcript) => void): ClaudeStoreFacts {
  const b = new ClaudeStoreBuilder(newHome());
  const t = b.session("/home/dev/shop", 10);
  build(t);
  b.save(t);
  return b.finish();
}

/** A record in the generator's terms: the fields it has an expectation for. */
const asSession = (r: SessionRecord) => ({
  id: r.id,
  kind: r.store.kind,
  root: r.store.root,
  path: r.path,
  namespace: r.namespace,
  createdAt: r.createdAt,
  modifiedAt: r.modifiedAt,
  lastUsedAt: r.lastUsedAt,
  messageCount: r.messageCount,
  messageCounts: r.messageCounts,
  name: r.name,
  lastPrompt: r.lastPrompt,
  archivedAt: r.archivedAt,
  warnings: r.warnings.map((w) => w.code).sort(),
  bundle: [...(r.bundle ?? [])].sort(),
  sizeBytes: r.sizeBytes,
  parentSession: r.parentSession,
  neededBy: [...(r.neededBy ?? [])].sort(),
});

/** What the generator expects of a session, in the same terms. */
const expectedSession = ({ uuid: _uuid, ...s }: ExpectedSession, root: string) => ({
  ...s,
  kind: "claude",
  root,
});

const asOrphan = (r: SessionRecord) => ({
  id: r.id,
  path: r.path,
  folder: r.folder === true,
  bundle: r.bundle ?? [],
  sizeBytes: r.sizeBytes,
  modifiedAt: r.modifiedAt,
});

const expectedOrphan = ({ uuid: _uuid, ...orphan }: ExpectedOrphan) => orphan;

const byId = <T extends { id: string }>(items: readonly T[]) =>
  [...items].sort((a, b) => (a.id < b.id ? -1 : 1));

/** The session with the most side folders (every kind), and one of its subagent transcripts. */
function fullBundle(store: ClaudeStoreFacts) {
  const full = store.sessions.reduce((a, b) => (b.bundle.length > a.bundle.length ? b : a));
  const folder = full.bundle.find((part) => part.endsWith(`/${full.uuid}`) && part.includes("/projects/"))!;
  const agent = readdirSync(join(folder, "subagents")).find((n) => /^agent-.*\.jsonl$/.test(n))!;
  return { full, subagent: join(folder, "subagents", agent) };
}

/**
 * Two sessions no fork reads from and no live process uses, so that only the engine decides their
 * fate: the one with every kind of side folder, and the one with legacy agent-*.jsonl files.
 */
function twoBundles(store: ClaudeStoreFacts) {
  const legacy = store.sessions.find((s) => s.bundle.some((part) => part.includes("/agent-")))!;
  return [fullBundle(store).full, legacy];
}

describe("scan of a Claude Code store", () => {
  it("finds every session with the facts the generator wrote: id, namespace, times, counts, name, bundle, size, forks", async () => {
    const store = claudeStore();
    // What the rest of this test relies on being in the store.
    const folders = store.sessions.map((s) => s.path.split("/").at(-2));
    expect(new Set(folders).size).toBeLessThan(folders.length); // two cwds share one folder
    expect(store.sessions.some((s) => s.warnings.includes("line-too-long"))).toBe(true);
    expect(store.sessions.some((s) => s.warnings.includes("namespace-from-folder"))).toBe(true);
    expect(store.sessions.filter((s) => s.parentSession).length).toBe(3);
    expect(Math.max(...store.sessions.map((s) => s.bundle.length))).toBe(8);
    // And what 2.1.332 writes: a relocated session, titles from a folder and a last prompt, an archive.
    expect(
      store.sessions.some((s) => s.namespace === "/home/dev/app" && s.path.includes("/-home-dev-shop/")),
    ).toBe(false);
    expect(store.sessions.filter((s) => s.lastPrompt !== undefined).length).toBeGreaterThanOrEqual(3);
    expect(store.sessions.filter((s) => s.archivedAt !== undefined).length).toBe(1);

    const { sessions } = await scan(store.root);
    const found = sessions.filter((r) => r.id.startsWith("claude:"));
    expect(byId(found).map(asSession)).toEqual(
      byId(store.sessions).map((s) => expectedSession(s, store.root)),
    );
  });

  it("lists side files whose transcript is gone as one item per session, the project folder first", async () => {
    const store = claudeStore();
    expect(store.orphans.map((o) => [o.folder, o.bundle.length])).toEqual(
      expect.arrayContaining([
        [true, 3], // project folder, file-history, session-env, todos
        [false, 1], // a debug log and a todo list
        [true, 0], // an empty session-env folder
      ]),
    );
    const { sessions } = await scan(store.root);
    const orphans = sessions.filter((r) => r.id.startsWith("claude-orphan:"));
    expect(byId(orphans).map(asOrphan)).toEqual(byId(store.orphans).map(expectedOrphan));
    for (const orphan of orphans)
      expect(orphan).toMatchObject({ store: { kind: "claude" }, messageCount: 0 });
  });

  it("reports what in projects/ is not a session, and never mentions Claude's own files", async () => {
    const store = claudeStore();
    const { sessions, problems } = await scan(store.root);
    const reported = problems.map(({ code, path, bytes }) => ({
      code,
      path,
      ...(bytes !== undefined ? { bytes } : {}),
    }));
    const byPath = (a: { path: string }, b: { path: string }) => (a.path < b.path ? -1 : 1);
    expect(reported.sort(byPath)).toEqual([...store.problems].sort(byPath));
    const strays = new Set(store.problems.map((p) => p.path));
    const own = store.neverMoved.filter((path) => !strays.has(path));
    const named = sessions.flatMap((r) => [r.path, ...(r.bundle ?? [])]);
    expect(named.filter(insideAny(own))).toEqual([]);
    expect(own.filter((path) => named.some((part) => path.startsWith(`${part}/`)))).toEqual([]);
  });

  it("the CLI's scan --json lists the same sessions and sizes", async () => {
    const store = claudeStore();
    const out: string[] = [];
    const status = await runCli(["scan", "--store", `claude:${store.root}`, "--json"], {
      stdout: (t) => out.push(t),
      stderr: () => {},
    });
    expect(status).toBe(0);
    const report = JSON.parse(out.join("\n")) as {
      stores: Array<{ kind: string; root: string }>;
      sessions: Array<{ id: string; sizeBytes: number }>;
    };
    expect(report.stores).toEqual([{ kind: "claude", root: store.root }]);
    const listed = report.sessions.map(({ id, sizeBytes }) => ({ id, sizeBytes }));
    expect(byId(listed)).toEqual(
      byId(
        [...store.sessions, ...store.orphans, ...store.setAside].map(({ id, sizeBytes }) => ({
          id,
          sizeBytes,
        })),
      ),
    );
  });

  it("the generator is deterministic: one seed, the same files, bytes and times in any folder", () => {
    const relative = (home: string, entries: ReadonlyMap<string, string>) =>
      [...entries].map(([path, what]) => [path.slice(home.length), what.replaceAll(home, "~")]);
    const [a, b] = [newHome(), newHome()];
    writeClaudeStore(a, { livePid: 4242 });
    writeClaudeStore(b, { livePid: 4242 });
    expect(relative(b, snapshotTree([b]))).toEqual(relative(a, snapshotTree([a])));
    expect(relative(b, fileTimes(b))).toEqual(relative(a, fileTimes(a)));
  });

  // Guards a defect fixed in server/stores/claude/transcript.ts, takeLongLine: a line over the parse
  // cap is typed by the first `"type":"…"` in its head, but an assistant line carries its message —
  // whose own `"type":"message"` — before its top-level type. A large Write (a whole file in the
  // tool call) is counted as "other", not as an assistant message.
  it("a line too long to parse is still counted by its role: a large Write is an assistant message", async () => {
    const store = oneSession((t) =>
      t.user("add the fixture").writeFile("/home/dev/shop/big.json", "x".repeat(300 * 1024)),
    );
    const { sessions } = await scan(store.root);
    expect(sessions[0]!.messageCounts).toEqual(store.sessions[0]!.messageCounts);
  });

  // Guards a defect fixed in transcript.ts, takeLongLine: of a line too long to parse only its type
  // and a timestamp in its first 4 KiB are read. Claude writes `cwd` near the start but `timestamp`
  // at the end, so a session whose only message is a pasted screenshot gets no namespace (the lossy
  // folder name) and no times (its mtime); a session ending with one loses its last use.
  it("a line too long to parse still gives its cwd and its timestamp", async () => {
    const store = oneSession((t) => t.snapshot(2).pastedImage(300 * 1024, "what is wrong here?"));
    const { sessions } = await scan(store.root);
    const [want] = store.sessions;
    expect(sessions[0]).toMatchObject({
      namespace: want!.namespace,
      createdAt: want!.createdAt,
      lastUsedAt: want!.lastUsedAt,
    });
  });

  it("a transcript of more lines than the cap is read to the cap: what came before counted, a warning, never older than its file", async () => {
    const store = oneSession((t) => t.user("first").assistant("answer"));
    const [want] = store.sessions;
    const text = readFileSync(want!.path, "utf8");
    const lines = text.split("\n").length - 1;
    const later = text.split("\n")[lines - 1]!; // a message line no read may reach: counted twice else
    appendFileSync(want!.path, `${"\n".repeat(MAX_LINES - lines)}${later}\n`);
    const [record] = (await scan(store.root)).sessions;
    expect(record!.messageCounts).toEqual(want!.messageCounts);
    expect(record!.warnings).toEqual([
      {
        code: "read-capped",
        message: expect.stringMatching(
          /^reading stopped at the cap of 2,000,000 lines a file; the 2,000,000 lines \(/,
        ),
      },
    ]);
    expect(record!.lastUsedAt).toBe(record!.modifiedAt);
    expect(record!.lastUsedAt > want!.lastUsedAt).toBe(true);
  });

  // Guards a defect fixed in claude-store.ts, scanClaudeRoot: the parts found in projects/ are put
  // before the side files one by one, which reverses their order; a session folder whose name sorts
  // before `agent-…` (any uuid starting 0-9 or a) ends up after a legacy agent file, which becomes
  // the orphan's path instead of the folder.
  it("an orphan with a session folder and a legacy agent-*.jsonl is named by the folder", async () => {
    const b = new ClaudeStoreBuilder(newHome());
    const uuid = "0f3c2a1e-5b6d-4e7f-8a9b-0c1d2e3f4a5b";
    b.sessionFolder(uuid, "-home-dev-old", "/home/dev/old", CLAUDE_NOW - 200 * DAY);
    b.legacyAgent(uuid, "-home-dev-old", "/home/dev/old", CLAUDE_NOW - 200 * DAY);
    const store = b.finish();
    const { sessions } = await scan(store.root);
    expect(sessions.map(asOrphan)).toEqual(store.orphans.map(expectedOrphan));
  });
});

describe("soft delete and restore of Claude sessions", () => {
  it("a dry run counts each session with its whole bundle and moves nothing", async () => {
    const store = claudeStore();
    const before = snapshotTree([store.home]);
    const chosen = [...twoBundles(store), ...store.orphans];
    lenientConfig();
    const result = await softDelete({ ...(await selection(store.root, chosen)), dryRun: true }, engine);
    expect(byId(result.moved).map(({ id, bytes }) => ({ id, bytes }))).toEqual(
      byId(chosen).map(({ id, sizeBytes }) => ({ id, bytes: sizeBytes })),
    );
    expect(treeChanges(before, snapshotTree([store.home]))).toEqual([]);
  });

  // Guards a defect fixed in server/delete/soft-delete.ts, atSessionPlace: a session may only be
  // moved from directly in its store root (or, for pi, a `--<cwd>--` folder of it). A Claude
  // transcript lives in projects/<folder>/ and an orphan in projects/<folder>/ or a side folder, so
  // every Claude move is skipped: "not where its store keeps sessions any more (a folder on its way
  // became a symlink?)".
  for (const target of ["quarantine", "trash"] as const)
    it(`a session's whole bundle leaves and comes back byte-identical, times included (${target})`, async () => {
      const store = claudeStore();
      lenientConfig(target);
      await roundTrip(store, twoBundles(store));
    });

  // Guards the atSessionPlace fix, as above.
  it("an orphaned bundle is one item: it leaves whole and comes back whole", async () => {
    const store = claudeStore();
    lenientConfig();
    const orphan = store.orphans.find((o) => o.bundle.length === 3)!;
    await roundTrip(store, [orphan]);
  });

  // Guards the atSessionPlace fix, as above (the CLI's clean moved nothing and exited 1).
  it("cleaning every session of the store (clean --yes) leaves Claude's own files byte-identical", async () => {
    const store = claudeStore();
    const all = [...store.sessions, ...store.orphans, ...store.setAside.map((s) => ({ ...s, bundle: [] }))];
    const moved = insideAny(all.flatMap((s) => [s.path, ...s.bundle]));
    const before = snapshotTree([store.home]);
    const config = join(newHome(), "config.json");
    writeConfigFile(
      {
        retention: { maxAgeDays: 1, minKeepRecentCount: 0, keepLastPerNamespace: 0, allowEmptyStore: true },
        deletion: { target: "quarantine" },
      },
      config,
    );
    const out: string[] = [];
    const io = { stdout: (t: string) => out.push(t), stderr: (t: string) => out.push(t) };
    const status = await runCli(
      ["clean", "--yes", "--store", `claude:${store.root}`, "--config", config],
      io,
    );
    expect(status, out.join("\n")).toBe(0);
    // What a fork reads from or a live Claude process uses may stay (see the tests below); not the rest.
    const mayStay = (s: (typeof all)[number]) =>
      ("uuid" in s && s.uuid === store.registry.live.sessionId) || ("neededBy" in s && s.neededBy.length > 0);
    const left = all.filter((s) => !mayStay(s) && existsSync(s.path));
    expect(left.map((s) => s.id)).toEqual([]);
    expect(treeChanges(without(before, moved), snapshotTree([store.home], moved))).toEqual([]);
    for (const path of store.neverMoved)
      expect(lstatSync(path, { throwIfNoEntry: false }), path).toBeDefined();
  });

  // Guards a defect fixed in soft-delete.ts: "changed since preview" compares the transcript's
  // fingerprint only; the rest of the bundle moves as sidecars unchecked, so a subagent transcript
  // that grew after the preview is moved (and counted) without a word.
  it("a bundle written to after the preview is skipped: changed since preview", async () => {
    const store = claudeStore();
    lenientConfig();
    const { full, subagent } = fullBundle(store);
    const preview = await selection(store.root, [full]);
    const { mtime } = lstatSync(subagent);
    appendFileSync(subagent, `${JSON.stringify({ type: "assistant", isSidechain: true })}\n`);
    utimesSync(subagent, mtime, mtime); // the same time: only its size tells
    const result = await softDelete(preview, engine);
    expect(result.skipped.map((s) => s.reason)).toEqual(["changed since preview"]);
    expect(existsSync(full.path) && existsSync(subagent)).toBe(true);
  });

  // Guards a defect fixed in claude-store.ts modifiedAt, the policy's grace window: a session is
  // "active" by its transcript's mtime alone, while Claude may be writing only its side files — a
  // subagent at work, or a transcript that lags (Claude Code issue #80561).
  it("a session whose subagent wrote within the grace window is in use", async () => {
    const store = claudeStore();
    lenientConfig();
    const { full, subagent } = fullBundle(store);
    appendFileSync(subagent, `${JSON.stringify({ type: "assistant", isSidechain: true })}\n`);
    const result = await softDelete(await selection(store.root, [full]), engine);
    expect(result.skipped.map((s) => s.reason)).toEqual([expect.stringMatching(/^active/)]);
    expect(existsSync(full.path)).toBe(true);
  });

  // Guards a defect fixed in trashed-copy.ts moveSidecars: a restore whose side folder exists again
  // (Claude made a new file-history/<uuid>/) reports the session restored, and leaves that part in
  // the trash with the entry marked "restored": nothing lists it any more, nothing can restore or
  // purge it.
  //
  it("a restored entry leaves none of its parts in the trash unsaid", async () => {
    const store = claudeStore();
    lenientConfig();
    const { full } = fullBundle(store);
    const moved = await softDelete(await selection(store.root, [full]), engine);
    expect(moved.moved.map((m) => m.id)).toEqual([full.id]);
    const history = full.bundle.find((part) => part.includes("/file-history/"))!;
    mkdirSync(history);
    writeFileSync(join(history, "0123456789abcdef@v1"), "written by Claude since");
    // By the operation: every generated store has the same ids, so other tests' entries name them too.
    const back = await restore([moved.operationId!], engine);
    const entry = listTrash(engine).entries.find((e) => e.entryId.startsWith(`${moved.operationId}:`))!;
    const stranded = entry.sidecars.filter((s) => existsSync(s.to)).map((s) => s.from);
    if (entry.state === "restored") expect(stranded).toEqual([]);
    else expect(back.skipped).toHaveLength(1);
  });
});

describe("sessions another depends on or a live process uses", () => {
  const policy = ConfigSchema.parse({
    retention: { maxAgeDays: 7, minKeepRecentCount: 0, keepLastPerNamespace: 0, allowEmptyStore: true },
  });

  // Guards a defect fixed in shared/policy.ts, exemptions: `neededBy` is set by the scan but read by
  // nothing — no keep reason for it — so a parent whose fork reads its history from its file is a
  // candidate like any other session, and the engine would move it.
  it("a fork's parent is kept while the fork exists, and is a candidate once it is gone", async () => {
    const store = claudeStore();
    const forks = store.sessions.filter((s) => s.parentSession !== undefined);
    const parents = store.sessions.filter((s) => s.neededBy.length > 0);
    const ids = (items: ReadonlyArray<{ id: string }>) => items.map((item) => item.id).sort();
    const { sessions } = await scan(store.root);
    const plan = evaluatePolicy({ sessions, policy, now: new Date() });
    expect(ids(plan.candidates)).toEqual(expect.arrayContaining(ids(forks)));
    expect(plan.candidates.filter((c) => parents.some((p) => p.id === c.id))).toEqual([]);

    lenientConfig();
    const result = await softDelete(await selection(store.root, parents), engine);
    expect(result.skipped.map((s) => s.reason)).toEqual(parents.map(() => expect.stringMatching(/fork/)));
    expect(parents.filter((p) => !existsSync(p.path))).toEqual([]);

    for (const fork of forks) rmSync(fork.path);
    const after = await scan(store.root);
    const replan = evaluatePolicy({ sessions: after.sessions, policy, now: new Date() });
    expect(ids(replan.candidates)).toEqual(expect.arrayContaining(ids(parents)));
  });

  // Guards what was missing (server/state/active-sessions.ts read pi's markers and /proc only):
  // Claude's live-process registry `sessions/<pid>.json` is not read, so the session a running
  // `claude` writes to is protected by the grace window alone — and Claude writes its transcript
  // only now and then (in batches, lazily, sometimes not until exit).
  it("a session a live claude process names in sessions/<pid>.json is in use; a dead pid's entry is not", async () => {
    const store = claudeStore();
    const inputs = await gatherPlanInputs({
      flagStores: [{ kind: "claude", root: store.root }],
      cache: false,
    });
    expect(inputs.activeIds.has(`claude:${store.registry.live.sessionId}`)).toBe(true);
    expect(inputs.activeIds.has(`claude:${store.registry.dead.sessionId}`)).toBe(false);
  });

  // Guards the same, and the orphan rule in claude-store.ts: Claude creates the transcript only
  // with the first message (Claude Code issue #70632), so a running session can be side
  // files alone. Named by a live registry entry, they are a session in use, not an orphaned bundle.
  it("side files of a live session whose transcript is not written yet are in use", async () => {
    const b = new ClaudeStoreBuilder(newHome());
    const uuid = "7d3c2a1e-5b6d-4e7f-8a9b-0c1d2e3f4a5b";
    b.sessionFolder(uuid, "-home-dev-shop", "/home/dev/shop", CLAUDE_NOW - 40 * DAY);
    b.registry(process.pid, uuid, CLAUDE_NOW - 40 * DAY);
    const store = b.finish();
    const inputs = await gatherPlanInputs({
      flagStores: [{ kind: "claude", root: store.root }],
      cache: false,
    });
    expect(inputs.activeIds.has(`claude-orphan:${uuid}`)).toBe(true);
  });
});

// Where Claude Code's behaviour (its CHANGELOG and issue threads, checked 2026-11; docs/stores.md's
// "Claude Code" section says what is verified and what inferred) says more than the model the
// adapter was first written to: each was a failing test until the adapter followed it.
describe("what the facts file adds to the model", () => {
  // the latest custom-title wins, next the latest ai-title, then a summary (legacy). The adapter
  // takes whichever of summary and custom-title comes last, and ignores ai-title.
  it("the name is the latest custom-title, else the latest ai-title, else a summary", async () => {
    const renamed = oneSession((t) => t.customTitle("Mine").conversation(1).summary("Claude's summary"));
    const titled = oneSession((t) =>
      t.summary("Old summary").conversation(1).aiTitle("Fix the checkout button"),
    );
    expect((await scan(renamed.root)).sessions[0]?.name).toBe("Mine");
    expect((await scan(titled.root)).sessions[0]?.name).toBe("Fix the checkout button");
  });

  // the pointer a fork reads its history through is a `fork-context-ref` line, whose parent
  // field is `parentSessionId` in some readers and `forkedSessionId` in others ("read both
  // variants"). The adapter knows the first only.
  it("a fork-context-ref naming its parent as forkedSessionId pins the parent", async () => {
    const b = new ClaudeStoreBuilder(newHome());
    const parent = b.session("/home/dev/shop", 30).conversation(2);
    b.save(parent);
    const fork = b.session("/home/dev/shop", 20).forkPointer(parent.session.id, "forkedSessionId");
    b.save(fork.conversation(1));
    const store = b.finish();
    const { sessions } = await scan(store.root);
    expect(byId(sessions).map(asSession)).toEqual(
      byId(store.sessions).map((s) => expectedSession(s, store.root)),
    );
  });

  // files attached to a session are kept per session in uploads/<uuid>/ (and swept with it);
  // the adapter leaves them behind when the session goes.
  it("a session's uploads/<uuid>/ is part of its bundle", async () => {
    const b = new ClaudeStoreBuilder(newHome());
    const t = b.session("/home/dev/shop", 30).conversation(1);
    b.save(t);
    b.uploads(t.session.id, CLAUDE_NOW - 30 * DAY);
    const store = b.finish();
    const { sessions } = await scan(store.root);
    expect(sessions.map(asSession)).toEqual(store.sessions.map((s) => expectedSession(s, store.root)));
  });

  // besides memory/ and .session-aliases, Claude reserves sessions-index.json (legacy),
  // bridge-pointer.json, tiny_memory/, bagel and cloud-snapshots/ in a project folder. The adapter
  // reports each as "not a session", so a plain Claude store looks like one holding strays.
  it("Claude's reserved project entries are neither sessions nor problems", async () => {
    const b = new ClaudeStoreBuilder(newHome());
    const t = b.session("/home/dev/shop", 30).conversation(1);
    b.save(t);
    const project = join(b.root, "projects", "-home-dev-shop");
    b.keep(join(project, "sessions-index.json"), JSON.stringify({ version: 1, entries: [] }));
    b.keep(join(project, "bridge-pointer.json"), JSON.stringify({ sessionId: t.session.id }));
    b.keep(join(project, "tiny_memory", "notes.md"), "- prefers pnpm\n");
    b.keep(join(project, "cloud-snapshots"));
    const { sessions, problems } = await scan(b.finish().root);
    expect(sessions.map((r) => r.id)).toEqual([`claude:${t.session.id}`]);
    expect(problems).toEqual([]);
  });

  // Inferred: after `--continue` Claude appends to the old file under a new session id,
  // and that id's side files (its /rewind backups) belong to the transcript being written, not to
  // a transcript that is gone.
  it("side files named by a later session id inside a transcript (after --continue) are not an orphan", async () => {
    const b = new ClaudeStoreBuilder(newHome());
    const continued = "5e4d3c2b-1a09-4f8e-9d7c-6b5a49382716";
    const t = b.session("/home/dev/shop", 30).conversation(2).from({ sessionId: continued }).conversation(1);
    b.save(t);
    const history = b.fileHistory(continued, CLAUDE_NOW - 29 * DAY);
    const { sessions } = await scan(b.finish().root);
    expect(sessions.map((r) => r.id)).toEqual([`claude:${t.session.id}`]);
    expect(sessions[0]!.bundle).toEqual([history]);
  });
});
