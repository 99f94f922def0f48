// What Claude Code 2.1.332 writes that the adapter was not built from (2.1.240), read from its shipped
// code: every file it keeps per session is part of the session (sized, moved, restored — its temp
// folder outside `~/.claude` too, and only from a temp root that is ours), its reserved names are
// never sessions, a session `/cd` moved is one session in its new project, a rewritten transcript is
// read again whole, archived sessions say so, titles are Claude's, and a `--fork-session` copy
// names its parent. Each was a failing test before the adapter followed it.
import { randomUUID } from "node:crypto";
import {
  appendFileSync,
  chmodSync,
  chownSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ConfigSchema } from "../../../shared/config.js";
import { SessionFilterSchema, sessionMatcher } from "../../../shared/session-filter.js";
import { sessionTitle } from "../../../shared/session-title.js";
import {
  CLAUDE_NOW,
  ClaudeStoreBuilder,
  claudeFolderName,
  writeClaudeStore,
} from "../../../test-support/claude-store.js";
import { engine, tripsOf } from "../../../test-support/round-trip.js";
import { lenientConfig } from "../../../test-support/config-file.js";
import { normalized } from "../../../test-support/report-compare.js";
import { snapshotTree, treeChanges } from "../../../test-support/tree-snapshot.js";
import { runCli } from "../../cli/main.js";
import { restore, softDelete } from "../../delete/deletion-engine.js";
import { gatherPlanInputs } from "../../plan/plan-inputs.js";
import { idsMatchingFilter } from "../../plan/selection.js";
import { scanStores } from "../../scan/scanner.js";
import { rescanClaudeChanged, scanClaudeRoot } from "./claude-store.js";

const DAY = 86_400_000;
const SHOP = "/home/dev/shop";
const APP = "/home/dev/app";
const newHome = () => realpathSync(mkdtempSync(join(tmpdir(), "sr-claude-332-")));
const { storesOf: claudeStores, selection, roundTrip } = tripsOf("claude");
const scan = (root: string) => scanStores({ stores: claudeStores(root) });

// A test that gives sessions temp folders names the temp folder they are in, as Claude's own
// `CLAUDE_CODE_TMPDIR` does; the scan and the engine read it from the environment.
afterEach(() => {
  delete process.env.CLAUDE_CODE_TMPDIR;
});

