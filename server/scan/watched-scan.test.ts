// A scan of only what changed (what the server does as a watcher reports paths) must equal a fresh
// scan of the whole store, after any sequence of what agents, users and other programs do to a
// store: appends (whole lines and half ones), new sessions and folders, renames, deletions (ours and
// others'), truncations, folder moves in and out, stray files and folders, symlinks, duplicates and
// pi's session index. Once with the paths each step touched (the ideal watcher), once with the real
// tree watcher's events.
import {
  appendFileSync,
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  truncateSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import type { ScanReport } from "../../shared/scan-report.js";
import { piFolder, writeSession } from "../../test-support/pi-store.js";
import { watchTree } from "../fs/tree-watcher.js";
import type { CacheEntry } from "./scan-cache.js";
import { type ScanOptions, scanStores } from "./scanner.js";

const work = mkdtempSync(join(tmpdir(), "sr-watched-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A report as a fresh scan must give it: the order of records and problems is the walk's, not a fact. */
function normalized(report: ScanReport) {
  const byPath = <T extends { path: string }>(items: readonly T[]) =>
    [...items].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const problems = [...report.problems].sort((a, b) =>
    `${a.path}\u0000${a.code}\u0000${a.message}` < `${b.path}\u0000${b.code}\u0000${b.message}` ? -1 : 1,
  );
  return {
    stores: report.stores,
    summary: report.summary,
    namespaces: byPath(report.namespaces.map((n) => ({ ...n, path: n.namespace }))),
    sessions: byPath(report.sessions).map((s) => ({ ...s, forks: s.forks && [...s.forks].sort() })),
    problems,
    orphanedMeta: report.orphanedMeta,
  };
}

const line = (text: string, n: number) =>
  JSON.stringify({
    type: "message",
    id: (0x10000000 + n).toString(16),
    parentId: null,
    timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, n % 60)).toISOString(),
    message: { role: "user", content: text, timestamp: 1_767_225_600_000 + n },
  });

/** One thing done to a store; each returns the paths it touched, as a watcher would name them. */
type Step =
  | { kind: "append"; pick: number; half: boolean }
  | { kind: "new-session"; cwd: number }
  | { kind: "rename"; pick: number; cwd: number }
  | { kind: "delete"; pick: number }
  | { kind: "truncate"; pick: number }
  | { kind: "touch"; pick: number }
  | { kind: "move-folder-out"; cwd: number }
  | { kind: "move-folder-in" }
  | { kind: "rename-folder"; cwd: number; to: number }
  | { kind: "stray-file"; cwd: number; jsonl: boolean }
  | { kind: "stray-folder"; cwd: number }
  | { kind: "symlink"; cwd: number }
  | { kind: "duplicate"; pick: number; cwd: number }
  | { kind: "meta"; pick: number; corrupt: boolean }
  | { kind: "flat-session" }
  | { kind: "replace-folder"; cwd: number; link: boolean };

const CWDS = ["/home/dev/app", "/srv/api", "/tmp/x y", "/opt/tool"];

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({ kind: fc.constant("append" as const), pick: fc.nat(), half: fc.boolean() }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("new-session" as const), cwd: fc.nat(3) }) },
  fc.record({ kind: fc.constant("rename" as const), pick: fc.nat(), cwd: fc.nat(3) }),
  fc.record({ kind: fc.constant("delete" as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant("truncate" as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant("touch" as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant("move-folder-out" as const), cwd: fc.nat(3) }),
  fc.record({ kind: fc.constant("move-folder-in" as const) }),
  fc.record({ kind: fc.constant("rename-folder" as const), cwd: fc.nat(3), to: fc.nat(3) }),
  fc.record({ kind: fc.constant("stray-file" as const), cwd: fc.nat(4), jsonl: fc.boolean() }),
  fc.record({ kind: fc.constant("stray-folder" as const), cwd: fc.nat(4) }),
  fc.record({ kind: fc.constant("symlink" as const), cwd: fc.nat(4) }),
  fc.record({ kind: fc.constant("duplicate" as const), pick: fc.nat(), cwd: fc.nat(3) }),
  fc.record({ kind: fc.constant("meta" as const), pick: fc.nat(), corrupt: fc.boolean() }),
  fc.record({ kind: fc.constant("flat-session" as const) }),
  fc.record({ kind: fc.constant("replace-folder" as const), cwd: fc.nat(3), link: fc.boolean() }),
);

/** A store, its pi index folder and a place outside it, and what the steps do to them. */
function newStore(name: string) {
  const base = mkdtempSync(join(work, `${name}-`));
  const root = join(base, "sessions");
  const metaDir = join(base, "sessions-meta");
  const outside = join(base, "outside");
  mkdirSync(root);
  mkdirSync(metaDir);
  mkdirSync(outside);
  for (const cwd of CWDS.slice(0, 2)) writeSession(root, cwd, 2);
  let counter = 0;
  const sessions = () =>
    readdirSync(root, { recursive: true, encoding: "utf8" })
      .map((p) => join(root, p))
      .filter((p) => p.endsWith(".jsonl") && lstatSync(p, { throwIfNoEntry: false })?.isFile())
      .sort();
  /** The folder a `cwd` number names: one of pi's, or (4) the root itself. */
  const folderOf = (cwd: number) => (cwd >= CWDS.length ? root : join(root, piFolder(CWDS[cwd]!)));

  function apply(step: Step): string[] {
    counter += 1;
    const all = sessions();
    const pick = (n: number) => all[n % Math.max(1, all.length)];
    switch (step.kind) {
      case "append": {
        const file = pick(step.pick);
        if (!file) return [];
        const text = line(`more ${counter}`, counter);
        appendFileSync(file, step.half ? text.slice(0, 20) : `${text}\n`);
        return [file];
      }
      case "new-session": {
        const manager = writeSession(root, CWDS[step.cwd]!, 1);
        const file = manager.getSessionFile()!;
        return [dirname(file), file];
      }
      case "flat-session": {
        const file = join(root, `2026-01-01T00-00-00-000Z_${crypto.randomUUID()}.jsonl`);
        writeFileSync(
          file,
          `${JSON.stringify({ type: "session", version: 3, id: basename(file).slice(25, -6), timestamp: "2026-01-01T00:00:00.000Z", cwd: "/flat" })}\n`,
        );
        return [file];
      }
      case "rename": {
        const file = pick(step.pick);
        const folder = folderOf(step.cwd);
        if (!file || !existsSync(folder)) return [];
        const to = join(folder, basename(file));
        if (existsSync(to)) return [];
        renameSync(file, to);
        return [file, to];
      }
      case "delete": {
        const file = pick(step.pick);
        if (!file) return [];
        rmSync(file);
        return [file];
      }
      case "truncate": {
        const file = pick(step.pick);
        if (!file) return [];
        truncateSync(file, Math.floor(statSync(file).size / 2));
        return [file];
      }
      case "touch": {
        const file = pick(step.pick);
        if (!file) return [];
        const when = new Date(Date.UTC(2025, 5, 1, 0, 0, counter));
        utimesSync(file, when, when);
        return [file];
      }
      case "move-folder-out": {
        const folder = folderOf(step.cwd);
        if (!existsSync(folder) || existsSync(join(outside, basename(folder)))) return [];
        renameSync(folder, join(outside, basename(folder)));
        return [folder];
      }
      case "move-folder-in": {
        const [name] = readdirSync(outside);
        if (!name || existsSync(join(root, name))) return [];
        renameSync(join(outside, name), join(root, name));
        return [join(root, name)];
      }
      case "rename-folder": {
        const from = folderOf(step.cwd);
        const to = join(root, piFolder(`${CWDS[step.to]}-${counter}`));
        if (!existsSync(from) || from === root) return [];
        renameSync(from, to);
        return [from, to];
      }
      case "replace-folder": {
        // A folder of pi's moved away and something else put in its place under the same name.
        const folder = folderOf(step.cwd);
        if (!existsSync(folder) || existsSync(join(outside, basename(folder)))) return [];
        renameSync(folder, join(outside, basename(folder)));
        if (step.link) symlinkSync(join(outside, basename(folder)), folder);
        else writeFileSync(folder, "not a folder\n");
        return [folder];
      }
      case "stray-file": {
        const folder = folderOf(step.cwd);
        if (!existsSync(folder)) return [];
        const file = join(folder, step.jsonl ? `events-${counter}.jsonl` : `notes-${counter}.txt`);
        writeFileSync(file, step.jsonl ? '{"event":"x"}\n' : "notes\n");
        return [file];
      }
      case "stray-folder": {
        const folder = folderOf(step.cwd);
        if (!existsSync(folder)) return [];
        const made = join(folder, `stuff-${counter}`);
        mkdirSync(made);
        writeFileSync(join(made, "inside.jsonl"), "{}\n");
        return [made];
      }
      case "symlink": {
        const folder = folderOf(step.cwd);
        if (!existsSync(folder)) return [];
        const link = join(folder, `link-${counter}.jsonl`);
        symlinkSync(pick(counter) ?? "/nowhere", link);
        return [link];
      }
      case "duplicate": {
        const file = pick(step.pick);
        const folder = folderOf(step.cwd);
        if (!file || !existsSync(folder)) return [];
        const to = join(folder, `copy-${counter}-${basename(file)}`);
        copyFileSync(file, to);
        return [to];
      }
      case "meta": {
        const file = pick(step.pick);
        const id = file ? /_([0-9a-f-]{36})\.jsonl$/.exec(file)?.[1] : undefined;
        const meta = join(metaDir, `${id ?? `gone-${counter}`}.meta.json`);
        writeFileSync(
          meta,
          step.corrupt ? "{ not json" : JSON.stringify({ sessionId: id ?? "gone", name: `meta ${counter}` }),
        );
        return [meta];
      }
    }
  }
  return { root, metaDir, apply, sessions };
}

/**
 * Applies each batch of steps to a new store, scans what `changedBy` says changed, and checks the
 * result against a fresh scan after every batch.
 */
async function followBatches(
  store: ReturnType<typeof newStore>,
  batches: Step[][],
  changedBy: (batch: Step[]) => Promise<Set<string>>,
) {
  const memoryCache = new Map<string, CacheEntry>();
  const scanOf = (more: Partial<ScanOptions> = {}) =>
    scanStores({ roots: [store.root], metaDir: store.metaDir, ...more });
  let look = await scanOf();
  for (const batch of batches) {
    look = await scanOf({ previous: look, changed: await changedBy(batch), memoryCache });
    expect(normalized(look)).toEqual(normalized(await scanOf()));
  }
}

const batchesArb = (most: number) =>
  fc.array(fc.array(stepArb, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: most });

describe("a scan of what changed, after any sequence of changes", () => {
  it("equals a fresh scan, given the paths each step touched", async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(batchesArb(6), async (batches) => {
        const store = newStore(`ideal-${run++}`);
        await followBatches(
          store,
          batches,
          async (batch) => new Set(batch.flatMap((step) => store.apply(step))),
        );
      }),
      { numRuns: 40, seed: 19 },
    );
  }, 120_000);

  it("equals a fresh scan, given what the real tree watcher reported", async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(batchesArb(5), async (batches) => {
        const store = newStore(`watched-${run++}`);
        const seen = new Set<string>();
        const failures: unknown[] = [];
        const watch = (root: string, depth: number) =>
          watchTree(root, { depth, onChange: (p) => seen.add(p), onFailure: (e) => failures.push(e) });
        const watches = [watch(store.root, 1), watch(store.metaDir, 0)];
        try {
          await followBatches(store, batches, async (batch) => {
            for (const step of batch) store.apply(step);
            await settled(seen);
            const changed = new Set(seen);
            seen.clear();
            return changed;
          });
          expect(failures).toEqual([]);
        } finally {
          for (const w of watches) w.close();
        }
      }),
      { numRuns: 25, seed: 19 },
    );
  }, 120_000);
});

