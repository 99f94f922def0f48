// Property: only what is recognised as a session can ever be a record, a candidate, or moved.
// Random trees are written to disk — a pi store, an agentsh store and a workspace store, mixing
// sessions with everything that looks like one (files without a header, names almost like pi's,
// `.jsonl` files one folder too deep, folders named like session files, FIFOs, symlinks out of the
// store to real sessions elsewhere, `llm-requests.jsonl` as a link, a folder or a FIFO, metadata
// missing, broken or linked) — and an oracle computes, from the tree's description alone, which
// paths are sessions. The scan must find exactly those; a random policy's plan, and the engine
// handed every record id plus bogus references (non-session paths and their path-derived ids,
// `../` tricks, ids of folders that are not sessions, ids of the sessions the links point to), may
// move only those; everything else, the folder the links point into included, stays byte-identical.
import { spawnSync } from "node:child_process";
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ConfigSchema, EVICTION_ORDERS } from "../../shared/config.js";
import { writeConfigFile } from "../../test-support/config-file.js";
import { writeSession } from "../../test-support/pi-store.js";
import { snapshotTree } from "../../test-support/tree-snapshot.js";
import { softDelete } from "../delete/deletion-engine.js";
import { gatherPlanInputs, planFor } from "../plan/plan-inputs.js";
import { pathDerivedId } from "../stores/pi/pi-record.js";
import { piStores } from "../../test-support/pi-stores.js";

const RUNS = { numRuns: 30 };
const DAY = 86_400_000;

// ── The tree's description ──────────────────────────────────────────────────────────────────────

/** How a file is named: as pi names sessions, almost so (no milliseconds), another `.jsonl`, or not `.jsonl` at all. */
type FileName = "pi-name" | "almost-pi-name" | "other-jsonl" | "not-jsonl";
/** What the first line is: pi's session header, or anything else. */
type Content = "header" | "no-header" | "empty" | "text";
/** Where a symlink points: real sessions outside the store, in a pi cwd folder, flat, or as folders. */
type LinkTarget = "outside-cwd-folder" | "outside-session" | "outside-agentsh" | "outside-workspace";

interface FileNode {
  type: "file";
  name: FileName;
  content: Content;
  daysAgo: number;
}
interface LinkNode {
  type: "link";
  name: FileName | "cwd-folder";
  to: LinkTarget;
}
interface FifoNode {
  type: "fifo";
  name: FileName;
}
/** A folder in a pi store: pi's `--cwd--` kind, a plain one, or one named like a session file. */
interface PiFolder {
  type: "folder";
  name: "cwd-folder" | "plain" | "session-like";
  children: Array<FileNode | LinkNode | FifoNode | PiFolder>;
}
/** A folder in an agentsh or workspace store, with the two marks either store looks for. */
interface MarkedFolder {
  type: "folder";
  log: "file" | "symlink" | "folder" | "fifo" | "none";
  metadata: "valid" | "bad-json" | "missing-field" | "bad-date" | "symlink" | "folder" | "none";
  files: FileNode[];
  /** A subfolder with both marks: a session one level too deep. */
  nested: boolean;
  /** A symlink inside, to a session outside (never followed, and unchanged when the folder moves). */
  innerLink: boolean;
  daysAgo: number;
}
type PiEntry = FileNode | LinkNode | FifoNode | PiFolder;
type FolderStoreEntry = FileNode | LinkNode | FifoNode | MarkedFolder;

