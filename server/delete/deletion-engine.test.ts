// The deletion engine against real files: pi sessions written by pi's SessionManager, a real
// quarantine folder and a real freedesktop trash (in the test's own XDG_DATA_HOME).
import { spawnSync } from "node:child_process";
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import type { SessionRecord } from "../../shared/session-record.js";
import type { ConfigInput } from "../../shared/config.js";
import { writeConfigFile } from "../../test-support/config-file.js";
import { setModified, writeSession } from "../../test-support/pi-store.js";
import { scanStores } from "../scan/scanner.js";
import { writeActiveMarker } from "../state/active-sessions.js";
import { readAudit } from "../state/audit-log.js";
import { addPins } from "../state/protection-list.js";
import { statePaths } from "../state/state-dir.js";
import { homeTrashDir } from "./movers.js";
import { listTrash, purge, purgeSelection, recover, restore, softDelete } from "./deletion-engine.js";
import { Ledger } from "../state/journal.js";
import { piStores } from "../../test-support/pi-stores.js";

const OLD = new Date("2025-01-01T00:00:00Z");
const engine = { actor: "cli" as const };

/** The config file the engine will read: lenient keeps, the quarantine, and `overrides`. */
function config(overrides: ConfigInput = {}) {
  return writeConfigFile({
    ...overrides,
    retention: {
      minKeepRecentCount: 0,
      keepLastPerNamespace: 0,
      allowEmptyStore: true,
      ...overrides.retention,
    },
    deletion: { target: "quarantine", ...overrides.deletion },
  });
}

/** A store of `n` old sessions; returns the root and the scanned records. */
async function store(n = 3) {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "sr-del-")));
  for (let i = 0; i < n; i++)
    setModified(writeSession(root, `/work/p${i % 2}`, 1 + i).getSessionFile()!, OLD);
  const { sessions } = await scanStores({ stores: piStores(root) });
  return { root, sessions };
}

/** A hand selection of `sessions`, with the config file written as `overrides` say. */
const request = (
  sessions: { id: string; fingerprint: unknown }[],
  root: string,
  overrides: ConfigInput = {},
) => {
  config(overrides);
  return {
    items: sessions.map((s) => ({ id: s.id, fingerprint: s.fingerprint as never })),
    stores: piStores(root),
    via: "selection" as const,
  };
};