describe("every file Claude Code keeps per session is part of the session", () => {
  it("the session's folder, its siblings and its background job are counted, leave with it and come back byte-identical", async () => {
    const b = new ClaudeStoreBuilder(newHome());
    const folder = claudeFolderName(APP);
    const t = b.session(APP, 12, { version: "2.1.332" }).user("write the release notes").conversation(1);
    b.save(t);
    const id = t.session.id;
    b.sessionFolder(id, folder, APP, CLAUDE_NOW - 12 * DAY);
    const state = b.sessionState(id, folder, CLAUDE_NOW - 12 * DAY, { title: "Release notes" });
    b.siblings(id, folder, CLAUDE_NOW - 12 * DAY);
    const job = b.job(id, CLAUDE_NOW - 12 * DAY);
    // Claude's own in jobs/: never a part.
    b.keep(join(b.root, "jobs", "pins.json"), JSON.stringify({ pinned: [] }));
    const store = b.finish();
    const [want] = store.sessions;
    const siblings = ["ccr-tip.json", "precompact.json", "desktop-released.json"].map((ext) =>
      join(b.root, "projects", folder, `${id}.${ext}`),
    );
    expect(want!.bundle).toEqual(expect.arrayContaining([state, job, ...siblings]));

    const { sessions, problems } = await scan(store.root);
    expect(problems).toEqual([]);
    expect(
      sessions.map((r) => ({ id: r.id, bundle: [...(r.bundle ?? [])].sort(), sizeBytes: r.sizeBytes })),
    ).toEqual([{ id: want!.id, bundle: want!.bundle, sizeBytes: want!.sizeBytes }]);
    lenientConfig();
    await roundTrip(store, [want!]);
  });

  it("its temp folder outside ~/.claude is counted, leaves with it and comes back — from a temp root that is ours", async () => {
    const b = new ClaudeStoreBuilder(newHome());
    const folder = claudeFolderName(SHOP);
    const t = b.session(SHOP, 20).conversation(2);
    b.save(t);
    const temp = b.tempFolder(t.session.id, folder, CLAUDE_NOW - 20 * DAY);
    const store = b.finish();
    const [want] = store.sessions;
    expect(want!.bundle).toEqual([temp]);
    process.env.CLAUDE_CODE_TMPDIR = store.tempDir;

    const { sessions } = await scan(store.root);
    expect(sessions.map((r) => ({ bundle: r.bundle, sizeBytes: r.sizeBytes }))).toEqual([
      { bundle: [temp], sizeBytes: want!.sizeBytes },
    ]);
    lenientConfig();
    // The home holds the store and the temp folder: nothing else in either changes.
    await roundTrip(store, [want!]);
  });

  it("a temp root another user could have made, or a link, holds no part of a session", async () => {
    const b = new ClaudeStoreBuilder(newHome());
    const t = b.session(SHOP, 20).conversation(2);
    b.save(t);
    const temp = b.tempFolder(t.session.id, claudeFolderName(SHOP), CLAUDE_NOW - 20 * DAY);
    const store = b.finish();
    const tempRoot = dirname(dirname(temp));
    process.env.CLAUDE_CODE_TMPDIR = store.tempDir;
    const transcriptOnly = lstatSync(store.sessions[0]!.path).size;
    const bundleOf = () => scanClaudeRoot(store.root).records.map((r) => [r.bundle ?? [], r.sizeBytes]);
    expect(bundleOf()).toEqual([[[temp], store.sessions[0]!.sizeBytes]]);

    chmodSync(tempRoot, 0o777); // anyone may write in it
    expect(bundleOf()).toEqual([[[], transcriptOnly]]);
    chmodSync(tempRoot, 0o755);

    if (process.getuid?.() === 0) {
      chownSync(tempRoot, 65_534, 65_534); // nobody's
      expect(bundleOf()).toEqual([[[], transcriptOnly]]);
      chownSync(tempRoot, 0, 0);
    }

    // A link where the temp root should be, to a folder of ours that looks right: Claude refuses one.
    const elsewhere = join(store.home, "elsewhere");
    renameSync(tempRoot, elsewhere);
    symlinkSync(elsewhere, tempRoot);
    expect(bundleOf()).toEqual([[[], transcriptOnly]]);

    // $TMPDIR naming the Claude folder itself: its temp root would be inside the store.
    rmSync(tempRoot);
    renameSync(elsewhere, join(store.root, basename(tempRoot)));
    process.env.CLAUDE_CODE_TMPDIR = store.root;
    expect(bundleOf()).toEqual([[[], transcriptOnly]]);
  });

  it("a temp root made writable by others after the preview: the session stays, nothing moves", async () => {
    const b = new ClaudeStoreBuilder(newHome());
    const t = b.session(SHOP, 20).conversation(2);
    b.save(t);
    const temp = b.tempFolder(t.session.id, claudeFolderName(SHOP), CLAUDE_NOW - 20 * DAY);
    const store = b.finish();
    process.env.CLAUDE_CODE_TMPDIR = store.tempDir;
    lenientConfig();
    const preview = await selection(store.root, store.sessions);
    chmodSync(dirname(dirname(temp)), 0o777);
    const before = snapshotTree([store.home]);
    const result = await softDelete(preview, engine);
    expect(result.moved).toEqual([]);
    expect(result.skipped.map((s) => s.reason)).toEqual(["changed since preview"]);
    expect(treeChanges(before, snapshotTree([store.home]))).toEqual([]);
  });

  it("a restore puts the temp folder back into a temp root made afresh (a reboot emptied /tmp), never through a link", async () => {
    const b = new ClaudeStoreBuilder(newHome());
    const t = b.session(SHOP, 20).conversation(2);
    b.save(t);
    const temp = b.tempFolder(t.session.id, claudeFolderName(SHOP), CLAUDE_NOW - 20 * DAY);
    const store = b.finish();
    const tempRoot = dirname(dirname(temp));
    process.env.CLAUDE_CODE_TMPDIR = store.tempDir;
    lenientConfig();
    const twice = async () => {
      const moved = await softDelete(await selection(store.root, store.sessions), engine);
      expect(moved.moved.map((m) => m.id)).toEqual([store.sessions[0]!.id]);
      return moved.operationId!;
    };

    // Gone with a reboot: made again, ours and 0700, and the folder back in it.
    let operation = await twice();
    rmSync(tempRoot, { recursive: true });
    expect((await restore([operation], engine)).skipped).toEqual([]);
    expect(existsSync(temp) && existsSync(store.sessions[0]!.path)).toBe(true);
    expect(lstatSync(tempRoot).mode & 0o777).toBe(0o700);

    // Replaced by a link (another user's, say, in a shared /tmp): refused, nothing moves.
    operation = await twice();
    const theirs = join(store.home, "theirs");
    mkdirSync(theirs);
    rmSync(tempRoot, { recursive: true });
    symlinkSync(theirs, tempRoot);
    const before = snapshotTree([store.home]);
    const back = await restore([operation], engine);
    expect(back.done).toEqual([]);
    expect(back.skipped.map((s) => s.reason)).toEqual([expect.stringContaining(temp)]);
    expect(treeChanges(before, snapshotTree([store.home]))).toEqual([]);
    // Nothing lost: with the link gone, the same entry comes back.
    rmSync(tempRoot);
    expect((await restore([operation], engine)).skipped).toEqual([]);
    expect(existsSync(temp)).toBe(true);
  });

  it("a background job's folder goes with the one session its name begins, and with none when it begins two", async () => {
    const b = new ClaudeStoreBuilder(newHome());
    const one = b.session(SHOP, 20, { id: "5ca1ab1e-0000-4000-8000-000000000001" }).conversation(1);
    const two = b.session(SHOP, 19, { id: "5ca1ab1e-0000-4000-8000-000000000002" }).conversation(1);
    const alone = b.session(SHOP, 18).conversation(1);
    for (const t of [one, two, alone]) b.save(t);
    const shared = join(b.root, "jobs", "5ca1ab1e");
    b.keep(join(shared, "state.json"), JSON.stringify({ sessionId: one.session.id, state: "done" }));
    const job = b.job(alone.session.id, CLAUDE_NOW - 18 * DAY);
    const store = b.finish();
    const { sessions, problems } = await scan(store.root);
    const bundles = Object.fromEntries(sessions.map((r) => [r.id, r.bundle ?? []]));
    expect(bundles).toEqual({
      [`claude:${one.session.id}`]: [],
      [`claude:${two.session.id}`]: [],
      [`claude:${alone.session.id}`]: [job],
    });
    expect(problems).toEqual([
      {
        code: "not-a-session",
        path: shared,
        message: expect.stringContaining("first 8 characters of 2 sessions' ids") as string,
      },
    ]);
  });
});

