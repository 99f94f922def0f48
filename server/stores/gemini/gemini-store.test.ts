// Gemini CLI's store end to end, against stores written by test-support/gemini-store.ts from the
// formats in Gemini's own code: what a scan finds (every field, checked against the generator's own
// account of what it wrote), what a clean moves (a session's whole bundle and nothing else of
// `~/.gemini`: never projects.json, the markers, logs.json, checkpoints, memory), that a restore puts
// back every byte and every file's time, and that a chat Gemini re-creates at a trashed path is left
// alone.
import {
  appendFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { SessionRecord } from "../../../shared/session-record.js";
import { lenientConfig, writeConfigFile } from "../../../test-support/config-file.js";
import {
  DAY,
  type ExpectedOrphan,
  type ExpectedSession,
  GEMINI_NOW,
  type GeminiStore,
  type GeminiStoreFacts,
  GeminiStoreBuilder,
  PATH_DERIVED,
  writeGeminiStore,
} from "../../../test-support/gemini-store.js";
import {
  fileTimes,
  insideAny,
  snapshotTree,
  treeChanges,
  without,
} from "../../../test-support/tree-snapshot.js";
import { engine, tripsOf } from "../../../test-support/round-trip.js";
import { runCli } from "../../cli/main.js";
import { listTrash, restore, softDelete } from "../../delete/deletion-engine.js";
import { gatherPlanInputs } from "../../plan/plan-inputs.js";
import { resolveStores } from "../../scan/resolve-roots.js";
import { scanStores } from "../../scan/scanner.js";
import { geminiAdapter } from "./adapter.js";
import { MAX_LINES } from "../read-caps.js";

const newHome = () => realpathSync(mkdtempSync(join(tmpdir(), "sr-gemini-")));
const geminiStore = () => writeGeminiStore(newHome());
const { storesOf, selection, roundTrip } = tripsOf("gemini");
const scan = (root: string) => scanStores({ stores: storesOf(root) });

/** A record in the generator's terms. */
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
  firstMessage: r.firstMessage,
  warnings: r.warnings.map((w) => w.code).sort(),
  bundle: [...(r.bundle ?? [])].sort(),
  sizeBytes: r.sizeBytes,
});

