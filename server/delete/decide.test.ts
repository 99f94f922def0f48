// The decision of a deletion, on plain facts (no disk, no clock): every reason a requested session
// stays, the refusals of a request as a whole, and the order and the way each item goes.
import { describe, expect, it } from "vitest";
import { ConfigSchema, type ConfigInput } from "../../shared/config.js";
import type { SessionRecord } from "../../shared/session-record.js";
import type { StoreMoveRule } from "../stores/adapter-types.js";
import { decideDelete, type DeleteInputs, type DeletePlan } from "./decide.js";

const NOW = new Date("2026-06-01T12:00:00.000Z");
const OLD = "2026-01-01T00:00:00.000Z";
/** The one kind today whose agent deletes its sessions itself: the policy keeps its families whole. */
const AGENT_KIND = "codex" as const;
const AGENT_ROOT = "/home/u/.codex";

let inode = 0;
const fingerprint = () => ({ dev: 1, ino: ++inode, size: 100, mtimeNs: "1767225600000000000" });

/** An old session of the pi store at /pi, unless `extra` says otherwise. */
function session(id: string, extra: Partial<SessionRecord> = {}): SessionRecord {
  return {
    id,
    store: { kind: "pi", root: "/pi" },
    path: `/pi/--work--/${id}.jsonl`,
    namespace: "/work",
    sizeBytes: 100,
    createdAt: OLD,
    modifiedAt: OLD,
    lastUsedAt: OLD,
    fingerprint: fingerprint(),
    messageCount: 4,
    messageCounts: { user: 2, assistant: 2, toolResult: 0, other: 0 },
    warnings: [],
    ...extra,
  };
}

/** A session of the agent's store (its rollouts end in .jsonl; its other files move by renames). */
const agentSession = (id: string, extra: Partial<SessionRecord> = {}) =>
  session(id, {
    store: { kind: AGENT_KIND, root: AGENT_ROOT },
    path: `${AGENT_ROOT}/sessions/${id}.jsonl`,
    ...extra,
  });

const LINK: StoreMoveRule = { way: "link", applies: (path) => path.endsWith(".jsonl") };

/** A config with no keep that counts sessions, to the quarantine, changed by `overrides`. */
const config = (overrides: ConfigInput = {}) =>
  ConfigSchema.parse({
    ...overrides,
    retention: {
      minKeepRecentCount: 0,
      keepLastPerNamespace: 0,
      allowEmptyStore: true,
      ...overrides.retention,
    },
    deletion: { target: "quarantine", ...overrides.deletion },
  });

function inputs(sessions: SessionRecord[], patch: Partial<DeleteInputs> = {}): DeleteInputs {
  return {
    report: { sessions },
    pins: [],
    activeIds: new Map(),
    config: config(),
    now: NOW,
    agentAnswers: new Map(),
    moveRules: new Map(),
    cannotMove: () => undefined,
    orphans: new Map(),
    ...patch,
  };
}

/** A hand selection of `records`, each with the fingerprint its preview showed. */
const select = (...records: SessionRecord[]) => ({
  items: records.map((r) => ({ id: r.id, fingerprint: r.fingerprint })),
  via: "selection" as const,
});

const ids = (plan: DeletePlan) => plan.items.map((i) => i.record.id);
const reasons = (plan: DeletePlan) => Object.fromEntries(plan.skipped.map((s) => [s.id, s.reason]));

describe("what goes", () => {
  it("each selected session, renamed, with the fingerprint its preview showed, to the place the config names", () => {
    const [a, b] = [session("a"), session("b")];
    const plan = decideDelete(inputs([a, b, session("c")]), select(a, b));
    expect(plan).toMatchObject({ skipped: [], bystanders: [] });
    expect(plan.refused).toBeUndefined();
    expect(plan.items).toEqual([
      { record: a, fingerprint: a.fingerprint, mover: "rename", target: "quarantine", forks: [] },
      { record: b, fingerprint: b.fingerprint, mover: "rename", target: "quarantine", forks: [] },
    ]);
    const toTrash = decideDelete(
      inputs([a, b], { config: config({ deletion: { target: "trash" } }) }),
      select(a),
    );
    expect(toTrash.items.map((i) => i.target)).toEqual(["system-trash"]);
  });

  it("an id named twice goes once; an item without a preview's fingerprint is held to the scan's", () => {
    const a = session("a");
    const plan = decideDelete(inputs([a, session("b")]), {
      items: [{ id: "a" }, { id: "a" }],
      via: "selection",
    });
    expect(plan.items).toMatchObject([{ record: a, fingerprint: a.fingerprint }]);
    expect(plan.skipped).toEqual([]);
  });
});