describe("soft delete to quarantine, and restore", () => {
  it("moves the files, records them, and restore brings back the exact bytes and mtime", async () => {
    const { root, sessions } = await store(3);
    const before = sessions.map((s) => ({
      path: s.path,
      bytes: readFileSync(s.path),
      mtime: statSync(s.path).mtimeMs,
    }));
    const result = await softDelete(request(sessions, root), engine);
    expect(result.skipped).toEqual([]);
    expect(result.moved).toHaveLength(3);
    expect(result.bytesFreed).toBe(sessions.reduce((t, s) => t + s.sizeBytes, 0));
    for (const s of sessions) expect(existsSync(s.path)).toBe(false);
    for (const m of result.moved)
      expect(m.destination.startsWith(join(statePaths().dir, "..", "session-trash"))).toBe(true);

    const trash = listTrash(engine).entries.filter((e) => e.state === "in-trash");
    expect(trash.map((e) => e.originalPath).sort()).toEqual(sessions.map((s) => s.path).sort());
    // Each is named as pi names it (no name: its first message), in the result, the trash and the audit.
    const titles = sessions.map((s) => [s.path, `question 0 in ${s.namespace}`]).sort();
    expect(result.moved.map((m) => [m.path, m.title]).sort()).toEqual(titles);
    expect(trash.map((e) => [e.originalPath, e.title]).sort()).toEqual(titles);
    expect(
      readAudit(statePaths().auditLog)
        .entries[0]!.items.map((i) => [i.path, i.title])
        .sort(),
    ).toEqual(titles);
    expect(readAudit(statePaths().auditLog).entries[0]).toMatchObject({
      action: "soft-delete",
      mode: "quarantine",
      result: "ok",
      bytes: result.bytesFreed,
    });

    const restored = await restore(
      trash.map((e) => e.entryId),
      engine,
    );
    expect(restored.skipped).toEqual([]);
    expect(restored.done.map((d) => [d.path, d.title]).sort()).toEqual(titles);
    for (const b of before) {
      expect(readFileSync(b.path).equals(b.bytes)).toBe(true);
      expect(statSync(b.path).mtimeMs).toBe(b.mtime);
    }
    expect(
      listTrash(engine)
        .entries.filter((e) => trash.some((t) => t.entryId === e.entryId))
        .map((e) => e.state),
    ).toEqual(["restored", "restored", "restored"]);
  });

  it("a dry run moves nothing and is audited as such", async () => {
    const { root, sessions } = await store(2);
    const result = await softDelete({ ...request(sessions, root), dryRun: true }, engine);
    expect(result.moved).toHaveLength(2);
    for (const s of sessions) expect(existsSync(s.path)).toBe(true);
    expect(readAudit(statePaths().auditLog).entries[0]).toMatchObject({ mode: "dry-run", result: "dry-run" });
  });

  it("moves the pi session-index sidecar with its session and brings it back", async () => {
    const { root, sessions } = await store(2);
    const target = sessions[0]!;
    const meta = join(statePaths().dir, "..", "sessions-meta", `${target.id}.meta.json`);
    mkdirSync(join(meta, ".."), { recursive: true });
    writeFileSync(meta, JSON.stringify({ name: "kept with its session" }));
    const result = await softDelete(request([target], root), engine);
    expect(result.moved).toHaveLength(1);
    expect(existsSync(meta)).toBe(false);
    await restore([target.id], engine);
    expect(JSON.parse(readFileSync(meta, "utf8"))).toEqual({ name: "kept with its session" });
  });

  it("restore and purge leave no emptied quarantine folders behind", async () => {
    const { root, sessions } = await store(2);
    const [withSidecar, other] = sessions as [SessionRecord, SessionRecord];
    const meta = join(statePaths().dir, "..", "sessions-meta", `${withSidecar.id}.meta.json`);
    mkdirSync(join(meta, ".."), { recursive: true });
    writeFileSync(meta, "{}");
    const result = await softDelete(request(sessions, root), engine);
    const operationFolder = dirname(result.moved[0]!.destination);
    const quarantine = dirname(operationFolder);
    const otherFile = basename(result.moved.find((m) => m.id === other.id)!.destination);
    expect(readdirSync(operationFolder)).toHaveLength(3); // two sessions and one sidecar folder

    await restore([withSidecar.id], engine);
    expect(readdirSync(operationFolder)).toEqual([otherFile]);
    const { count, bytes } = purgeSelection([other.id], engine);
    expect((await purge([other.id], `${count}:${bytes}`, engine)).done).toHaveLength(1);
    expect(existsSync(operationFolder)).toBe(false);
    expect(existsSync(quarantine)).toBe(true);
  });

  it("restore into an occupied path is a conflict: both kept, nothing overwritten", async () => {
    const { root, sessions } = await store(2);
    const target = sessions[0]!;
    await softDelete(request([target], root), engine);
    writeFileSync(target.path, "a new file with the same name\n");
    const result = await restore([target.id], engine);
    expect(result.done).toEqual([]);
    expect(result.skipped[0]).toMatchObject({ pathTaken: true });
    expect(result.skipped[0]!.reason).toContain("exists again; kept both");
    expect(readFileSync(target.path, "utf8")).toBe("a new file with the same name\n");
    expect(listTrash(engine).entries.find((e) => e.id === target.id && e.state === "in-trash")).toBeDefined();
  });
});