const daysAgoArb = fc.constantFrom(0, 3, 400); // 0: inside the grace window (in use)
const fileArb: fc.Arbitrary<FileNode> = fc.record({
  type: fc.constant("file" as const),
  name: fc.constantFrom<FileName>("pi-name", "almost-pi-name", "other-jsonl", "not-jsonl"),
  content: fc.constantFrom<Content>("header", "no-header", "empty", "text"),
  daysAgo: daysAgoArb,
});
const linkArb: fc.Arbitrary<LinkNode> = fc.record({
  type: fc.constant("link" as const),
  name: fc.constantFrom<LinkNode["name"]>("pi-name", "other-jsonl", "cwd-folder"),
  to: fc.constantFrom<LinkTarget>(
    "outside-cwd-folder",
    "outside-session",
    "outside-agentsh",
    "outside-workspace",
  ),
});
const fifoArb: fc.Arbitrary<FifoNode> = fc.record({
  type: fc.constant("fifo" as const),
  name: fc.constantFrom<FileName>("pi-name", "other-jsonl"),
});
const leafArb = fc.oneof({ weight: 3, arbitrary: fileArb }, linkArb, fifoArb);
const folderName = fc.constantFrom<PiFolder["name"]>("cwd-folder", "cwd-folder", "plain", "session-like");
/** Two levels of folders at most: a `--…--` folder inside one is already too deep to hold sessions. */
const piFolderArb: fc.Arbitrary<PiFolder> = fc.record({
  type: fc.constant("folder" as const),
  name: folderName,
  children: fc.array(
    fc.oneof(
      { weight: 4, arbitrary: leafArb },
      fc.record({
        type: fc.constant("folder" as const),
        name: folderName,
        children: fc.array(leafArb, { maxLength: 3 }),
      }),
    ),
    { maxLength: 5 },
  ),
});
const piEntry: fc.Arbitrary<PiEntry> = fc.oneof(
  { weight: 3, arbitrary: fileArb },
  { weight: 3, arbitrary: piFolderArb },
  linkArb,
  fifoArb,
);
const markedFolderArb: fc.Arbitrary<MarkedFolder> = fc.record({
  type: fc.constant("folder" as const),
  log: fc.constantFrom<MarkedFolder["log"]>("file", "file", "symlink", "folder", "fifo", "none"),
  metadata: fc.constantFrom<MarkedFolder["metadata"]>(
    "valid",
    "valid",
    "bad-json",
    "missing-field",
    "bad-date",
    "symlink",
    "folder",
    "none",
  ),
  files: fc.array(fileArb, { maxLength: 2 }),
  nested: fc.boolean(),
  innerLink: fc.boolean(),
  daysAgo: daysAgoArb,
});
const folderStoreEntry: fc.Arbitrary<FolderStoreEntry> = fc.oneof(
  { weight: 4, arbitrary: markedFolderArb },
  fileArb,
  linkArb,
  fifoArb,
);
const treeArb = fc.record({
  pi: fc.array(piEntry, { minLength: 3, maxLength: 10 }),
  agentsh: fc.array(folderStoreEntry, { minLength: 2, maxLength: 6 }),
  workspace: fc.array(folderStoreEntry, { minLength: 2, maxLength: 6 }),
});
type Tree = typeof treeArb extends fc.Arbitrary<infer T> ? T : never;

/** ConfigSchema-valid retention and quota settings, the aggressive ones (everything at 0 or 1) often. */
const policyArb = fc.oneof(
  fc.constant({
    quota: { maxSessionCount: 1, maxTotalSizeBytes: 1 },
    retention: { maxAgeDays: 1, minKeepRecentCount: 0, keepLastPerNamespace: 0, allowEmptyStore: true },
    activity: { graceMinutes: 0 },
  }),
  fc
    .record({
      maxSessionCount: fc.option(fc.integer({ min: 1, max: 6 }), { nil: null }),
      maxTotalSizeBytes: fc.option(fc.integer({ min: 1, max: 5000 }), { nil: null }),
      maxAgeDays: fc.option(fc.integer({ min: 1, max: 500 }), { nil: null }),
      minKeepRecentCount: fc.integer({ min: 0, max: 3 }),
      keepLastPerNamespace: fc.integer({ min: 0, max: 1 }),
      eviction: fc.constantFrom(...EVICTION_ORDERS),
      allowEmptyStore: fc.boolean(),
      graceMinutes: fc.constantFrom(0, 1, 10),
    })
    .map(({ maxSessionCount, maxTotalSizeBytes, graceMinutes, ...retention }) => ({
      quota: { maxSessionCount, maxTotalSizeBytes },
      retention,
      activity: { graceMinutes },
    })),
);