describe("what stays, and why (the words the result and the audit log carry)", () => {
  it("an id that is no session of the fresh scan: never taken as a path", () => {
    const plan = decideDelete(inputs([session("a")]), { items: [{ id: "/etc/passwd" }], via: "selection" });
    expect(plan.items).toEqual([]);
    expect(plan.skipped).toEqual([{ id: "/etc/passwd", reason: "not found in the store (already gone?)" }]);
  });

  it("the keeps no selection lifts: in use, written within the grace window, pinned, protected, among the most recent", () => {
    const [live, fresh, pinned, kept, recent, other] = [
      session("live"),
      session("fresh", { modifiedAt: new Date(NOW.getTime() - 60_000).toISOString() }),
      session("pinned"),
      session("kept", { namespace: "/work/secret" }),
      session("recent", { lastUsedAt: "2026-05-30T00:00:00.000Z" }),
      session("other"),
    ];
    const facts = inputs([live, fresh, pinned, kept, recent, other], {
      activeIds: new Map([["live", "pi process 4242 (marker)"]]),
      pins: [{ id: "pinned", path: pinned.path, pinnedAt: OLD }],
      config: config({
        retention: { minKeepRecentCount: 1 },
        protection: { protectedPatterns: ["*secret*"] },
      }),
    });
    const plan = decideDelete(facts, select(live, fresh, pinned, kept, recent, other));
    expect(ids(plan)).toEqual(["other"]);
    expect(reasons(plan)).toEqual({
      live: "active: pi process 4242 (marker)",
      fresh: "active: modified 1 min ago (grace 10 min)",
      pinned: "pinned: pinned by you",
      kept: expect.stringMatching(/^protected: protected by pattern "\*secret\*"/),
      recent: "recent: among the 1 most recently used",
    });
    expect(plan.skipped.map((s) => s.path)).toEqual([live, fresh, pinned, kept, recent].map((s) => s.path));
  });

  it("pruning lifts the keeps that count sessions (the most recent, the last of a namespace, an emptied store)", () => {
    const only = session("only", { lastUsedAt: "2026-05-30T00:00:00.000Z" });
    const strict = config({
      retention: { minKeepRecentCount: 5, keepLastPerNamespace: 1, allowEmptyStore: false },
    });
    expect(reasons(decideDelete(inputs([only], { config: strict }), select(only)))).toEqual({
      only: "recent: among the 5 most recently used",
    });
    const pruned = decideDelete(inputs([only], { config: strict }), { ...select(only), via: "prune" });
    expect(ids(pruned)).toEqual(["only"]);
    expect(pruned.config.retention).toMatchObject({ minKeepRecentCount: 0, allowEmptyStore: true });
  });

  it("a session that cannot move whole now, in the move check's words; the check is asked only of what no keep holds", () => {
    const [a, pinned] = [session("a"), session("pinned")];
    const asked: string[] = [];
    const plan = decideDelete(
      inputs([a, pinned, session("b")], {
        pins: [{ id: "pinned", path: pinned.path, pinnedAt: OLD }],
        cannotMove: (target) => {
          asked.push(target.path);
          return `${target.path} is owned by root; run \`sudo chown u ${target.path}\` and try again`;
        },
      }),
      select(a, pinned),
    );
    expect(ids(plan)).toEqual([]);
    expect(reasons(plan).a).toBe(`${a.path} is owned by root; run \`sudo chown u ${a.path}\` and try again`);
    expect(asked).toEqual([a.path]);
  });

  it("by the policy: what the policy, evaluated again now, no longer chooses", () => {
    const [a, b] = [session("a"), session("b")];
    const plan = decideDelete(
      inputs([a, b, session("c")], { policyChoice: { chosen: new Set(["a"]), leftOut: new Map() } }),
      {
        ...select(a, b),
        via: "policy",
      },
    );
    expect(ids(plan)).toEqual(["a"]);
    expect(reasons(plan)).toEqual({
      b: "no longer chosen by the policy (the config or the sessions changed since the preview)",
    });
  });

  it("a file name that is not valid UTF-8, and a session changed since its preview", () => {
    const odd = session("odd", { warnings: [{ code: "non-utf8-name", message: "not UTF-8" }] });
    const changed = session("changed");
    const plan = decideDelete(inputs([odd, changed, session("c")]), {
      items: [
        { id: "odd", fingerprint: odd.fingerprint },
        { id: "changed", fingerprint: { ...changed.fingerprint, size: 99 } },
      ],
      via: "selection",
    });
    expect(reasons(plan)).toEqual({
      odd: "its file name is not valid UTF-8; rename it first",
      changed: "changed since preview",
    });
  });
});

