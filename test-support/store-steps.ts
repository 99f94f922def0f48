// What agents, users and other programs do to a pi store, as random steps for property tests: a
// scan of what changed (watched-scan.test.ts) and the overview's warm way (overview.test.ts) must
// each equal a fresh scan after any sequence of them.
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
import { basename, dirname, join } from "node:path";
import fc from "fast-check";
import { piFolder, writeSession } from "./pi-store.js";

export const line = (text: string, n: number) =>
  JSON.stringify({
    type: "message",
    id: (0x10000000 + n).toString(16),
    parentId: null,
    timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, n % 60)).toISOString(),
    message: { role: "user", content: text, timestamp: 1_767_225_600_000 + n },
  });

/** One thing done to a store; each returns the paths it touched, as a watcher would name them. */
export type Step =
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

export const CWDS = ["/home/dev/app", "/srv/api", "/tmp/x y", "/opt/tool"];

export const stepArb: fc.Arbitrary<Step> = fc.oneof(
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
export function newStore(work: string, name: string) {
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

  /** Does `step`; one that cannot be done where a folder was replaced by a file (ENOTDIR, EEXIST) is skipped, as it fails for anyone. */
  function apply(step: Step): string[] {
    try {
      return applyStep(step);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOTDIR" || code === "EEXIST") return [];
      throw error;
    }
  }

  function applyStep(step: Step): string[] {
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