describe("what is never a session", () => {
  it("Claude's reserved project names and the files it is writing are neither sessions nor problems", async () => {
    const b = new ClaudeStoreBuilder(newHome());
    const t = b.session(APP, 30).conversation(1);
    b.save(t);
    const project = join(b.root, "projects", claudeFolderName(APP));
    for (const name of [".dir-sync.json", ".dir-sync-empty.json", ".cloud-worktrees.json"])
      b.keep(join(project, name), JSON.stringify({ version: 1 }));
    b.keep(join(project, "connector-downloads", t.session.id, "download-0a1b2c3d.pdf"), "%PDF-1.7\n");
    b.keep(join(project, "memory", "MEMORY.md"), "- uses pnpm\n");
    b.keep(join(project, `${t.session.id}.jsonl.compact.tmp.9f8e7d6c`), t.text());
    b.keep(join(project, `${t.session.id}.precompact.json.tmp.4242.a1b2c3`), "{}");
    b.keep(join(project, "bridge-pointer.json.tmp.4242.a1b2c3"), "{}");
    const { sessions, problems } = await scan(b.finish().root);
    expect(sessions.map((r) => [r.id, r.bundle ?? []])).toEqual([[`claude:${t.session.id}`, []]]);
    expect(problems).toEqual([]);
  });

  it("a transcript /cd set aside is an item of its own, called what it is", async () => {
    const store = writeClaudeStore(newHome());
    const { sessions, problems } = await scan(store.root);
    expect(store.setAside).toHaveLength(1);
    const items = sessions.filter((r) => r.id.startsWith("claude-set-aside:"));
    expect(
      items.map((r) => ({
        id: r.id,
        path: r.path,
        namespace: r.namespace,
        name: r.name,
        sizeBytes: r.sizeBytes,
        modifiedAt: r.modifiedAt,
      })),
    ).toEqual(store.setAside);
    expect(sessionTitle(items[0]!).title).toBe("Set aside by a Claude Code relocation into /home/dev/app");
    expect(problems.filter((p) => p.path.includes(".superseded-"))).toEqual([]);
    lenientConfig();
    await roundTrip(
      store,
      store.setAside.map((s) => ({ ...s, bundle: [] })),
    );
  });
});

