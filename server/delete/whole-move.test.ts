// A move is whole or not at all: a session with a part this user may not move (a folder `sudo claude`
// left owned by root) is refused before anything moves, with the path and the fix; a part that
// fails anyway mid-move sends back what had moved. Real permissions: run as root, the store is made
// by root and the engine runs as uid 65534 (setpriv), since root may move anything.
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { claudeFolderName, ClaudeStoreBuilder, CLAUDE_NOW } from "../../test-support/claude-store.js";
import { lenientConfig, writeConfigFile } from "../../test-support/config-file.js";
import { snapshotTree, treeChanges } from "../../test-support/tree-snapshot.js";
import { allow, asRoot, FIX, forbid, runAsUser, USER, userSandbox } from "../../test-support/user-sandbox.js";
import { scanStores } from "../scan/scanner.js";
import { statePaths } from "../state/state-dir.js";
import { homeTrashDir } from "../fs/desktop-trash.js";
import { listTrash, softDelete } from "./deletion-engine.js";

const DAY = 86_400_000;

/** A Claude Code session with its whole bundle, in `home`: its transcript and each part's path. */
function claudeSession(home: string) {
  const b = new ClaudeStoreBuilder(home);
  const cwd = "/home/dev/shop";
  const t = b.session(cwd, 60).summary("Checkout refactor").conversation(3);
  const transcript = b.save(t);
  const id = t.session.id;
  const at = CLAUDE_NOW - 60 * DAY;
  const folder = b.sessionFolder(id, claudeFolderName(cwd), cwd, at);
  const parts = [b.fileHistory(id, at), b.sessionEnv(id, at), b.tasks(id, at), folder, b.debugLog(id, at)];
  b.finish();
  return { root: b.root, id, transcript, parts, folder };
}

/**
 * A sandbox of an ordinary user holding one Claude session whose session folder
 * (`projects/<p>/<id>/`) the user may not move: root's, as `sudo claude` leaves it.
 */
function forbiddenPartSandbox(target: "trash" | "quarantine") {
  const sandbox = userSandbox();
  cleanups.push(() => {
    allow(session.folder);
    sandbox.remove();
  });
  const session = claudeSession(sandbox.home);
  writeConfigFile(
    {
      retention: { minKeepRecentCount: 0, keepLastPerNamespace: 0, allowEmptyStore: true },
      deletion: { target },
    },
    statePaths(sandbox.env).configFile,
  );
  sandbox.own();
  forbid(session.folder);
  return { ...sandbox, ...session };
}

const cleanups: Array<() => void> = [];
afterAll(() => {
  for (const cleanup of cleanups) cleanup();
});

/** The built engine's delete of every session in the Claude store, run as the user. */
function deleteAsUser(env: NodeJS.ProcessEnv, root: string, target: string) {
  const run = runAsUser(["dist/test-support/crash-child.js", "delete", `claude:${root}`, "-1", target], env);
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as { moved: number; skipped: Array<{ path?: string; reason: string }> };
}

describe(`a part the user may not move (run as uid ${USER.uid})`, () => {
  for (const target of ["trash", "quarantine"] as const)
    it(`nothing of the session moves (target ${target}): the sandbox is as it was, and the reason names the path and the fix`, () => {
      const s = forbiddenPartSandbox(target);
      // The store, the desktop trash and the quarantine: everything but our own state (audit, cache).
      const watched = [s.root, homeTrashDir(s.env), statePaths(s.env).quarantine];
      const before = snapshotTree(watched);
      const result = deleteAsUser(s.env, s.root, target);
      expect(treeChanges(before, snapshotTree(watched))).toEqual([]);
      expect(result.moved).toBe(0);
      expect(result.skipped).toHaveLength(1);
      expect(result.skipped[0]!.path).toBe(s.transcript);
      const reason = result.skipped[0]!.reason;
      expect(reason).toContain(`${s.folder} is ${asRoot ? "owned by root" : "yours, but not writable"}`);
      expect(reason).toMatch(FIX);
      expect(reason).toContain(` ${s.folder}\``);
      // Refused before its intent: no entry, open or closed, in the trash's journal.
      expect(listTrash({ actor: "cli", env: s.env }).entries).toEqual([]);
    });
});

describe("a part that fails mid-move", () => {
  it("sends back every part that had moved, closes the intent as not moved, and names the path", async () => {
    const home = realpathSync(mkdtempSync(join(tmpdir(), "sr-midmove-")));
    const s = claudeSession(home);
    lenientConfig("trash");
    const { sessions } = await scanStores({ stores: [{ kind: "claude", root: s.root }] });
    const record = sessions.find((r) => r.path === s.transcript)!;
    const before = snapshotTree([s.root]);
    let blocked: string | undefined;
    const result = await softDelete(
      {
        items: [{ id: record.id, fingerprint: record.fingerprint }],
        stores: [{ kind: "claude", root: s.root }],
        via: "selection",
      },
      {
        actor: "cli",
        // After the transcript moved and two parts followed it, something takes the next part's
        // place in the quarantine: its move fails (a move never overwrites).
        crashPoint: (step) => {
          if (step !== "sidecar-moved" || blocked) return;
          const { sidecars } = listTrash({ actor: "cli" }).entries[0]!;
          if (sidecars.filter((p) => !exists(p.from)).length < 2) return;
          blocked = sidecars.find((p) => exists(p.from))!.to;
          mkdirSync(dirname(blocked), { recursive: true });
          writeFileSync(blocked, "in the way");
        },
      },
    );
    expect(blocked).toBeDefined();
    expect(result.moved).toEqual([]);
    expect(result.skipped).toHaveLength(1);
    const reason = result.skipped[0]!.reason;
    expect(reason).toMatch(/^not moved: .* already exists; .*every part of it is where it was$/);
    expect(reason).toContain(blocked!);
    // Every part back where it was, byte for byte; nothing of it left in the trash or the quarantine.
    expect(treeChanges(before, snapshotTree([s.root]))).toEqual([]);
    rmSync(blocked!);
    expect(filesBelow(homeTrashDir())).toEqual([]);
    expect(filesBelow(statePaths().quarantine)).toEqual([]);
    expect(listTrash({ actor: "cli" }).entries.map((e) => e.state)).toEqual(["not-moved"]);
  });
});

/** The files (not folders) below `folder`, if it exists. */
function filesBelow(folder: string): string[] {
  if (!exists(folder)) return [];
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((e) => !e.isDirectory())
    .map((e) => join(e.parentPath, e.name));
}

const exists = (path: string) => lstatSync(path, { throwIfNoEntry: false }) !== undefined;
