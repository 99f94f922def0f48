// What a purge and a restore promise about the trashed copy, and what no failure may leave behind:
// they act only on the very copy we put there (a file swapped into its place is never deleted), an
// entry whose copy vanished (the trash emptied by a file manager) says so and never wedges, and
// the config is read fresh under the lock — invalid: no purge, but restore still works.
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ConfigInput } from "../../shared/config.js";
import type { SessionRecord } from "../../shared/session-record.js";
import type { TrashItem } from "../../shared/trash.js";
import { writeConfigFile } from "../../test-support/config-file.js";
import { setModified, writeSession } from "../../test-support/pi-store.js";
import { scanStores } from "../scan/scanner.js";
import { ReadOnlyError } from "../config/config-file.js";
import { statePaths } from "../state/state-dir.js";
import { listTrash, purge, purgeSelection, recover, restore, softDelete } from "./deletion-engine.js";
import { homeTrashDir } from "./movers.js";
import { Ledger, readLedgers } from "../state/journal.js";
import { piStores } from "../../test-support/pi-stores.js";

const OLD = new Date("2025-01-01T00:00:00Z");
const engine = { actor: "cli" as const };
const lenient = (overrides: ConfigInput = {}) =>
  writeConfigFile({
    ...overrides,
    retention: { minKeepRecentCount: 0, keepLastPerNamespace: 0, allowEmptyStore: true },
    deletion: { target: "quarantine", ...overrides.deletion },
  });

/** `n` old sessions, moved to the trash (or the quarantine) by one soft delete. */
async function trashed(n: number, target: "quarantine" | "trash" = "quarantine") {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "sr-guard-")));
  for (let i = 0; i < n; i++) setModified(writeSession(root, `/work/g${i}`, 2).getSessionFile()!, OLD);
  const { sessions } = await scanStores({ stores: piStores(root) });
  lenient({ deletion: { target } });
  const result = await softDelete(
    {
      items: sessions.map((s) => ({ id: s.id, fingerprint: s.fingerprint })),
      stores: piStores(root),
      via: "selection",
    },
    engine,
  );
  expect(result.moved).toHaveLength(n);
  return { root, sessions, result };
}

/**
 * Puts an unrelated file of exactly the same size where a trashed copy is; `sameTime` also copies
 * its mtime (the file system may even give it the freed inode): the worst case.
 */
function swapInStranger(location: string, sameTime = false): Buffer {
  const stat = statSync(location);
  const stranger = Buffer.alloc(stat.size, "x");
  rmSync(location);
  writeFileSync(location, stranger);
  if (sameTime) utimesSync(location, stat.atime, stat.mtime);
  return stranger;
}

describe("the trashed copy must still be ours", () => {
  it("a purge leaves a same-size file swapped into the trash slot alone, and says why", async () => {
    const { entries } = await trashedEntries(2);
    const [swapped, ours] = entries as [(typeof entries)[0], (typeof entries)[0]];
    const stranger = swapInStranger(swapped.location!, true);
    const { count, bytes } = purgeSelection([swapped.entryId, ours.entryId], engine);
    const result = await purge([swapped.entryId, ours.entryId], `${count}:${bytes}`, engine);
    expect(result.done.map((d) => d.entryId)).toEqual([ours.entryId]);
    expect(result.skipped).toEqual([
      {
        ref: swapped.entryId,
        reason: expect.stringContaining("is not the one session-retention put there"),
      },
    ]);
    expect(readFileSync(swapped.location!).equals(stranger)).toBe(true); // never deleted
    expect(existsSync(ours.location!)).toBe(false);
  });

  it("a restore does not bring a swapped-in file to the session's path", async () => {
    const { entries } = await trashedEntries(1);
    const entry = entries[0]!;
    swapInStranger(entry.location!);
    const result = await restore([entry.entryId], engine);
    expect(result.done).toEqual([]);
    expect(result.skipped[0]!.reason).toContain("is not the one session-retention put there");
    expect(existsSync(entry.originalPath)).toBe(false);
    expect(existsSync(entry.location!)).toBe(true);
  });

  it("a symlink put in the trash slot is neither followed nor deleted", async () => {
    const { entries } = await trashedEntries(1);
    const entry = entries[0]!;
    const precious = join(realpathSync(mkdtempSync(join(tmpdir(), "sr-precious-"))), "keep.txt");
    writeFileSync(precious, "x".repeat(entry.sizeBytes));
    rmSync(entry.location!);
    symlinkSync(precious, entry.location!);
    const { count, bytes } = purgeSelection([entry.entryId], engine);
    const result = await purge([entry.entryId], `${count}:${bytes}`, engine);
    expect(result.done).toEqual([]);
    expect(readFileSync(precious, "utf8")).toBe("x".repeat(entry.sizeBytes));
  });

  it("records the trashed copy's identity in the ledger when it moves", async () => {
    const { entries } = await trashedEntries(1);
    const entry = entries[0]!;
    const stat = statSync(entry.location!, { bigint: true });
    expect(entry.trashedIdentity).toEqual({
      dev: Number(stat.dev),
      ino: Number(stat.ino),
      size: Number(stat.size),
      mtimeNs: stat.mtimeNs.toString(),
      ctimeNs: stat.ctimeNs.toString(),
    });
  });
});