describe("refused as a whole: nothing goes", () => {
  it("auto-clean turned off, or set to dry run, since its decision", () => {
    const a = session("a");
    const auto = { ...select(a), via: "auto-clean" as const };
    expect(decideDelete(inputs([a, session("b")]), auto)).toMatchObject({
      refused: "auto-clean is off in the config now; nothing was moved",
      items: [],
      skipped: [],
    });
    const dry = config({ retention: { autoClean: true, dryRun: true } });
    expect(decideDelete(inputs([a, session("b")], { config: dry }), auto).refused).toBe(
      "auto-clean is set to dry run in the config now; nothing was moved",
    );
    // Its own dry run is what the config asks for: decided as any.
    expect(ids(decideDelete(inputs([a, session("b")], { config: dry }), { ...auto, dryRun: true }))).toEqual([
      "a",
    ]);
  });

  it("auto-clean moves at most autoCleanMaxDeletesPerRun", () => {
    const all = ["a", "b", "c", "d"].map((id) => session(id));
    const on = config({ retention: { autoClean: true, dryRun: false, autoCleanMaxDeletesPerRun: 2 } });
    const plan = decideDelete(
      inputs([...all, session("e")], {
        config: on,
        policyChoice: { chosen: new Set(["a", "b", "c", "d"]), leftOut: new Map() },
      }),
      {
        ...select(...all),
        via: "auto-clean",
      },
    );
    expect(ids(plan)).toEqual(["a", "b"]);
  });

  it("a selection that would empty a store, with what else stays said too", () => {
    const [a, b] = [session("a"), session("b")];
    const plan = decideDelete(inputs([a, b], { config: config({ retention: { allowEmptyStore: false } }) }), {
      items: [{ id: "a" }, { id: "b" }, { id: "gone" }],
      via: "selection",
    });
    expect(plan.refused).toMatch(/^refused: the plan would remove every session of \/pi;/);
    expect(plan.items).toEqual([]);
    expect(reasons(plan)).toEqual({ gone: "not found in the store (already gone?)" });
  });
});

describe("parts and files that are no session", () => {
  const twinPart = (owner: string) => ({
    id: `${owner}:twin`,
    path: `/pi/--work--/${owner}.twin.json`,
    sizeBytes: 10,
    fingerprint: fingerprint(),
    what: "an empty copy left by a resume",
  });

  it("a detachable part goes by its own id, alone; it stays while its session is live, pins or not", () => {
    const part = twinPart("chat");
    const chat = session("chat", { detachable: [part] });
    const plan = decideDelete(
      inputs([chat, session("b")], { pins: [{ id: "chat", path: chat.path, pinnedAt: OLD }] }),
      { items: [{ id: part.id, fingerprint: part.fingerprint }], via: "selection" },
    );
    expect(plan.items).toMatchObject([
      { record: { id: part.id, path: part.path, sizeBytes: 10 }, mover: "rename" },
    ]);
    const live = decideDelete(
      inputs([chat, session("b")], { activeIds: new Map([["chat", "a running agent"]]) }),
      {
        items: [{ id: part.id }],
        via: "selection",
      },
    );
    expect(reasons(live)).toEqual({
      [part.id]: "active: its session is in use (a running agent); remove it once the agent has stopped",
    });
  });

  it("an orphaned index file goes while the fresh scan still finds it orphaned and it is there", () => {
    const [kept, gone, stale] = ["/pi-meta/x.meta.json", "/pi-meta/y.meta.json", "/pi-meta/z.meta.json"];
    const fp = fingerprint();
    const plan = decideDelete(
      inputs([session("a")], {
        report: {
          sessions: [session("a")],
          orphanedMeta: [
            { path: kept, sessionId: "x", sizeBytes: 5 },
            { path: gone, sessionId: "y", sizeBytes: 5 },
          ],
        },
        orphans: new Map([
          [kept, fp],
          [gone, undefined],
          [stale, fingerprint()],
        ]),
      }),
      { items: [], orphanedMeta: [kept, gone, stale], via: "selection" },
    );
    expect(plan.items).toMatchObject([
      { record: { id: "meta:x", path: kept, sizeBytes: 5 }, fingerprint: fp },
    ]);
    expect(plan.skipped).toEqual([
      { id: "meta:y.meta.json", path: gone, reason: "not an orphaned session-index file (any more)" },
      { id: "meta:z.meta.json", path: stale, reason: "not an orphaned session-index file (any more)" },
    ]);
  });
});