/** What the generator expects of a session, in the same terms (an id from the path where it says so). */
const expectedSession = ({ sessionId: _id, ...s }: ExpectedSession, root: string) => ({
  ...s,
  id: s.id === PATH_DERIVED ? expect.stringMatching(/^path-[0-9a-f]{16}$/) : s.id,
  kind: "gemini",
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

const byPath = <T extends { path: string }>(items: readonly T[]) =>
  [...items].sort((a, b) => (a.path < b.path ? -1 : 1));

/** A store of one project and one chat built by `build`, and what a scan must find. */
function oneChat(build: (chat: ReturnType<GeminiStoreBuilder["chat"]>) => void): GeminiStoreFacts {
  const b = new GeminiStoreBuilder(newHome());
  const project = b.project("/home/dev/shop");
  const chat = b.chat(project, 10);
  build(chat);
  b.save(chat, project);
  return b.finish();
}

describe("scan of a Gemini CLI store", () => {
  it("finds every chat with the facts the generator wrote: id, project, times, messages, name, bundle, size", async () => {
    const store = geminiStore();
    // What the rest of this test relies on being in the store.
    const { shop, otherShop, oldApiHash, unknownHash } = store.projects;
    expect([shop.folder, otherShop.folder]).toEqual(["shop", "shop-1"]); // a collision, suffixed
    expect(oldApiHash.folder).toMatch(/^[0-9a-f]{64}$/);
    expect(unknownHash.folder).toMatch(/^[0-9a-f]{64}$/);
    const warned = (code: string) => store.sessions.some((s) => s.warnings.includes(code));
    for (const code of [
      "missing-header",
      "corrupt-line",
      "line-too-long",
      "namespace-from-folder",
      "duplicate-id",
    ])
      expect(warned(code), code).toBe(true);
    expect(store.sessions.some((s) => s.path.endsWith(".json"))).toBe(true); // legacy
    expect(store.sessions.some((s) => s.bundle.some((part) => part.endsWith(".json")))).toBe(true); // converted
    expect(store.full.bundle).toHaveLength(7); // subagents, log, tool outputs, own folder, backup; a subagent's log and outputs

    const { sessions } = await scan(store.root);
    const chats = sessions.filter((r) => !r.id.startsWith("gemini-orphan:"));
    expect(byPath(chats).map(asSession)).toEqual(
      byPath(store.sessions).map((s) => expectedSession(s, store.root)),
    );
  });

  it("lists side files whose chat is gone as one item each: a whole bundle, a subagents' folder, a backup", async () => {
    const store = geminiStore();
    expect(store.orphans.map((o) => [o.folder, o.bundle.length])).toEqual(
      expect.arrayContaining([
        [true, 2], // tool outputs, the session's folder, its log
        [true, 2], // a subagents' folder and its subagent's log and outputs
        [false, 0], // a backup of a chat that is gone
      ]),
    );
    const { sessions } = await scan(store.root);
    const orphans = sessions.filter((r) => r.id.startsWith("gemini-orphan:"));
    expect(byPath(orphans).map(asOrphan)).toEqual(byPath(store.orphans as ExpectedOrphan[]));
    for (const orphan of orphans)
      expect(orphan).toMatchObject({ store: { kind: "gemini" }, namespace: store.projects.shop.path });
  });

  it("reports what in chats/ is not a chat, and never names Gemini's own files", async () => {
    const store = geminiStore();
    const { sessions, problems } = await scan(store.root);
    const reported = problems.map(({ code, path, bytes }) => ({
      code,
      path,
      ...(bytes !== undefined ? { bytes } : {}),
    }));
    expect(byPath(reported)).toEqual(byPath(store.problems));
    const strays = new Set(store.problems.map((p) => p.path));
    const own = store.neverMoved.filter((path) => !strays.has(path));
    const named = sessions.flatMap((r) => [r.path, ...(r.bundle ?? [])]);
    expect(named.filter(insideAny(own))).toEqual([]);
    expect(own.filter((path) => named.some((part) => path.startsWith(`${part}/`)))).toEqual([]);
  });

  it("a message appended again as it changes counts once; a rewind drops messages; a checkpoint replaces them", async () => {
    const repushed = oneChat((c) => c.toolTurn("run the tests", "npm test", "ok"));
    const rewound = oneChat((c) => c.conversationOf(3).rewind(3));
    const resumed = oneChat((c) => c.conversationOf(2).rewind(1).resume(DAY).conversationOf(1));
    for (const store of [repushed, rewound, resumed]) {
      const { sessions } = await scan(store.root);
      expect(sessions.map(asSession)).toEqual(store.sessions.map((s) => expectedSession(s, store.root)));
    }
    expect(repushed.sessions[0]!.messageCount).toBe(3); // a prompt, the call (written three times), the answer
    expect(rewound.sessions[0]!.messageCount).toBe(3);
  });

  it("a chat of more lines than the cap is read to the cap: what came before counted, a warning, never older than its file", async () => {
    const store = oneChat((c) => c.conversationOf(2));
    const [want] = store.sessions;
    const lines = readFileSync(want!.path, "utf8").split("\n").length - 1;
    // After the cap, a summary no read may reach (it would become the chat's name).
    appendFileSync(want!.path, `${"\n".repeat(MAX_LINES - lines)}{"$set":{"summary":"after the cap"}}\n`);
    const [record] = (await scan(store.root)).sessions;
    expect(record!.name).toBe(want!.name);
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

  it("the CLI's scan --json lists the same sessions and sizes", async () => {
    const store = geminiStore();
    const out: string[] = [];
    const status = await runCli(["scan", "--store", `gemini:${store.root}`, "--json"], {
      stdout: (t) => out.push(t),
      stderr: () => {},
    });
    expect(status).toBe(0);
    const report = JSON.parse(out.join("\n")) as {
      stores: Array<{ kind: string; root: string }>;
      sessions: Array<{ path: string; sizeBytes: number }>;
    };
    expect(report.stores).toEqual([{ kind: "gemini", root: store.root }]);
    const listed = report.sessions.map(({ path, sizeBytes }) => ({ path, sizeBytes }));
    expect(byPath(listed)).toEqual(
      byPath([...store.sessions, ...store.orphans].map(({ path, sizeBytes }) => ({ path, sizeBytes }))),
    );
  });

  it("is found on its own in $GEMINI_CLI_HOME/.gemini, else ~/.gemini, once it has a project folder", () => {
    const home = newHome();
    const geminiHome = newHome();
    const env = { ...process.env, HOME: home };
    const found = (e: NodeJS.ProcessEnv) =>
      resolveStores({ stores: [], discover: ["gemini"] }, e).stores.filter((s) => s.kind === "gemini");
    writeGeminiStore(home);
    expect(found(env)).toEqual([{ kind: "gemini", root: join(home, ".gemini") }]);
    writeGeminiStore(geminiHome);
    expect(found({ ...env, GEMINI_CLI_HOME: geminiHome })).toEqual([
      { kind: "gemini", root: join(geminiHome, ".gemini") },
    ]);
    // Settings alone are not a store: Gemini makes tmp/<project>/ once it runs in a project.
    const settingsOnly = join(newHome(), ".gemini");
    mkdirSync(settingsOnly);
    writeFileSync(join(settingsOnly, "settings.json"), "{}");
    expect(geminiAdapter.isStore!(settingsOnly)).toBe(false);
    expect(geminiAdapter.isStore!(join(home, ".gemini"))).toBe(true);
  });

  it("the generator is deterministic: one seed, the same files, bytes and times in any folder", () => {
    const relative = (home: string, entries: ReadonlyMap<string, string>) =>
      [...entries].map(([path, what]) => [path.slice(home.length), what.replaceAll(home, "~")]);
    const [a, b] = [newHome(), newHome()];
    writeGeminiStore(a);
    writeGeminiStore(b);
    expect(relative(b, snapshotTree([b]))).toEqual(relative(a, snapshotTree([a])));
    expect(relative(b, fileTimes(b))).toEqual(relative(a, fileTimes(a)));
  });
});

describe("soft delete and restore of Gemini sessions", () => {
  /** Sessions no live process uses, each a kind of unit: the full bundle, a converted pair, a legacy chat. */
  const units = (store: GeminiStoreFacts) => [
    store.sessions[0]!,
    store.sessions.find((s) => s.bundle.some((part) => part.endsWith(".json")))!,
    store.sessions.find((s) => s.path.endsWith(".json") && s.id.startsWith("gemini:"))!,
  ];

  it("a dry run counts each session with its whole bundle and moves nothing", async () => {
    const store = geminiStore();
    const before = snapshotTree([store.home]);
    const chosen = [...units(store), ...store.orphans];
    lenientConfig();
    const result = await softDelete({ ...(await selection(store.root, chosen)), dryRun: true }, engine);
    expect(byPath(result.moved).map(({ path, bytes }) => ({ path, bytes }))).toEqual(
      byPath(chosen).map(({ path, sizeBytes }) => ({ path, bytes: sizeBytes })),
    );
    expect(treeChanges(before, snapshotTree([store.home]))).toEqual([]);
  });

  /** Moves `chosen`, checks exactly their files left, restores the operation, checks every byte and time. */
  for (const target of ["quarantine", "trash"] as const)
    it(`a session's whole bundle leaves and comes back byte-identical, times included (${target})`, async () => {
      const store = geminiStore();
      lenientConfig(target);
      await roundTrip(store, units(store));
    });

  it("orphaned side files leave and come back as one item each", async () => {
    const store = geminiStore();
    lenientConfig();
    await roundTrip(store, store.orphans);
  });

  it("cleaning every session of the store (clean --yes) leaves Gemini's own files byte-identical", async () => {
    const store = geminiStore();
    const all = [...store.sessions, ...store.orphans];
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
      ["clean", "--yes", "--store", `gemini:${store.root}`, "--config", config],
      io,
    );
    expect(status, out.join("\n")).toBe(0);
    expect(all.filter((s) => existsSync(s.path)).map((s) => s.path)).toEqual([]);
    expect(treeChanges(without(before, moved), snapshotTree([store.home], moved))).toEqual([]);
    for (const path of store.neverMoved)
      expect(lstatSync(path, { throwIfNoEntry: false }), path).toBeDefined();
  });

  it("a bundle written to after the preview is skipped: changed since preview", async () => {
    const store = geminiStore();
    lenientConfig();
    const subagent = subagentChatOf(store);
    const preview = await selection(store.root, [store.full]);
    const { mtime } = lstatSync(subagent);
    appendFileSync(subagent, `${JSON.stringify({ $set: { summary: "more" } })}\n`);
    utimesSync(subagent, mtime, mtime); // the same time: only its size tells
    const result = await softDelete(preview, engine);
    expect(result.skipped.map((s) => s.reason)).toEqual(["changed since preview"]);
    expect(existsSync(store.full.path) && existsSync(subagent)).toBe(true);
  });

  it("a chat Gemini re-creates at the path of a trashed one is in use, never cleaned, and its restore conflicts", async () => {
    const store = geminiStore();
    lenientConfig();
    const chat = store.full;
    const moved = await softDelete(await selection(store.root, [chat]), engine);
    expect(moved.moved.map((m) => m.path)).toEqual([chat.path]);
    // Gemini still running appends its next record by path: the file comes back without its metadata.
    appendFileSync(
      chat.path,
      `${JSON.stringify({ $set: { lastUpdated: new Date(GEMINI_NOW).toISOString() } })}\n`,
    );
    const old = new Date(GEMINI_NOW - 100 * DAY);
    utimesSync(chat.path, old, old); // old, so only the trash tells it is in use

    const inputs = await gatherPlanInputs({
      flagStores: [{ kind: "gemini", root: store.root }],
      cache: false,
    });
    const recreated = inputs.report.sessions.find((s) => s.path === chat.path)!;
    expect(recreated.warnings.map((w) => w.code)).toContain("missing-header");
    expect(inputs.activeIds.get(recreated.id)).toMatch(/appeared at the path of a session in the trash/);
    const again = await softDelete(await selection(store.root, [chat]), engine);
    expect(again.moved).toEqual([]);
    expect(again.skipped.map((s) => s.reason)).toEqual([expect.stringMatching(/^active/)]);

    const back = await restore([moved.operationId!], engine);
    expect(back.done).toEqual([]);
    expect(back.skipped.map((s) => s.reason)).toEqual([expect.stringMatching(/^conflict/)]);
    const entry = listTrash(engine).entries.find((e) => e.entryId.startsWith(`${moved.operationId}:`))!;
    expect(entry.state).toBe("in-trash");
    expect(readFileSync(chat.path, "utf8")).toMatch(/^\{"\$set"/); // Gemini's file stays as it is
  });
});

/** The chat of the full bundle's subagent. */
function subagentChatOf(store: GeminiStore) {
  const subagents = store.full.bundle.find((part) => /\/chats\/[^/.]+$/.test(part))!;
  return join(
    subagents,
    readdirSync(subagents).find((n) => n.endsWith(".jsonl"))!,
  );
}