describe("nothing wedges", () => {
  it("the desktop trash emptied by hand: the entry is gone from the trash, the restore says so and leaves no intent open", async () => {
    const { entries } = await trashedEntries(1, "trash");
    const entry = entries[0]!;
    rmSync(join(homeTrashDir(), "files"), { recursive: true, force: true }); // a file manager's "Empty trash"
    rmSync(join(homeTrashDir(), "info"), { recursive: true, force: true });
    expect(listed(entry.entryId)).toMatchObject({
      state: "gone",
      reason: expect.stringContaining("gone from the trash"),
    });
    const result = await restore([entry.entryId], engine);
    expect(result.done).toEqual([]);
    expect(result.skipped[0]!.reason).toMatch(/^gone from the trash: .* no longer there/);
    expect(result.skipped[0]!.reason).not.toContain("ENOENT");
    // No intent left open: the next operation's recovery has nothing to do, and no conflict appears.
    expect(recover(engine)).toEqual([]);
    expect(listed(entry.entryId)?.state).toBe("gone");
  });

  it("a gone entry whose copy comes back is in the trash again and restores", async () => {
    const { entries } = await trashedEntries(1);
    const entry = entries[0]!;
    const aside = `${entry.location!}.aside`;
    renameSync(entry.location!, aside);
    expect((await restore([entry.entryId], engine)).done).toEqual([]);
    expect(listed(entry.entryId)?.state).toBe("gone");
    renameSync(aside, entry.location!);
    expect(listed(entry.entryId)?.state).toBe("in-trash");
    const back = await restore([entry.entryId], engine);
    expect(back.done.map((d) => d.entryId)).toEqual([entry.entryId]);
    expect(existsSync(entry.originalPath)).toBe(true);
  });

  it("a restore whose move fails closes its intent at once with a definite state", async () => {
    const { entries } = await trashedEntries(1);
    const entry = entries[0]!;
    // The session's folder cannot be made: a file stands where it would go.
    rmSync(dirname(entry.originalPath), { recursive: true, force: true });
    writeFileSync(dirname(entry.originalPath), "in the way");
    const result = await restore([entry.entryId], engine);
    expect(result.skipped[0]!.reason).toMatch(
      /^restore failed \(.*\): the restore never happened; still in the trash/,
    );
    expect(
      readLedgers(join(statePaths().dir, "trash")).entries.find((e) => e.entryId === entry.entryId)?.state,
    ).toBe("in-trash");
    expect(recover(engine)).toEqual([]);
  });

  it("recovery of an intent with neither copy anywhere marks it gone, not a permanent conflict", async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), "sr-gone-")));
    const path = writeSession(root, "/work/x", 1).getSessionFile()!;
    const { sessions } = await scanStores({ stores: piStores(root) });
    const s = sessions[0]!;
    openIntent("20990102T000000Z-cccccc", s, {
      target: "quarantine",
      location: join(root, "..", "nowhere.jsonl"),
    });
    rmSync(path); // removed by someone else, and no trashed copy exists
    expect(recover(engine)).toMatchObject([{ result: "gone" }]);
    expect(listed("20990102T000000Z-cccccc:1")?.state).toBe("gone");
  });

  it("a batch of intents a kill tore: recovery's outcome is a line of its own, and the entry is settled", async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), "sr-torn-")));
    const path = writeSession(root, "/work/t", 1).getSessionFile()!;
    const { sessions } = await scanStores({ stores: piStores(root) });
    const operation = "20990104T000000Z-eeeeee";
    openIntent(operation, sessions[0]!, { target: "quarantine", location: join(root, "..", "t.jsonl") });
    // A SIGKILL in the middle of one large write (64 intents) leaves the next intent half written.
    appendFileSync(join(statePaths().dir, "trash", `${operation}.jsonl`), '{"seq":2,"event":"intent","it');
    expect(recover(engine)).toMatchObject([{ result: "rolled-back" }]);
    expect(listed(`${operation}:1`)?.state).toBe("not-moved");
    expect(recover(engine)).toEqual([]);
    expect(existsSync(path)).toBe(true);
  });

  it("recovery removes the empty .trashinfo a killed move of ours left, and never another program's", async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), "sr-orphan-")));
    const path = writeSession(root, "/work/o", 1).getSessionFile()!;
    const { sessions } = await scanStores({ stores: piStores(root) });
    const s = sessions[0]!;
    const name = "0b0e8f52-6a36-4d7c-9a38-3e5c1e0e8c11";
    openIntent("20990103T000000Z-dddddd", s, { target: "system-trash", trashName: name });
    // Killed between creating its .trashinfo (under the name the intent holds) and writing it.
    mkdirSync(join(homeTrashDir(), "info"), { recursive: true });
    const ours = join(homeTrashDir(), "info", `${name}.trashinfo`);
    writeFileSync(ours, "");
    // Another program's, made in the same minute: one being written right now (empty, as the
    // `trash` package leaves it between its two steps), and a whole one of another path.
    const writing = join(homeTrashDir(), "info", "7d1c3e52-0b9a-4f0e-8c77-2a5d9e1f3b40.trashinfo");
    writeFileSync(writing, "");
    const theirs = join(homeTrashDir(), "info", "theirs.trashinfo");
    writeFileSync(theirs, "[Trash Info]\nPath=/home/x/y\nDeletionDate=2026-01-01T00:00:00\n");
    expect(recover(engine)).toMatchObject([{ result: "rolled-back" }]);
    expect(existsSync(ours)).toBe(false);
    expect(existsSync(writing)).toBe(true);
    expect(existsSync(theirs)).toBe(true);
    expect(existsSync(path)).toBe(true);
  });
});