describe("refused at execution, even when the id is passed explicitly", () => {
  it("the active session (a live pi process's marker names it)", async () => {
    const { root, sessions } = await store(2);
    const live = sessions[0]!;
    writeActiveMarker(statePaths().activeMarkers, {
      pid: process.pid,
      sessionFile: live.path,
      startedAt: new Date().toISOString(),
    });
    try {
      const result = await softDelete(request(sessions, root), engine);
      expect(result.skipped).toEqual([
        { id: live.id, path: live.path, reason: `active: pi process ${process.pid} (marker)` },
      ]);
      expect(existsSync(live.path)).toBe(true);
    } finally {
      (await import("../state/active-sessions.js")).removeActiveMarker(
        statePaths().activeMarkers,
        process.pid,
      );
    }
  });

  it("a session written within the grace window", async () => {
    const { root, sessions } = await store(2);
    setModified(sessions[0]!.path, new Date(Date.now() - 60_000));
    const fresh = await scanStores({ stores: piStores(root) });
    const result = await softDelete(request(fresh.sessions, root), engine);
    expect(result.skipped.map((s) => s.reason)).toEqual([
      expect.stringMatching(/^active: modified 1 min ago/),
    ]);
  });

  it("pinned, protected by pattern, and among the N most recent", async () => {
    const { root, sessions } = await store(3);
    const [a, b, c] = sessions as [(typeof sessions)[0], (typeof sessions)[0], (typeof sessions)[0]];
    addPins(statePaths().protectedList, [a]);
    setModified(c.path, new Date("2025-06-01T00:00:00Z"));
    const fresh = (await scanStores({ stores: piStores(root) })).sessions;
    const result = await softDelete(
      request(fresh, root, {
        protection: { protectedPatterns: [`*${b.id.slice(-12)}*`] },
        retention: { minKeepRecentCount: 1 },
      }),
      engine,
    );
    expect(result.moved).toEqual([]);
    expect(result.skipped.map((s) => [s.id, s.reason.split(":")[0]]).sort()).toEqual(
      [
        [a.id, "pinned"],
        [b.id, "protected"],
        [c.id, "recent"],
      ].sort(),
    );
    for (const s of sessions) expect(existsSync(s.path)).toBe(true);
  });

  it("a file appended to between preview and execution is skipped: changed since preview", async () => {
    const { root, sessions } = await store(2);
    appendFileSync(sessions[0]!.path, '{"type":"message","id":"x"}\n');
    setModified(sessions[0]!.path, OLD);
    const result = await softDelete(request(sessions, root), engine);
    expect(result.skipped).toEqual([
      { id: sessions[0]!.id, path: sessions[0]!.path, reason: "changed since preview" },
    ]);
    expect(result.moved.map((m) => m.id)).toEqual([sessions[1]!.id]);
  });

  it("a selection that would empty a store is refused as a whole", async () => {
    const { root, sessions } = await store(2);
    const result = await softDelete(
      request(sessions, root, { retention: { allowEmptyStore: false } }),
      engine,
    );
    expect(result.refused).toContain("every session of");
    for (const s of sessions) expect(existsSync(s.path)).toBe(true);
  });

  it("ids that are not sessions of the store are skipped, never resolved as paths", async () => {
    const { root, sessions } = await store(2);
    const outside = join(mkdtempSync(join(tmpdir(), "sr-out-")), "precious.txt");
    writeFileSync(outside, "not a session");
    const result = await softDelete(
      { ...request(sessions.slice(0, 1), root), items: [{ id: outside }, { id: "../../etc/passwd" }] },
      engine,
    );
    expect(result.moved).toEqual([]);
    expect(result.skipped.map((s) => s.reason)).toEqual([
      "not found in the store (already gone?)",
      "not found in the store (already gone?)",
    ]);
    expect(readFileSync(outside, "utf8")).toBe("not a session");
  });

  it("a symlink in the store is not a session: its target is untouched", async () => {
    const { root } = await store(2);
    const target = join(mkdtempSync(join(tmpdir(), "sr-link-")), "target.jsonl");
    writeFileSync(target, '{"type":"session"}\n');
    const link = join(root, readdirSync(root)[0]!, "2025-01-01T00-00-00-000Z_link.jsonl");
    symlinkSync(target, link);
    const scanned = await scanStores({ stores: piStores(root) });
    expect(scanned.problems).toContainEqual(expect.objectContaining({ code: "symlink", path: link }));
    const result = await softDelete(request(scanned.sessions, root), engine);
    expect(result.moved).toHaveLength(2);
    expect(readFileSync(target, "utf8")).toBe('{"type":"session"}\n');
    expect(statSync(link, { throwIfNoEntry: false })).toBeDefined();
  });
});

describe("purge", () => {
  it("hard-deletes only soft-deleted items, and only with the exact COUNT:BYTES", async () => {
    const { root, sessions } = await store(3);
    await softDelete(request(sessions.slice(0, 2), root), engine);
    const ids = sessions.slice(0, 2).map((s) => s.id);
    const { count, bytes } = purgeSelection(ids, engine);
    expect(count).toBe(2);
    const wrong = await purge(ids, `${count}:${bytes + 1}`, engine);
    expect(wrong.refused).toContain(`must be ${count}:${bytes}`);
    const notInTrash = await purge([sessions[2]!.id], "1:1", engine);
    expect(notInTrash.refused).toContain("nothing in the trash");
    const locations = listTrash(engine)
      .entries.filter((e) => ids.includes(e.id))
      .map((e) => e.location!);
    const done = await purge(ids, `${count}:${bytes}`, engine);
    expect(done.done).toHaveLength(2);
    for (const location of locations) expect(existsSync(location)).toBe(false);
    expect(existsSync(sessions[2]!.path)).toBe(true);
    expect(readAudit(statePaths().auditLog).entries[0]).toMatchObject({
      action: "purge",
      mode: "hard",
      bytes,
    });
  });
});