/** A store of one 2.1.332 session in the shop, with its folder, and the paths a relocation touches. */
function relocatable() {
  const b = new ClaudeStoreBuilder(newHome());
  const t = b.session(SHOP, 10, { version: "2.1.332" }).user("look at the cart").conversation(1);
  const from = b.save(t);
  const folder = b.sessionFolder(t.session.id, claudeFolderName(SHOP), SHOP, CLAUDE_NOW - 10 * DAY);
  const other = b.session(APP, 9).conversation(1);
  b.save(other);
  const store = b.finish();
  const to = join(store.root, "projects", claudeFolderName(APP), basename(from));
  /** `/cd /home/dev/app`: the transcript and its folder move, and the move is stamped in the transcript. */
  const relocate = () => {
    renameSync(from, to);
    renameSync(folder, join(dirname(to), t.session.id));
    appendFileSync(
      to,
      `${JSON.stringify({ type: "relocated", sessionId: t.session.id, relocatedCwd: APP })}\n`,
    );
    return [from, folder, to, join(dirname(to), t.session.id)];
  };
  return { store, id: `claude:${t.session.id}`, to, relocate };
}

describe("a session /cd moved is one session, in its new project", () => {
  it("its namespace is where it was moved to, and it is still one session", async () => {
    const { store, id, to, relocate } = relocatable();
    relocate();
    const { sessions } = await scan(store.root);
    expect(sessions.filter((r) => r.id === id).map((r) => [r.path, r.namespace, r.bundle?.length])).toEqual([
      [to, APP, 1],
    ]);
  });

  it("between two looks of a watched store it is the same session, moved", async () => {
    const { store, id, to, relocate } = relocatable();
    const stores = claudeStores(store.root);
    const before = await scanStores({ stores: stores });
    const was = before.sessions.find((r) => r.id === id)!;
    expect(was.namespace).toBe(SHOP);
    const after = await scanStores({
      stores: stores,
      previous: before,
      changed: new Set(relocate()),
    });
    expect(after.sessions.filter((r) => r.id === id).map((r) => [r.path, r.namespace])).toEqual([[to, APP]]);
    expect(normalized(after)).toEqual(normalized(await scanStores({ stores: stores })));
  });
});

describe("a transcript Claude rewrote is read again whole", () => {
  it("while it is being rewritten its temporary copy is nothing; once renamed over it, the shorter file is read anew", async () => {
    const b = new ClaudeStoreBuilder(newHome());
    const t = b.session(SHOP, 10).user("first question").conversation(6);
    const path = b.save(t);
    const store = b.finish();
    const before = scanClaudeRoot(store.root);
    const [was] = before.records;
    // CLAUDE_CODE_TRANSCRIPT_LOCAL_GC: the compacted transcript is written beside it, then renamed over it.
    const kept = t.lines.slice(-4).map((line) => `${JSON.stringify(line)}\n`);
    const retitled = `${JSON.stringify({ type: "custom-title", customTitle: "Compacted", sessionId: t.session.id })}\n`;
    const tmp = `${path}.compact.tmp.3c4d5e6f`;
    writeFileSync(tmp, [...kept, retitled].join(""));
    const during = rescanClaudeChanged(store.root, before, [tmp]) ?? scanClaudeRoot(store.root);
    expect(during.records.map((r) => r.path)).toEqual([path]);
    expect(during.problems).toEqual([]);

    renameSync(tmp, path);
    const after = rescanClaudeChanged(store.root, during, [tmp, path]) ?? scanClaudeRoot(store.root);
    const [now] = after.records;
    expect(now!.fingerprint.ino).not.toBe(was!.fingerprint.ino);
    expect(now!.sizeBytes).toBeLessThan(was!.sizeBytes);
    expect({ name: now!.name, messageCount: now!.messageCount }).toEqual({
      name: "Compacted",
      messageCount: 5,
    });
    expect(after).toEqual(scanClaudeRoot(store.root));
  });
});