describe("fresh config, read under the lock", () => {
  it("purge is refused while the config is invalid; restore still works", async () => {
    const { entries } = await trashedEntries(2);
    writeFileSync(statePaths().configFile, '{ "retention": { "maxAgeDays": -1 } }');
    const { count, bytes } = purgeSelection([entries[0]!.entryId], engine);
    await expect(purge([entries[0]!.entryId], `${count}:${bytes}`, engine)).rejects.toThrow(ReadOnlyError);
    expect(existsSync(entries[0]!.location!)).toBe(true);
    const back = await restore([entries[1]!.entryId], engine);
    expect(back.done).toHaveLength(1);
  });

  it("a soft delete is refused when the config became invalid after the preview", async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), "sr-stale-")));
    for (let i = 0; i < 2; i++) setModified(writeSession(root, `/work/s${i}`, 1).getSessionFile()!, OLD);
    const { sessions } = await scanStores({ stores: piStores(root) });
    writeFileSync(statePaths().configFile, "{ not json");
    await expect(
      softDelete(
        {
          items: sessions.map((s) => ({ id: s.id, fingerprint: s.fingerprint })),
          stores: piStores(root),
          via: "selection",
        },
        engine,
      ),
    ).rejects.toThrow(/read-only: .* is invalid/);
    for (const s of sessions) expect(existsSync(s.path)).toBe(true);
  });

  it("a session protected by a hand edit after the preview is kept", async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), "sr-stale-")));
    for (let i = 0; i < 3; i++) setModified(writeSession(root, `/work/s${i}`, 1).getSessionFile()!, OLD);
    const { sessions } = await scanStores({ stores: piStores(root) });
    lenient();
    const keep = sessions[0]!;
    writeConfigFile({
      retention: { minKeepRecentCount: 0, keepLastPerNamespace: 0 },
      protection: { protectedPatterns: [keep.path] },
      deletion: { target: "quarantine" },
    });
    const result = await softDelete(
      {
        items: sessions.map((s) => ({ id: s.id, fingerprint: s.fingerprint })),
        stores: piStores(root),
        via: "selection",
      },
      engine,
    );
    expect(result.skipped).toEqual([
      { id: keep.id, path: keep.path, reason: expect.stringMatching(/^protected: /) },
    ]);
    expect(existsSync(keep.path)).toBe(true);
  });

  it("a policy clean moves only what the policy, read again, still chooses", async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), "sr-policy-")));
    const old = writeSession(root, "/work/a", 1).getSessionFile()!;
    const older = writeSession(root, "/work/b", 1).getSessionFile()!;
    setModified(old, new Date(Date.now() - 40 * 86_400_000));
    setModified(older, new Date(Date.now() - 400 * 86_400_000));
    const { sessions } = await scanStores({ stores: piStores(root) });
    // The preview was made with maxAgeDays 30 (both go); the file now says 365 (only the older).
    writeConfigFile({
      retention: { maxAgeDays: 365, minKeepRecentCount: 0, keepLastPerNamespace: 0, allowEmptyStore: true },
      deletion: { target: "quarantine" },
    });
    const result = await softDelete(
      {
        items: sessions.map((s) => ({ id: s.id, fingerprint: s.fingerprint })),
        stores: piStores(root),
        via: "policy",
      },
      engine,
    );
    expect(result.moved.map((m) => m.path)).toEqual([older]);
    expect(result.skipped).toEqual([
      {
        id: expect.any(String),
        path: old,
        reason: expect.stringContaining("no longer chosen by the policy"),
      },
    ]);
  });

  it("auto-clean turned off after its decision moves nothing", async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), "sr-auto-")));
    for (let i = 0; i < 2; i++) setModified(writeSession(root, `/work/s${i}`, 1).getSessionFile()!, OLD);
    const { sessions } = await scanStores({ stores: piStores(root) });
    writeConfigFile({ retention: { autoClean: false, maxAgeDays: 30, minKeepRecentCount: 0 } });
    const result = await softDelete(
      { items: sessions.map((s) => ({ id: s.id })), stores: piStores(root), via: "auto-clean" },
      { actor: "auto" },
    );
    expect(result.refused).toContain("auto-clean is off");
    for (const s of sessions) expect(existsSync(s.path)).toBe(true);
  });
});

