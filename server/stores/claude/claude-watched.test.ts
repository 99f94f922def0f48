// A watched Claude Code store: the server measures again only the sessions a change touched
// (rescanClaudeChanged), and that must equal a fresh scan after any sequence of what Claude Code,
// its user and other programs do — appends to transcripts, session folders and side files, new and
// deleted sessions and parts, forks and continuations appearing in a transcript, truncations,
// rewritten legacy subagent files, Claude's own files that are no session's, and what 2.1.332 does:
// `/cd` moving a session to another project folder (setting aside what is in its way), a transcript
// rewritten shorter through a temporary file renamed over it, a compaction's temporary file left
// behind, a session archived. Once with the paths each step touched, once with the real tree
// watcher's events.
import {
  appendFileSync,
  copyFileSync,
  existsSync,
  lstatSync,
  readFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { writeClaudeStore } from "../../../test-support/claude-store.js";
import { writeClaudeTranscript } from "../../../test-support/claude-transcript.js";
import {
  filesUnder,
  itFollowsEveryChange,
  pickOf,
  type Step,
  stepArbOf,
} from "../../../test-support/adapter-steps.js";
import { CLAUDE_SIDE_FOLDERS } from "./location.js";
import { rescanClaudeChanged, scanClaudeRoot } from "./claude-store.js";

const work = mkdtempSync(join(tmpdir(), "sr-claude-watched-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** A file beside a transcript, named after its session (2.1.332). */
const SIBLING = /^[0-9a-f-]{36}(?:\.(?:ccr-tip|precompact|desktop-released)\.json|-\d+\.cast)$/;

const KINDS = [
  "append-transcript",
  "append-part",
  "new-file-in-part",
  "new-session",
  "delete-transcript",
  "delete-part",
  "new-side-part",
  "claude-own",
  "fork-line",
  "continued",
  "truncate",
  "legacy-rewrite",
  "swap-kind",
  "debug-latest",
  "rename",
  "duplicate",
  "symlink",
  "stray",
  "relocate",
  "rewrite",
  "rewrite-left",
  "archive",
] as const;
type Kind = (typeof KINDS)[number];

/** A Claude Code store from the shared fixture, and the steps that change it. */
function newStore(name: string) {
  const home = join(work, name);
  const { root } = writeClaudeStore(home);
  const projects = join(root, "projects");
  const projectFolders = () => readdirSync(projects).filter((p) => statSync(join(projects, p)).isDirectory());
  const transcripts = () =>
    projectFolders()
      .flatMap((p) => readdirSync(join(projects, p)).map((n) => join(projects, p, n)))
      .filter(
        (path) =>
          UUID.test(
            path
              .split("/")
              .at(-1)!
              .replace(/\.jsonl$/, ""),
          ) && path.endsWith(".jsonl"),
      )
      .sort();
  /** Files of sessions' folders and side folders: what Claude Code writes beside a transcript. */
  const partFiles = () => [
    ...projectFolders().flatMap((p) =>
      readdirSync(join(projects, p))
        .filter((n) => UUID.test(n))
        .flatMap((n) => filesUnder(join(projects, p, n))),
    ),
    ...projectFolders().flatMap((p) =>
      readdirSync(join(projects, p))
        .filter((n) => SIBLING.test(n))
        .map((n) => join(projects, p, n)),
    ),
    ...CLAUDE_SIDE_FOLDERS.flatMap((folder) => filesUnder(join(root, folder))),
    ...filesUnder(join(root, "jobs")),
  ];
  const idOf = (transcript: string) => transcript.split("/").at(-1)!.slice(0, -".jsonl".length);
  const userLine = (sessionId: string, text: string) =>
    `${JSON.stringify({ type: "user", sessionId, cwd: "/home/dev/shop", timestamp: new Date().toISOString(), message: { role: "user", content: text } })}\n`;
  let made = 0;
  const fresh = () =>
    `0000${String(++made).padStart(4, "0")}-0000-4000-8000-${String(made).padStart(12, "0")}`;

  /** Applies the step; returns the paths it touched (what an ideal watcher would report). */
  function apply({ kind, pick, other }: Step<Kind>): string[] {
    switch (kind) {
      case "append-transcript": {
        const t = pickOf(transcripts(), pick);
        if (!t) return [];
        appendFileSync(t, userLine(idOf(t), `more ${pick}`));
        return [t];
      }
      case "append-part": {
        const f = pickOf(partFiles(), pick);
        if (!f) return [];
        appendFileSync(f, `written on ${pick}\n`);
        return [f];
      }
      case "new-file-in-part": {
        const f = pickOf(partFiles(), pick);
        if (!f) return [];
        const path = join(dirname(f), `added-${pick}-${made++}.txt`);
        writeFileSync(path, "a new file in a session's part\n");
        return [path];
      }
      case "new-session": {
        const path = writeClaudeTranscript(root, {
          id: fresh(),
          cwd: pick % 2 === 0 ? "/home/dev/shop" : "/home/dev/new",
          modified: new Date(Date.UTC(2026, 1, 1 + (pick % 20))),
        });
        return [path];
      }
      case "delete-transcript": {
        const t = pickOf(transcripts(), pick);
        if (!t) return [];
        rmSync(t);
        return [t];
      }
      case "delete-part": {
        const f = pickOf(partFiles(), pick);
        if (!f) return [];
        rmSync(f);
        return [f];
      }
      case "new-side-part": {
        const t = pickOf(transcripts(), pick);
        if (!t) return [];
        const path = join(root, "debug", `${idOf(t)}.txt`);
        mkdirSync(dirname(path), { recursive: true });
        appendFileSync(path, "[DEBUG] a new side file\n");
        return [path];
      }
      case "claude-own": {
        const path = pickOf(
          [
            join(root, "history.jsonl"),
            join(root, "settings.json"),
            join(projects, pickOf(projectFolders(), pick) ?? "x", "memory", "MEMORY.md"),
          ],
          other,
        )!;
        mkdirSync(dirname(path), { recursive: true });
        appendFileSync(path, `{"n":${pick}}\n`);
        return [path];
      }
      case "fork-line": {
        const all = transcripts();
        const t = pickOf(all, pick);
        const parent = pickOf(all, other);
        if (!t || !parent) return [];
        appendFileSync(
          t,
          `${JSON.stringify({ type: "fork-context-ref", sessionId: idOf(t), parentSessionId: idOf(parent) })}\n`,
        );
        return [t];
      }
      case "continued": {
        const t = pickOf(transcripts(), pick);
        if (!t) return [];
        // After `--continue` the same file goes on under a newer id; side files of that id are its own.
        const newer = pickOf(transcripts(), other);
        appendFileSync(t, userLine(newer && other % 2 === 0 ? idOf(newer) : fresh(), "continued"));
        return [t];
      }
      case "truncate": {
        const t = pickOf(transcripts(), pick);
        if (!t) return [];
        truncateSync(t, Math.floor(statSync(t).size / 2));
        return [t];
      }
      case "rename": {
        // A transcript moved to another project's folder (its side files stay where they are).
        const t = pickOf(transcripts(), pick);
        const to = pickOf(projectFolders(), other);
        if (!t || !to || dirname(t) === join(projects, to)) return [];
        const moved = join(projects, to, t.split("/").at(-1)!);
        renameSync(t, moved);
        return [t, moved];
      }
      case "duplicate": {
        // The same session's transcript in two project folders: one id, two files.
        const t = pickOf(transcripts(), pick);
        const to = pickOf(projectFolders(), other);
        if (!t || !to || dirname(t) === join(projects, to)) return [];
        const copy = join(projects, to, t.split("/").at(-1)!);
        copyFileSync(t, copy);
        return [copy];
      }
      case "symlink": {
        // A transcript replaced by a link to another one: never followed, reported.
        const all = transcripts();
        const t = pickOf(all, pick);
        const target = pickOf(all, other);
        if (!t || !target || t === target) return [];
        rmSync(t);
        symlinkSync(target, t);
        return [t];
      }
      case "stray": {
        // Something that is no session's file in a project's folder: reported, and written again.
        const p = pickOf(projectFolders(), pick);
        if (!p) return [];
        const path = join(projects, p, other % 2 === 0 ? "notes.txt" : "agent-orphan.jsonl");
        appendFileSync(path, `{"note":${pick}}\n`);
        return [path];
      }
      case "swap-kind": {
        // A session's folder replaced by a file of that name, or its .dir-sync.json by a folder.
        const parts = projectFolders().flatMap((p) =>
          readdirSync(join(projects, p))
            .filter((n) => UUID.test(n) || n.endsWith(".dir-sync.json"))
            .map((n) => join(projects, p, n)),
        );
        const part = pickOf(parts, pick);
        if (!part) return [];
        const wasFolder = statSync(part).isDirectory();
        rmSync(part, { recursive: true });
        if (wasFolder) writeFileSync(part, "a file where the folder was\n");
        else mkdirSync(part);
        return [part];
      }
      case "debug-latest": {
        // Claude points debug/latest at the newest session's log: a name no scan reads.
        const latest = join(root, "debug", "latest");
        mkdirSync(dirname(latest), { recursive: true });
        rmSync(latest, { force: true });
        const t = pickOf(transcripts(), pick);
        symlinkSync(t ? `${idOf(t)}.txt` : "none.txt", latest);
        return [latest];
      }
      case "relocate": {
        // `/cd`: the transcript and its folder move to another project's folder (what is in the
        // way there is set aside), and the move is stamped in the transcript.
        const t = pickOf(transcripts(), pick);
        const to = pickOf([...projectFolders(), `-home-dev-moved-${other % 3}`], other);
        if (!t || !to || dirname(t) === join(projects, to)) return [];
        const id = idOf(t);
        const into = join(projects, to);
        mkdirSync(into, { recursive: true });
        const touched = [t];
        for (const [from, name] of [
          [t, `${id}.jsonl`],
          [join(dirname(t), id), id],
        ] as const) {
          if (!existsSync(from)) continue;
          const target = join(into, name);
          if (existsSync(target)) {
            const aside = `${target}.superseded-${1_772_000_000_000 + pick}`;
            renameSync(target, aside);
            touched.push(aside);
          }
          renameSync(from, target);
          touched.push(from, target);
        }
        const moved = join(into, `${id}.jsonl`);
        appendFileSync(
          moved,
          `${JSON.stringify({ type: "relocated", sessionId: id, relocatedCwd: `/home/dev/moved-${other % 3}` })}\n`,
        );
        return touched;
      }
      case "rewrite":
      case "rewrite-left": {
        // Claude's local GC: the transcript's last lines written to a temporary file, renamed over
        // it (shorter, another inode) — or, cut short, left beside it.
        const t = pickOf(transcripts(), pick);
        if (!t) return [];
        const lines = readFileSync(t, "utf8").split("\n").filter(Boolean);
        const tmp = `${t}.compact.tmp.${(other % 0xffff).toString(16)}`;
        writeFileSync(tmp, `${lines.slice(Math.floor(lines.length / 2)).join("\n")}\n`);
        if (kind === "rewrite-left") return [tmp];
        renameSync(tmp, t);
        return [tmp, t];
      }
      case "archive": {
        // Archived from Claude's session list: `archived.json` in the session's folder.
        const t = pickOf(transcripts(), pick);
        if (!t) return [];
        const path = join(dirname(t), idOf(t), "archived.json");
        if (existsSync(dirname(path)) && !lstatSync(dirname(path)).isDirectory()) return [];
        mkdirSync(dirname(path), { recursive: true });
        writeFileSync(
          path,
          JSON.stringify({ archived: other % 2 === 0, at: new Date().toISOString(), by: "user" }),
        );
        return [path];
      }
      case "legacy-rewrite": {
        const legacy = projectFolders()
          .flatMap((p) => readdirSync(join(projects, p)).map((n) => join(projects, p, n)))
          .filter((path) => /\/agent-[^/]+\.jsonl$/.test(path));
        const f = pickOf(legacy, pick);
        const t = pickOf(transcripts(), other);
        if (!f || !t) return [];
        writeFileSync(f, userLine(idOf(t), "a subagent of another session now"));
        return [f];
      }
    }
  }
  return { root, apply };
}

describe("a watched Claude Code store, measured again only where it changed", () => {
  itFollowsEveryChange(
    "claude",
    stepArbOf(KINDS),
    newStore,
    { ideal: 40, watched: 20 },
    {
      scan: scanClaudeRoot,
      rescanChanged: rescanClaudeChanged,
    },
  );
});

describe("what a change costs", () => {
  it("an append to a known session measures that session again and reuses every other record", () => {
    const { root, apply } = newStore("cost");
    const before = scanClaudeRoot(root);
    const touched = apply({ kind: "append-transcript", pick: 0, other: 0 });
    const after = rescanClaudeChanged(root, before, touched)!;
    expect(after).toBeDefined();
    const changed = after.records.filter((r, i) => r !== before.records[i]);
    expect(changed.map((r) => r.path)).toEqual(touched);
    expect(changed[0]!.sizeBytes).toBeGreaterThan(
      before.records.find((r) => r.path === touched[0])!.sizeBytes,
    );
  });

  it("a file no scan reads (history.jsonl, a project's memory) changes nothing and measures nothing", () => {
    const { root, apply } = newStore("own");
    const before = scanClaudeRoot(root);
    const touched = [0, 1, 2].flatMap((other) => apply({ kind: "claude-own", pick: 0, other }));
    expect(rescanClaudeChanged(root, before, touched)).toBe(before);
  });

  it("a compaction's temporary file (a rewrite under way, or one a crash left) changes nothing and measures nothing", () => {
    const { root, apply } = newStore("rewrite-left");
    const before = scanClaudeRoot(root);
    const touched = apply({ kind: "rewrite-left", pick: 2, other: 7 });
    expect(touched).toEqual([expect.stringMatching(/\.jsonl\.compact\.tmp\.[0-9a-f]+$/)]);
    expect(rescanClaudeChanged(root, before, touched)).toBe(before);
  });

  it("a session archived in its folder is that session measured again, and archived", () => {
    const { root, apply } = newStore("archive");
    const before = scanClaudeRoot(root);
    // The session with a folder of its own, so that the archive is a change inside a known part.
    const pick = before.records
      .filter((r) => r.id.startsWith("claude:"))
      .map((r) => r.path)
      .sort()
      .findIndex((path) => before.records.some((r) => r.bundle?.includes(path.slice(0, -".jsonl".length))));
    expect(pick).toBeGreaterThanOrEqual(0);
    const touched = apply({ kind: "archive", pick, other: 0 });
    const after = rescanClaudeChanged(root, before, touched)!;
    expect(after).toBeDefined();
    const archived = (scan: typeof before) =>
      scan.records.filter((r) => r.archivedAt !== undefined).map((r) => r.path);
    expect(archived(after).filter((path) => !archived(before).includes(path))).toEqual([
      `${dirname(touched[0]!)}.jsonl`,
    ]);
  });

  it("a new session, a new side file or a new fork pointer is not placed: the store is scanned whole", () => {
    for (const kind of ["new-session", "fork-line", "new-side-part"] as const) {
      const { root, apply } = newStore(`whole-${kind}`);
      const before = scanClaudeRoot(root);
      const touched = apply({ kind, pick: 3, other: 1 });
      expect(touched.length, kind).toBeGreaterThan(0);
      expect(rescanClaudeChanged(root, before, touched), kind).toBeUndefined();
    }
  });

  it("a part gone is not placed either; a file gone inside a part folder is that part measured again", () => {
    const { root } = newStore("parts");
    const before = scanClaudeRoot(root);
    const owner = before.records.find(
      (r) => r.id.startsWith("claude:") && r.bundle?.some((p) => p.includes("/debug/")),
    )!;
    const folder = owner.bundle!.find((p) => p.includes("/file-history/"))!;
    const inside = filesUnder(folder)[0]!;
    const gone = statSync(inside).size;
    rmSync(inside);
    const after = rescanClaudeChanged(root, before, [inside])!;
    expect(after.records.find((r) => r.path === owner.path)!.sizeBytes).toBe(owner.sizeBytes - gone);
    const debug = owner.bundle!.find((p) => p.includes("/debug/"))!;
    rmSync(debug);
    expect(rescanClaudeChanged(root, after, [debug])).toBeUndefined();
  });
});