// ── On disk, and the oracle ─────────────────────────────────────────────────────────────────────

const LOG = "llm-requests.jsonl";
const METADATA = ".metadata.json";

/** Sessions outside the stores, for the links to point at: never found, never moved, never changed. */
function writeOutside(dir: string) {
  const cwdFolder = join(dir, "pi");
  const sessions = [
    writeSession(cwdFolder, "/outside/project", 1),
    writeSession(cwdFolder, "/outside/project", 2),
  ];
  const files = sessions.map((s) => s.getSessionFile()!);
  const stamp = new Date(Date.now() - 400 * DAY).toISOString();
  const metadata = JSON.stringify({ created_at: stamp, updated_at: stamp });
  mkdirSync(join(dir, "agentsh-session"));
  writeFileSync(join(dir, "agentsh-session", LOG), '{"request":1}\n');
  mkdirSync(join(dir, "workspace"));
  writeFileSync(join(dir, "workspace", METADATA), metadata);
  writeFileSync(join(dir, METADATA), metadata);
  writeFileSync(join(dir, LOG), '{"request":1}\n');
  const targets: Record<LinkTarget, string> = {
    "outside-cwd-folder": dirname(files[0]!),
    "outside-session": files[0]!,
    "outside-agentsh": join(dir, "agentsh-session"),
    "outside-workspace": join(dir, "workspace"),
  };
  return { targets, sessionFiles: files, sessionIds: sessions.map((s) => s.getSessionId()) };
}

/**
 * Writes a tree and says which of its paths are sessions. The oracle is the recognition rules,
 * stated here again and applied to the description alone: a pi session is a `.jsonl` regular file
 * directly in the root or in a `--…--` folder of it, whose first line is pi's header or whose name
 * is pi's `<time>_<uuid>.jsonl`; an agentsh session is a folder directly in the root holding
 * `llm-requests.jsonl` as a regular file; a workspace is a folder directly in the root whose
 * `.metadata.json` is a regular file with valid dates. Nothing else — whatever it looks like.
 */