/** A ledger with one intent left open (what a crash leaves), for the session `s`. */
function openIntent(
  operationId: string,
  s: SessionRecord,
  where: Pick<TrashItem, "target"> & Partial<Pick<TrashItem, "location" | "trashName">>,
) {
  const ledger = Ledger.create(join(statePaths().dir, "trash"), operationId);
  ledger.append([
    {
      seq: 1,
      event: "intent",
      item: {
        id: s.id,
        originalPath: s.path,
        namespace: s.namespace,
        storeRoot: s.store.root,
        storeKind: "pi",
        sizeBytes: s.sizeBytes,
        fingerprint: s.fingerprint,
        sidecars: [],
        deletedAt: new Date().toISOString(),
        ...where,
      },
    },
  ]);
  ledger.close();
}

/** Entries of a fresh soft delete, by the operation id their entry ids carry. */
async function trashedEntries(n: number, target: "quarantine" | "trash" = "quarantine") {
  const { result } = await trashed(n, target);
  const entries = listTrash(engine).entries.filter((e) => e.entryId.startsWith(`${result.operationId}:`));
  expect(entries).toHaveLength(n);
  return { entries };
}

const listed = (entryId: string) => listTrash(engine).entries.find((e) => e.entryId === entryId);

describe("a session its agent re-created at a trashed path", () => {
  it("is in use, never a candidate, and its restore is a conflict that keeps both", async () => {
    const { entries } = await trashedEntries(1);
    const entry = entries[0]!;
    // pi appends by path: writing to the moved session re-creates a headerless file where it was.
    writeFileSync(entry.originalPath, '{"type":"message","id":"late","parentId":null}\n');
    const { gatherPlanInputs, planFor } = await import("../plan/plan-inputs.js");
    lenient({ retention: { maxAgeDays: 1 } });
    const inputs = await gatherPlanInputs({ flagStores: piStores(entry.storeRoot) });
    const reborn = inputs.report.sessions.find((s) => s.path === entry.originalPath)!;
    expect(inputs.activeIds.get(reborn.id)).toContain("its agent re-created it");
    if (!inputs.config.ok) throw new Error("config");
    expect(planFor({ ...inputs, config: inputs.config }).candidates.map((c) => c.path)).not.toContain(
      entry.originalPath,
    );
    const back = await restore([entry.entryId], engine);
    expect(back.skipped).toEqual([expect.objectContaining({ pathTaken: true })]);
  });
});