describe("a session its agent deletes itself", () => {
  const rules = new Map([[AGENT_ROOT, LINK]]);

  it("is handed over, to the quarantine whatever the config says; the store's other files are renamed, to the quarantine too", () => {
    const thread = agentSession("t1");
    const orphan = agentSession("orphan", { path: `${AGENT_ROOT}/shell_snapshots/orphan.sh` });
    const pi = session("p");
    const plan = decideDelete(
      inputs([thread, orphan, pi, session("q")], {
        moveRules: rules,
        config: config({ deletion: { target: "trash" } }),
      }),
      select(thread, orphan, pi),
    );
    expect(plan.items.map((i) => [i.record.id, i.mover, i.target])).toEqual([
      ["t1", "agent", "quarantine"],
      ["orphan", "rename", "quarantine"],
      ["p", "rename", "system-trash"],
    ]);
    // Looked for after each of its agent's deletes: every session of a store whose agent deletes.
    expect(plan.bystanders.map((s) => s.id)).toEqual(["t1", "orphan"]);
    const renamedOnly = decideDelete(inputs([thread, orphan, pi], { moveRules: rules }), select(orphan, pi));
    expect(renamedOnly.bystanders).toEqual([]);
  });

  it("stays when its id is not unique: the agent's own delete names it by its id", () => {
    const twin = agentSession("t1", {
      warnings: [{ code: "duplicate-id", message: "two rollouts name thread t1" }],
    });
    const renamed = agentSession("t2", {
      path: `${AGENT_ROOT}/shell_snapshots/t2.sh`,
      warnings: [{ code: "duplicate-id", message: "two files name t2" }],
    });
    const plan = decideDelete(
      inputs([twin, renamed, session("p")], { moveRules: rules }),
      select(twin, renamed),
    );
    expect(reasons(plan)).toEqual({
      t1: "two rollouts name thread t1: the agent's own delete could remove the wrong one",
    });
    // A file renamed into the trash is found by its path, not its id.
    expect(ids(plan)).toEqual(["t2"]);
  });

  it("a family chosen as one goes forks first, down the chain; a parent chosen without its forks stays", () => {
    const parent = agentSession("parent", { neededBy: ["fork"] });
    const fork = agentSession("fork", { neededBy: ["forkOfFork"] });
    const forkOfFork = agentSession("forkOfFork");
    const sessions = [parent, fork, forkOfFork, session("p")];
    const plan = decideDelete(inputs(sessions, { moveRules: rules }), select(parent, fork, forkOfFork));
    expect(ids(plan)).toEqual(["forkOfFork", "fork", "parent"]);
    expect(plan.items.map((i) => i.forks)).toEqual([[], ["forkOfFork"], ["fork"]]);
    const alone = decideDelete(inputs(sessions, { moveRules: rules }), select(parent, fork));
    expect(ids(alone)).toEqual([]);
    expect(reasons(alone)).toEqual({
      fork: "fork-parent: 1 fork reads its history from this session's file",
      parent: "fork-parent: 1 fork reads its history from this session's file",
    });
  });

  it("what its delete takes too: a selected session joins its item; one that stays refuses it; an agent that cannot be asked refuses all", () => {
    const spawner = agentSession("spawner", { name: "checkout" });
    const spawned = agentSession("spawned", { name: "helper", sizeBytes: 40 });
    const sessions = [spawner, spawned, agentSession("other"), session("p")];
    const answers = new Map([
      ["spawner", [{ what: "its spawned thread s1", session: "spawned" }]],
      ["spawned", []],
    ]);
    const both = decideDelete(
      inputs(sessions, { moveRules: rules, agentAnswers: answers }),
      select(spawner, spawned),
    );
    expect(ids(both)).toEqual(["spawner"]);
    expect(both.items[0]!.record).toMatchObject({ bundle: [spawned.path], sizeBytes: 140 });
    expect(both.taken.get("spawner")).toMatchObject([{ id: "spawned", sizeBytes: 40, agent: "Codex" }]);
    // A fork of the taken session reads from the taker's item now: it goes first, and the item waits for it.
    const fork = agentSession("fork");
    const family = [spawner, { ...spawned, neededBy: ["fork"] }, fork, session("p")];
    const withFork = decideDelete(
      inputs(family, { moveRules: rules, agentAnswers: answers }),
      select(spawner, family[1]!, fork),
    );
    expect(withFork.items.map((i) => [i.record.id, i.forks])).toEqual([
      ["fork", []],
      ["spawner", ["fork"]],
    ]);
    const alone = decideDelete(
      inputs(sessions, { moveRules: rules, agentAnswers: answers }),
      select(spawner),
    );
    expect(reasons(alone)).toEqual({
      spawner:
        "Codex's own delete of it would also delete its spawned thread s1 (session spawned, “helper”), which is not selected: select it too, and both go to the trash together",
    });
    const unasked = decideDelete(
      inputs(sessions, { moveRules: rules, agentAnswers: new Map([["spawner", "sqlite3 is missing"]]) }),
      select(spawner),
    );
    expect(reasons(unasked).spawner).toBe(
      "could not ask Codex what its own delete of it would also delete (sqlite3 is missing); it is not deleted without knowing",
    );
  });
});