describe("a name that is not valid UTF-8", () => {
  it("is found again through a listing: a change named lossily by a watcher lists the root and such folders", async () => {
    const store = newStore("bytes");
    const folder = Buffer.concat([
      Buffer.from(`${store.root}/--caf`),
      Buffer.from([0xe9]),
      Buffer.from("--"),
    ]);
    mkdirSync(folder);
    const file = Buffer.concat([
      folder,
      Buffer.from("/2026-01-01T00-00-00-000Z_0badcafe-0000-4000-8000-000000000001.jsonl"),
    ]);
    writeFileSync(
      file,
      `${JSON.stringify({ type: "session", version: 3, id: "0badcafe-0000-4000-8000-000000000001", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/caf" })}\n`,
    );
    const memoryCache = new Map<string, CacheEntry>();
    const before = await scanStores({ roots: [store.root], metaDir: store.metaDir });
    appendFileSync(file, line("in a folder named in Latin-1", 1) + "\n");
    // What a watcher says: the path as a (lossy) string.
    const changed = new Set([file.toString("utf8")]);
    const after = await scanStores({
      roots: [store.root],
      metaDir: store.metaDir,
      previous: before,
      changed,
      memoryCache,
    });
    expect(normalized(after)).toEqual(
      normalized(await scanStores({ roots: [store.root], metaDir: store.metaDir })),
    );
    expect(after.sessions.find((s) => s.id === "0badcafe-0000-4000-8000-000000000001")!.messageCount).toBe(1);
  });
});

/** Waits until no new event has come for a while (inotify delivers within milliseconds here). */
async function settled(seen: Set<string>) {
  let size = -1;
  while (size !== seen.size) {
    size = seen.size;
    await new Promise((resolve) => setTimeout(resolve, 60));
  }
}
