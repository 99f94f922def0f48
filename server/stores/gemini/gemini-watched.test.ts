// A watched Gemini CLI store: the server reads again only the sessions a change touched
// (rescanGeminiChanged), and that must equal a fresh scan after any sequence of what Gemini CLI,
// its user and other programs do — appends to chats, logs, tool outputs and subagents' chats, new
// files in a session's folders, new and deleted chats and parts, a new subagent, a chat that names
// another session, truncations, a changed project index, and Gemini's own files that are no
// session's. Once with the paths each step touched, once with the real tree watcher's events.
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { writeGeminiStore } from "../../../test-support/gemini-store.js";
import {
  entriesOf,
  filesUnder,
  itFollowsEveryChange,
  pickOf,
  type Step,
  stepArbOf,
} from "../../../test-support/adapter-steps.js";
import { rescanGeminiChanged, scanGeminiRoot } from "./gemini-store.js";

const work = mkdtempSync(join(tmpdir(), "sr-gemini-watched-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const KINDS = [
  "append-chat",
  "append-part",
  "new-file-in-part",
  "new-chat",
  "delete-chat",
  "delete-part-file",
  "gemini-own",
  "projects-json",
  "new-subagent",
  "other-session",
  "truncate",
  "swap-kind",
  "other-folder",
] as const;
type Kind = (typeof KINDS)[number];

function newStore(name: string) {
  const { root } = writeGeminiStore(join(work, name));
  const tmp = join(root, "tmp");
  const projects = () => readdirSync(tmp).filter((p) => statSync(join(tmp, p)).isDirectory());
  const chats = () =>
    projects()
      .flatMap((p) => filesUnder(join(tmp, p, "chats")))
      .filter((f) => /\/chats\/session-[^/]+\.jsonl?$/.test(f));
  /** Files of sessions' parts: subagents' chats, logs, tool outputs, a session's own folder. */
  const partFiles = () =>
    projects().flatMap((p) =>
      filesUnder(join(tmp, p)).filter(
        (f) =>
          /\/chats\/[^/]+\/[^/]+$/.test(f) ||
          /\/logs\/session-[^/]+\.jsonl$/.test(f) ||
          /\/tool-outputs\/session-[^/]+\//.test(f) ||
          /\/tmp\/[^/]+\/[0-9a-f]{8}-[0-9a-f-]{27}\//.test(f),
      ),
    );
  const message = (text: string) =>
    `${JSON.stringify({ id: `m-${text.length}`, timestamp: new Date().toISOString(), type: "user", content: [{ text }] })}\n`;
  let made = 0;
  /** Subagents whose log was written before their chat. */
  const early: string[] = [];

  function apply({ kind, pick, other }: Step<Kind>): string[] {
    switch (kind) {
      case "append-chat": {
        const c = pickOf(
          chats().filter((f) => f.endsWith(".jsonl")),
          pick,
        );
        if (!c) return [];
        appendFileSync(c, message(`more ${pick}`));
        return [c];
      }
      case "append-part": {
        const f = pickOf(partFiles(), pick);
        if (!f) return [];
        appendFileSync(f, `written ${pick}\n`);
        return [f];
      }
      case "new-file-in-part": {
        const f = pickOf(
          partFiles().filter((p) => !/\/chats\//.test(p)),
          pick,
        );
        if (!f) return [];
        const path = join(dirname(f), `added-${made++}.txt`);
        writeFileSync(path, "a new file in a session's part\n");
        return [path];
      }
      case "new-chat": {
        const p = pickOf(projects(), pick)!;
        const id = `0000${String(++made).padStart(4, "0")}-0000-4000-8000-000000000000`;
        const path = join(tmp, p, "chats", `session-2026-03-02T08-00-${id.slice(0, 8)}.jsonl`);
        mkdirSync(dirname(path), { recursive: true });
        writeFileSync(
          path,
          `${JSON.stringify({ sessionId: id, projectHash: "x", startTime: "2026-03-02T08:00:00.000Z", lastUpdated: "2026-03-02T08:00:00.000Z", kind: "main" })}\n${message("hello")}`,
        );
        return [path];
      }
      case "delete-chat": {
        const c = pickOf(chats(), pick);
        if (!c) return [];
        rmSync(c);
        return [c];
      }
      case "delete-part-file": {
        const f = pickOf(partFiles(), pick);
        if (!f) return [];
        rmSync(f);
        return [f];
      }
      case "gemini-own": {
        const p = pickOf(projects(), pick)!;
        const path = pickOf(
          [
            join(root, "settings.json"),
            join(root, "history", p, "x"),
            join(tmp, p, "logs.json"),
            join(tmp, p, "shell_history"),
            join(tmp, p, "checkpoints", "c.json"),
            join(tmp, p, "memory", "m.md"),
          ],
          other,
        )!;
        mkdirSync(dirname(path), { recursive: true });
        appendFileSync(path, `{"n":${pick}}\n`);
        return [path];
      }
      case "projects-json": {
        // A project forgotten by the registry: its chats' namespace is now the folder's name (or its marker's).
        const path = join(root, "projects.json");
        const registry = JSON.parse(readFileSync(path, "utf8")) as { projects: Record<string, string> };
        const keys = Object.keys(registry.projects);
        const key = pickOf(keys, pick);
        if (key === undefined) return [];
        delete registry.projects[key];
        writeFileSync(path, JSON.stringify(registry));
        return [path];
      }
      case "new-subagent": {
        // A subagent's chat in a session's `chats/<id>/`, with its log — sometimes the log first,
        // in a batch of its own (an orphaned part until the chat comes).
        const c = pickOf(
          chats().filter((f) => f.endsWith(".jsonl")),
          pick,
        );
        if (!c) return [];
        const first = JSON.parse(readFileSync(c, "utf8").split("\n")[0]!) as { sessionId?: string };
        if (!first.sessionId) return [];
        const project = dirname(dirname(c));
        const logOf = (sub: string) => join(project, "logs", `session-${sub}.jsonl`);
        const waiting = early.find((sub) => existsSync(logOf(sub)) && logOf(sub).startsWith(`${project}/`));
        const sub = waiting ?? `sub-${++made}`;
        const touched: string[] = [];
        if (!waiting) {
          mkdirSync(dirname(logOf(sub)), { recursive: true });
          writeFileSync(logOf(sub), message("subagent log"));
          touched.push(logOf(sub));
          if (other % 3 === 0) {
            early.push(sub);
            return touched;
          }
        } else early.splice(early.indexOf(sub), 1);
        const chat = join(project, "chats", first.sessionId.replace(/[^a-zA-Z0-9_-]/g, "_"), `${sub}.jsonl`);
        mkdirSync(dirname(chat), { recursive: true });
        writeFileSync(
          chat,
          `${JSON.stringify({ sessionId: sub, projectHash: "x", startTime: "2026-03-02T08:00:00.000Z", kind: "subagent" })}\n`,
        );
        return [...touched, chat];
      }
      case "other-session": {
        // The chat's first line now names another session (what a copy over it would do).
        const c = pickOf(
          chats().filter((f) => f.endsWith(".jsonl")),
          pick,
        );
        const o = pickOf(
          chats().filter((f) => f.endsWith(".jsonl") && f !== c),
          other,
        );
        if (!c || !o) return [];
        const [line, ...rest] = readFileSync(c, "utf8").split("\n");
        const oFirst = readFileSync(o, "utf8").split("\n")[0]!;
        let header: Record<string, unknown>, theirs: Record<string, unknown>;
        try {
          header = JSON.parse(line!) as Record<string, unknown>;
          theirs = JSON.parse(oFirst) as Record<string, unknown>;
        } catch {
          return [];
        }
        if (typeof theirs.sessionId !== "string") return [];
        writeFileSync(c, [JSON.stringify({ ...header, sessionId: theirs.sessionId }), ...rest].join("\n"));
        return [c];
      }
      case "swap-kind": {
        // A log replaced by a folder of its name, a tool-outputs or subagents' folder by a file.
        const parts = projects().flatMap((p) => [
          ...entriesOf(join(tmp, p, "logs"))
            .filter((e) => e.name.startsWith("session-"))
            .map((e) => join(tmp, p, "logs", e.name)),
          ...entriesOf(join(tmp, p, "tool-outputs"))
            .filter((e) => e.name.startsWith("session-"))
            .map((e) => join(tmp, p, "tool-outputs", e.name)),
          ...entriesOf(join(tmp, p, "chats"))
            .filter((e) => e.isDirectory())
            .map((e) => join(tmp, p, "chats", e.name)),
        ]);
        const part = pickOf(parts, pick);
        if (!part) return [];
        const wasFolder = statSync(part).isDirectory();
        rmSync(part, { recursive: true });
        if (wasFolder) writeFileSync(part, "a file where the folder was\n");
        else mkdirSync(part);
        return [part];
      }
      case "other-folder": {
        // A folder in a project named after no session (no scan reads it), or after an id Gemini makes (an orphan).
        const p = pickOf(projects(), pick)!;
        const name =
          other % 2 === 0
            ? `notes-${++made}`
            : `0000${String(++made).padStart(4, "0")}-0000-4000-8000-000000000001`;
        const path = join(tmp, p, name, "plan.md");
        mkdirSync(dirname(path), { recursive: true });
        writeFileSync(path, "# plan\n");
        return [path];
      }
      case "truncate": {
        const c = pickOf(chats(), pick);
        if (!c) return [];
        truncateSync(c, Math.floor(statSync(c).size / 2));
        return [c];
      }
    }
  }
  return { root, apply, chats, partFiles };
}

describe("a watched Gemini CLI store, read again only where it changed", () => {
  itFollowsEveryChange(
    "gemini",
    stepArbOf(KINDS),
    newStore,
    { ideal: 40, watched: 20 },
    {
      scan: scanGeminiRoot,
      rescanChanged: rescanGeminiChanged,
    },
  );
});

describe("what a change costs", () => {
  it("an append to a session's activity log reads that session again and reuses every other record", () => {
    const store = newStore("cost");
    const before = scanGeminiRoot(store.root);
    const owner = before.records.find(
      (r) => r.id.startsWith("gemini:") && r.bundle?.some((p) => /\/logs\/session-/.test(p)),
    )!;
    const log = owner.bundle!.find((p) => /\/logs\/session-/.test(p))!;
    appendFileSync(log, "more\n");
    const after = rescanGeminiChanged(store.root, before, [log])!;
    const changed = after.records.filter((r, i) => r !== before.records[i]);
    expect(changed.map((r) => r.id)).toEqual([owner.id]);
    expect(changed[0]!.sizeBytes).toBe(owner.sizeBytes + "more\n".length);
  });

  it("Gemini's own files (settings, history, logs.json, checkpoints, memory) change nothing and read nothing", () => {
    const store = newStore("own");
    const before = scanGeminiRoot(store.root);
    const touched = [0, 1, 2, 3, 4, 5].flatMap((other) =>
      store.apply({ kind: "gemini-own", pick: 0, other }),
    );
    expect(touched.map((p) => basename(p))).toContain("logs.json");
    expect(rescanGeminiChanged(store.root, before, touched)).toBe(before);
  });

  it("a subagent's chat that comes after its log (an orphan till then) is not placed in its parent's folder", () => {
    const store = newStore("late-subagent");
    const parent = scanGeminiRoot(store.root).records.find((r) =>
      r.bundle?.some((p) => /\/chats\/[^/]+$/.test(p) && statSync(p).isDirectory()),
    )!;
    const folder = parent.bundle!.find((p) => /\/chats\/[^/]+$/.test(p) && statSync(p).isDirectory())!;
    const log = join(dirname(dirname(folder)), "logs", "session-late-sub.jsonl");
    writeFileSync(log, "subagent log\n");
    const before = scanGeminiRoot(store.root);
    expect(before.records.some((r) => r.path === log)).toBe(true); // an orphan
    const chat = join(folder, "late-sub.jsonl");
    writeFileSync(chat, `${JSON.stringify({ sessionId: "late-sub", kind: "subagent" })}\n`);
    expect(rescanGeminiChanged(store.root, before, [chat])).toBeUndefined();
    // The whole scan gives the log to the parent.
    const whole = scanGeminiRoot(store.root);
    expect(whole.records.find((r) => r.id === parent.id)!.bundle).toContain(log);
  });

  it("a new chat, a new subagent, a changed registry or a chat naming another session is scanned whole", () => {
    for (const kind of [
      "new-chat",
      "new-subagent",
      "projects-json",
      "other-session",
      "delete-chat",
    ] as const) {
      const store = newStore(`whole-${kind}`);
      const before = scanGeminiRoot(store.root);
      // The first pick that applies (a headerless chat names no session to copy, say).
      let touched: string[] = [];
      for (let pick = 0; touched.length === 0 && pick < 10; pick++)
        touched = store.apply({ kind, pick, other: 1 });
      expect(touched.length, kind).toBeGreaterThan(0);
      expect(rescanGeminiChanged(store.root, before, touched), kind).toBeUndefined();
    }
  });
});