function materialise(base: string, tree: Tree) {
  const outside = writeOutside(mkdirOf(join(base, "outside")));
  const roots = {
    pi: mkdirOf(join(base, "pi")),
    agentsh: mkdirOf(join(base, "agentsh")),
    workspace: mkdirOf(join(base, "workspace")),
  };
  const sessions = new Set<string>();
  /** Every path in the stores that is not a session (files, folders, links, FIFOs): bogus references. */
  const others: string[] = [];
  let n = 0;
  const uuid = () => `00000000-0000-4000-8000-${String(++n).padStart(12, "0")}`;
  const when = (daysAgo: number) => new Date(Date.now() - daysAgo * DAY);

  const fileName = (name: FileName | "cwd-folder", id: string) =>
    ({
      "pi-name": `2025-03-01T10-00-00-000Z_${id}.jsonl`,
      "almost-pi-name": `2025-03-01T10-00-00Z_${id}.jsonl`,
      "other-jsonl": `events-${id.slice(-4)}.jsonl`,
      "not-jsonl": `2025-03-01T10-00-00-000Z_${id}.jsonl.txt`,
      "cwd-folder": `--link-${id.slice(-4)}--`,
    })[name];
  const writeFile = (dir: string, node: FileNode) => {
    const id = uuid();
    const path = join(dir, fileName(node.name, id));
    const header = {
      type: "session",
      version: 3,
      id,
      timestamp: when(node.daysAgo).toISOString(),
      cwd: "/project",
    };
    const text = {
      header: `${JSON.stringify(header)}\n{"type":"message","message":{"role":"user","content":"hi"}}\n`,
      "no-header": '{"event":"click"}\n',
      empty: "",
      text: "hello\n",
    }[node.content];
    writeFileSync(path, text);
    utimesSync(path, when(node.daysAgo), when(node.daysAgo));
    return path;
  };
  const isSessionFile = (node: FileNode) =>
    node.name !== "not-jsonl" && (node.content === "header" || node.name === "pi-name");
  /** A link, a FIFO or a file: the path, and whether it is a session where it is (`sessionPlace`). */
  const writeLeaf = (dir: string, node: FileNode | LinkNode | FifoNode, sessionPlace: boolean) => {
    let path: string;
    if (node.type === "file") path = writeFile(dir, node);
    else if (node.type === "link") {
      path = join(dir, fileName(node.name, uuid()));
      symlinkSync(outside.targets[node.to], path);
    } else {
      path = join(dir, fileName(node.name, uuid()));
      expect(spawnSync("mkfifo", [path]).status).toBe(0);
    }
    if (sessionPlace && node.type === "file" && isSessionFile(node)) sessions.add(path);
    else others.push(path);
  };
  const writePiFolder = (dir: string, node: PiFolder, top: boolean) => {
    const id = uuid();
    const name = {
      "cwd-folder": `--project-${id.slice(-4)}--`,
      plain: `notes-${id.slice(-4)}`,
      "session-like": fileName("pi-name", id),
    }[node.name];
    const path = mkdirOf(join(dir, name));
    others.push(path);
    // Only a `--…--` folder directly in the root holds sessions; deeper ones never do.
    const holdsSessions = top && node.name === "cwd-folder";
    for (const child of node.children)
      if (child.type === "folder") writePiFolder(path, child, false);
      else writeLeaf(path, child, holdsSessions);
  };
  for (const entry of tree.pi)
    if (entry.type === "folder") writePiFolder(roots.pi, entry, true);
    else writeLeaf(roots.pi, entry, true);

  const writeMarkedFolder = (root: string, kind: "agentsh" | "workspace", node: MarkedFolder) => {
    const path = mkdirOf(join(root, `s-${uuid().slice(-4)}`));
    const log = join(path, LOG);
    if (node.log === "file") writeFileSync(log, '{"request":1}\n');
    else if (node.log === "symlink") symlinkSync(join(outside.targets["outside-agentsh"], LOG), log);
    else if (node.log === "folder") mkdirSync(log);
    else if (node.log === "fifo") expect(spawnSync("mkfifo", [log]).status).toBe(0);
    const metadata = join(path, METADATA);
    const stamp = when(node.daysAgo).toISOString();
    const texts: Partial<Record<MarkedFolder["metadata"], string>> = {
      valid: JSON.stringify({ created_at: stamp, updated_at: stamp }),
      "bad-json": "{ created_at: yesterday",
      "missing-field": JSON.stringify({ created_at: stamp }),
      "bad-date": JSON.stringify({ created_at: stamp, updated_at: "last tuesday" }),
    };
    const text = texts[node.metadata];
    if (text !== undefined) writeFileSync(metadata, text);
    else if (node.metadata === "symlink")
      symlinkSync(join(outside.targets["outside-workspace"], METADATA), metadata);
    else if (node.metadata === "folder") mkdirSync(metadata);
    for (const file of node.files) writeFile(path, file);
    if (node.nested) {
      const inner = mkdirOf(join(path, "inner"));
      writeFileSync(join(inner, LOG), '{"request":1}\n');
      writeFileSync(join(inner, METADATA), texts.valid!);
    }
    if (node.innerLink) symlinkSync(outside.targets["outside-session"], join(path, "linked.jsonl"));
    // Everything inside is as old as the folder: a folder session's age is its newest mtime.
    age(path, when(node.daysAgo));
    // What is inside a folder is never a session of its own, whether or not the folder is one.
    for (const name of readdirSync(path, { recursive: true, encoding: "utf8" }))
      others.push(join(path, name));
    const recognised = kind === "agentsh" ? node.log === "file" : node.metadata === "valid";
    if (recognised) sessions.add(path);
    else others.push(path);
  };
  for (const kind of ["agentsh", "workspace"] as const)
    for (const entry of tree[kind])
      if (entry.type === "folder") writeMarkedFolder(roots[kind], kind, entry);
      else writeLeaf(roots[kind], entry, false);

  return { roots, outside, sessions, others };
}