describe("archived sessions and Claude's titles", () => {
  it("a session archived since its last prompt is archived; one prompted in again is not; the filter finds it", async () => {
    const store = writeClaudeStore(newHome());
    const inputs = await gatherPlanInputs({ flagStores: claudeStores(store.root), cache: false });
    const archived = inputs.report.sessions.filter((r) => r.archivedAt !== undefined);
    expect(archived.map((r) => [r.id, r.archivedAt])).toEqual(
      store.sessions.filter((s) => s.archivedAt).map((s) => [s.id, s.archivedAt]),
    );
    // The revived one has an archived.json too, older than its last prompt.
    expect(store.sessions.filter((s) => s.namespace === APP && !s.archivedAt).length).toBeGreaterThan(1);
    const filter = SessionFilterSchema.parse({ archivedOnly: true });
    const config = ConfigSchema.parse({});
    expect([...idsMatchingFilter(inputs, config, filter, new Date())]).toEqual(archived.map((r) => r.id));

    const out: string[] = [];
    await runCli(["scan", "--store", `claude:${store.root}`, "--top", "100"], {
      stdout: (t) => out.push(t),
      stderr: () => {},
    });
    expect(out.join("\n").match(/\(archived\)/g)).toHaveLength(1);
  });

  it("titles are a rename, else the folder's custom-title.json, else the last prompt; the first message is still found", async () => {
    const b = new ClaudeStoreBuilder(newHome());
    const folder = claudeFolderName(SHOP);
    const continued = b.session(SHOP, 30).summary("Cart work").user("fix the cart total").conversation(1);
    continued
      .lastPrompt("fix the cart total")
      .user("and the tax line")
      .conversation(1)
      .lastPrompt("and the tax line");
    b.save(continued);
    const named = b.session(SHOP, 29).user("what does the webhook do").conversation(1);
    b.save(named);
    b.sessionState(named.session.id, folder, CLAUDE_NOW - 29 * DAY, { title: "Webhook tour" });
    const renamed = b.session(SHOP, 28).user("rename me").conversation(1).customTitle("Mine");
    b.save(renamed);
    b.sessionState(renamed.session.id, folder, CLAUDE_NOW - 28 * DAY, { title: "Not this one" });
    const { sessions } = await scan(b.finish().root);
    const title = (t: { session: { id: string } }) =>
      sessionTitle(sessions.find((r) => r.id === `claude:${t.session.id}`)!).title;
    expect([title(continued), title(named), title(renamed)]).toEqual([
      "and the tax line",
      "Webhook tour",
      "Mine",
    ]);
    const found = sessions.filter((r) =>
      sessionMatcher(SessionFilterSchema.parse({ text: "cart total" }))({
        ...r,
        store: r.store.kind,
        warnings: 0,
      }),
    );
    expect(found.map((r) => r.id)).toEqual([`claude:${continued.session.id}`]);
  });
});

describe("a --fork-session copy", () => {
  it("names the session it was copied from, needs nothing of it, and either may go alone", async () => {
    const b = new ClaudeStoreBuilder(newHome());
    const parent = b.session(SHOP, 30).user("plan the migration").conversation(2);
    b.save(parent);
    const fork = b.session(SHOP, 20).copiedFrom(parent).user("now try the other way").conversation(1);
    b.save(fork);
    const store = b.finish();
    const { sessions } = await scan(store.root);
    const [p, f] = [parent, fork].map((t) => sessions.find((r) => r.id === `claude:${t.session.id}`)!);
    expect({
      parent: f!.parentSession,
      warnings: f!.warnings,
      neededBy: p!.neededBy,
      forks: p!.forks,
    }).toEqual({
      parent: p!.path,
      warnings: [],
      neededBy: undefined,
      forks: [f!.id],
    });
    lenientConfig();
    await roundTrip(store, [store.sessions.find((s) => s.id === p!.id)!]);
  });

  it("of a transcript an older version continued under a newer id names that transcript", async () => {
    const b = new ClaudeStoreBuilder(newHome());
    // Before 2.1.332 `--continue` went on in the same file under a new id: the copied replies of
    // its later turns name that id, which is no file's.
    const newer = randomUUID();
    const parent = b.session(SHOP, 30).conversation(1).from({ sessionId: newer }).conversation(1);
    b.save(parent);
    const fork = b.session(SHOP, 20, { version: "2.1.332" }).copiedFrom(parent).conversation(1);
    b.save(fork);
    const { sessions } = await scan(b.finish().root);
    const [p, f] = [parent, fork].map((t) => sessions.find((r) => r.id === `claude:${t.session.id}`)!);
    expect(f!.parentSession).toBe(p!.path);
  });
});