describe("the system trash (freedesktop layout)", () => {
  it("moves into $XDG_DATA_HOME/Trash with a .trashinfo naming the original path, and restores from it", async () => {
    const { root, sessions } = await store(2);
    const target = sessions[0]!;
    const bytes = readFileSync(target.path);
    const result = await softDelete(request([target], root, { deletion: { target: "trash" } }), engine);
    expect(result.moved).toMatchObject([{ target: "system-trash" }]);
    const trashDir = homeTrashDir();
    const destination = result.moved[0]!.destination;
    expect(destination.startsWith(join(trashDir, "files"))).toBe(true);
    const info = readFileSync(
      join(trashDir, "info", `${destination.slice(destination.lastIndexOf("/") + 1)}.trashinfo`),
      "utf8",
    );
    expect(info).toContain(`Path=${encodeURI(target.path)}`);
    await restore([target.id], engine);
    expect(readFileSync(target.path).equals(bytes)).toBe(true);
    expect(readdirSync(join(trashDir, "info")).filter((n) => info.includes(n))).toEqual([]);
  });

  it.runIf(spawnSync("which", ["trash-list"]).status === 0)(
    "outside check: Debian's trash-list sees our trashed session, and we restore what it lists",
    async () => {
      const { root, sessions } = await store(2);
      const target = sessions[1]!;
      await softDelete(request([target], root, { deletion: { target: "trash" } }), engine);
      const listed = spawnSync("trash-list", [], { env: process.env, encoding: "utf8" }).stdout;
      expect(listed).toContain(target.path);
      const restored = await restore([target.id], engine);
      expect(restored.done).toHaveLength(1);
      expect(spawnSync("trash-list", [], { env: process.env, encoding: "utf8" }).stdout).not.toContain(
        target.path,
      );
    },
  );
});

describe("crash recovery", () => {
  const ledgerDir = () => join(statePaths().dir, "trash");

  it("an intent whose file never moved is rolled back; one whose file did move is finished", async () => {
    const { sessions } = await store(2);
    const [stay, gone] = sessions as [(typeof sessions)[0], (typeof sessions)[0]];
    const quarantine = mkdtempSync(join(tmpdir(), "sr-q-"));
    const ledger = Ledger.create(ledgerDir(), "20990101T000000Z-aaaaaa");
    const item = (s: typeof stay, seq: number) => ({
      seq,
      event: "intent" as const,
      item: {
        id: s.id,
        originalPath: s.path,
        namespace: s.namespace,
        storeRoot: s.store.root,
        storeKind: "pi" as const,
        sizeBytes: s.sizeBytes,
        fingerprint: s.fingerprint,
        target: "quarantine" as const,
        location: join(quarantine, `${seq}.jsonl`),
        sidecars: [],
        deletedAt: new Date().toISOString(),
      },
    });
    ledger.append([item(stay, 1), item(gone, 2)]);
    ledger.sync();
    ledger.close();
    // The crash came after the second move, before its outcome was written.
    (await import("node:fs")).renameSync(gone.path, join(quarantine, "2.jsonl"));

    const results = recover(engine);
    expect(results.map((r) => [r.id, r.result])).toEqual([
      [stay.id, "rolled-back"],
      [gone.id, "finished"],
    ]);
    const states = listTrash(engine).entries.filter((e) => e.entryId.startsWith("20990101"));
    expect(states.map((e) => e.state)).toEqual(["not-moved", "in-trash"]);
    expect(readAudit(statePaths().auditLog).entries[0]).toMatchObject({ action: "recover", result: "ok" });
    expect(recover(engine)).toEqual([]); // nothing left open
  });

  it("both copies present is a conflict, reported and left alone", async () => {
    const { sessions } = await store(1);
    const s = sessions[0]!;
    const quarantine = mkdtempSync(join(tmpdir(), "sr-q-"));
    writeFileSync(join(quarantine, "1.jsonl"), readFileSync(s.path));
    const ledger = Ledger.create(ledgerDir(), "20990101T000001Z-bbbbbb");
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
          target: "quarantine",
          location: join(quarantine, "1.jsonl"),
          sidecars: [],
          deletedAt: new Date().toISOString(),
        },
      },
    ]);
    ledger.close();
    expect(recover(engine)).toMatchObject([{ result: "conflict" }]);
    expect(existsSync(s.path) && existsSync(join(quarantine, "1.jsonl"))).toBe(true);
    expect(listTrash(engine).entries.find((e) => e.entryId.startsWith("20990101T000001Z"))?.state).toBe(
      "conflict",
    );
  });

  it("a full disk while writing the intents: nothing moved, no stray ledger", async () => {
    const { root, sessions } = await store(2);
    const before = existsSync(ledgerDir()) ? readdirSync(ledgerDir()) : [];
    const full = () => {
      throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
    };
    await expect(softDelete(request(sessions, root), { ...engine, ledgerWrite: full })).rejects.toThrow(
      /no space left on device.*nothing was moved/,
    );
    for (const s of sessions) expect(existsSync(s.path)).toBe(true);
    expect(readdirSync(ledgerDir())).toEqual(before);
  });
});
