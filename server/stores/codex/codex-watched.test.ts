// A watched Codex store: the server reads again only the sessions whose rollouts a change touched
// (rescanCodexChanged), and that must equal a fresh scan after any sequence of what Codex, its
// user and other programs do — appends to rollouts (a thread's, a subagent's), touched compressed
// siblings, new and deleted rollouts, renames in session_index.jsonl, rewritten headers (a fork or
// a spawner appearing), truncations, strays, and Codex's own files that are no session's. Once with
// the paths each step touched, once with the real tree watcher's events.
import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { writeCodexStore } from "../../../test-support/codex-store.js";
import {
  filesUnder,
  itFollowsEveryChange,
  pickOf,
  type Step,
  stepArbOf,
} from "../../../test-support/adapter-steps.js";
import { rescanCodexChanged, scanCodexRoot } from "./codex-store.js";

const work = mkdtempSync(join(tmpdir(), "sr-codex-watched-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const KINDS = [
  "append",
  "touch-compressed",
  "new-rollout",
  "delete",
  "rename",
  "codex-own",
  "rewrite-header",
  "truncate",
  "stray",
] as const;
type Kind = (typeof KINDS)[number];

function newStore(name: string) {
  const root = join(work, name, ".codex");
  mkdirSync(root, { recursive: true });
  writeCodexStore(root);
  const rollouts = () =>
    [...filesUnder(join(root, "sessions")), ...filesUnder(join(root, "archived_sessions"))].filter((p) =>
      /\/rollout-[^/]*-[0-9a-f-]{36}\.jsonl(\.zst)?$/.test(p),
    );
  const plain = () => rollouts().filter((p) => p.endsWith(".jsonl"));
  const threadOf = (path: string) => /([0-9a-f-]{36})\.jsonl/.exec(path)![1]!;
  const event = (text: string) =>
    `${JSON.stringify({ timestamp: new Date().toISOString(), type: "response_item", payload: { type: "message", role: "user", content: [{ type: "input_text", text }] } })}\n`;
  let made = 0;

  function apply({ kind, pick, other }: Step<Kind>): string[] {
    switch (kind) {
      case "append": {
        const r = pickOf(plain(), pick);
        if (!r) return [];
        appendFileSync(r, event(`more ${pick}`));
        return [r];
      }
      case "touch-compressed": {
        const r = pickOf(
          rollouts().filter((p) => p.endsWith(".zst")),
          pick,
        );
        if (!r) return [];
        const at = new Date(Date.UTC(2026, 2, 1, 0, 0, pick % 60));
        utimesSync(r, at, at);
        return [r];
      }
      case "new-rollout": {
        // A new thread, or a subagent spawned by a thread already there.
        const spawner = other % 2 === 0 ? pickOf(plain(), other) : undefined;
        const id = `0199aaaa-0000-7000-8000-${String(++made).padStart(12, "0")}`;
        const folder = join(root, "sessions", "2026", "03", "02");
        mkdirSync(folder, { recursive: true });
        const path = join(
          folder,
          `rollout-2026-03-02T08-00-${String(made % 60).padStart(2, "0")}-${id}.jsonl`,
        );
        const meta = {
          id,
          timestamp: "2026-03-02T08:00:00.000Z",
          cwd: "/home/dev/new",
          ...(spawner
            ? { source: { subagent: { thread_spawn: { parent_thread_id: threadOf(spawner) } } } }
            : { source: "cli" }),
        };
        writeFileSync(
          path,
          `${JSON.stringify({ timestamp: meta.timestamp, type: "session_meta", payload: meta })}\n${event("hello")}`,
        );
        return [path];
      }
      case "delete": {
        const r = pickOf(rollouts(), pick);
        if (!r) return [];
        rmSync(r);
        return [r];
      }
      case "rename": {
        const r = pickOf(rollouts(), pick);
        if (!r) return [];
        const index = join(root, "session_index.jsonl");
        appendFileSync(
          index,
          `${JSON.stringify({ id: threadOf(r), thread_name: `renamed ${pick}`, updated_at: "2026-03-02T08:00:00Z" })}\n`,
        );
        return [index];
      }
      case "codex-own": {
        const path = pickOf(
          [join(root, "history.jsonl"), join(root, "log", "codex-tui.log"), join(root, "state_5.sqlite-wal")],
          other,
        )!;
        mkdirSync(dirname(path), { recursive: true });
        appendFileSync(path, `{"n":${pick}}\n`);
        return [path];
      }
      case "rewrite-header": {
        // The first line names another thread as where it was forked from.
        const r = pickOf(plain(), pick);
        const from = pickOf(rollouts(), other);
        if (!r || !from) return [];
        const [first, ...rest] = readFileSync(r, "utf8").split("\n");
        let header: { type?: string; payload?: Record<string, unknown> };
        try {
          header = JSON.parse(first!) as typeof header;
        } catch {
          return [];
        }
        if (header.type !== "session_meta") return [];
        header.payload = { ...header.payload, forked_from_id: threadOf(from) };
        writeFileSync(r, [JSON.stringify(header), ...rest].join("\n"));
        return [r];
      }
      case "truncate": {
        const r = pickOf(plain(), pick);
        if (!r) return [];
        truncateSync(r, Math.floor(statSync(r).size / 2));
        return [r];
      }
      case "stray": {
        const path = join(root, "sessions", "2026", `stray-${pick}.txt`);
        mkdirSync(dirname(path), { recursive: true });
        writeFileSync(path, "not a rollout\n");
        return [path];
      }
    }
  }
  return { root, apply };
}

describe("a watched Codex store, read again only where it changed", () => {
  itFollowsEveryChange(
    "codex",
    stepArbOf(KINDS),
    newStore,
    { ideal: 30, watched: 15 },
    {
      scan: scanCodexRoot,
      rescanChanged: rescanCodexChanged,
    },
  );
});

describe("what a change costs", () => {
  it("an append to a subagent's rollout reads its session again and reuses every other record", () => {
    const { root } = newStore("cost");
    const before = scanCodexRoot(root);
    const owner = before.records.find((r) => r.bundle?.some((p) => p.endsWith(".jsonl")))!;
    const subagent = owner.bundle!.find((p) => p.endsWith(".jsonl"))!;
    appendFileSync(subagent, `${JSON.stringify({ type: "event_msg", payload: { type: "x" } })}\n`);
    const after = rescanCodexChanged(root, before, [subagent])!;
    const changed = after.records.filter((r, i) => r !== before.records[i]);
    expect(changed.map((r) => r.id)).toEqual([owner.id]);
    expect(changed[0]!.messageCount).toBe(owner.messageCount + 1);
    expect(changed[0]!.family).toBe(owner.family);
  });

  it("Codex's own files (logs, history, databases) change nothing and read nothing", () => {
    const { root, apply } = newStore("own");
    const before = scanCodexRoot(root);
    const touched = [0, 1, 2].flatMap((other) => apply({ kind: "codex-own", pick: 0, other }));
    expect(rescanCodexChanged(root, before, touched)).toBe(before);
  });

  it("a new rollout, a rename or a rewritten header is not placed: the store is scanned whole", () => {
    for (const kind of ["new-rollout", "rename", "rewrite-header", "delete"] as const) {
      const { root, apply } = newStore(`whole-${kind}`);
      const before = scanCodexRoot(root);
      const touched = apply({ kind, pick: 2, other: 1 });
      expect(touched.length, kind).toBeGreaterThan(0);
      expect(rescanCodexChanged(root, before, touched), kind).toBeUndefined();
    }
  });
});