/** Sets the times of a folder and everything in it, never through a symlink (its target is not ours). */
function age(path: string, time: Date) {
  const stat = lstatSync(path);
  if (stat.isSymbolicLink()) return;
  if (stat.isDirectory()) for (const name of readdirSync(path)) age(join(path, name), time);
  utimesSync(path, time, time);
}

const mkdirOf = (path: string) => {
  mkdirSync(path, { recursive: true });
  return path;
};

// ── The property ────────────────────────────────────────────────────────────────────────────────

describe("recognition", () => {
  it("only the oracle's sessions are records, candidates, or ever moved — whatever else is there", async () => {
    await fc.assert(
      fc.asyncProperty(treeArb, policyArb, async (tree, policy) => {
        const base = realpathSync(mkdtempSync(join(tmpdir(), "sr-recognition-")));
        const { roots, outside, sessions, others } = materialise(base, tree);
        expect(ConfigSchema.safeParse(policy).success).toBe(true);
        writeConfigFile({ ...policy, deletion: { target: "quarantine" } });
        const stores = {
          flagStores: [
            { kind: "pi" as const, root: roots.pi },
            { kind: "agentsh" as const, root: roots.agentsh },
            { kind: "workspace" as const, root: roots.workspace },
          ],
        };

        // The scan: exactly the oracle's sessions.
        const inputs = await gatherPlanInputs(stores);
        const records = inputs.report.sessions;
        expect(records.map((r) => r.path).sort()).toEqual([...sessions].sort());

        // The plan under the random policy: candidates among them.
        expect(inputs.config.ok).toBe(true);
        if (!inputs.config.ok) return;
        const byId = new Map(records.map((r) => [r.id, r.path]));
        for (const candidate of planFor({ ...inputs, config: inputs.config }).candidates)
          expect(sessions.has(byId.get(candidate.id)!)).toBe(true);

        // The engine, handed every record and every bogus reference we can think of.
        const bogus = [
          ...others.flatMap((path) => [
            path,
            pathDerivedId(path),
            `agentsh:${basename(path)}`,
            `workspace:${basename(path)}`,
          ]),
          ...outside.sessionIds,
          ...outside.sessionFiles.flatMap((path) => [path, pathDerivedId(path)]),
          `${roots.pi}/../outside/pi`,
          `agentsh:../outside/agentsh-session`,
          `workspace:../outside/workspace`,
          `agentsh:s-0001/../../outside/agentsh-session`,
          `workspace:${roots.workspace}/../outside/workspace`,
        ];
        const watched = [roots.pi, roots.agentsh, roots.workspace, join(base, "outside")];
        const before = snapshotTree(watched);
        const result = await softDelete(
          {
            items: [...records.map((r) => ({ id: r.id })), ...bogus.map((id) => ({ id }))],
            stores: [
              ...piStores(roots.pi),
              { kind: "agentsh", root: roots.agentsh },
              { kind: "workspace", root: roots.workspace },
            ],
            orphanedMeta: [...others, ...outside.sessionFiles],
            via: "selection",
          },
          { actor: "cli" },
        );
        const moved = result.moved.map((m) => m.path);
        for (const path of moved) expect(sessions.has(path), path).toBe(true);
        // Every change on disk is a moved session leaving, with what is inside it; nothing else.
        const after = snapshotTree(watched);
        const isMoved = (path: string) => moved.some((m) => path === m || path.startsWith(`${m}/`));
        const left = (path: string) => isMoved(path) && !after.has(path);
        const changed = [...before].filter(([path, was]) => after.get(path) !== was && !left(path));
        const appeared = [...after.keys()].filter((path) => !before.has(path));
        expect([...changed.map(([path]) => path), ...appeared]).toEqual([]);
        for (const path of moved) expect(after.has(path), path).toBe(false);
      }),
      RUNS,
    );
  });
});
