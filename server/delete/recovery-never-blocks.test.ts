// Recovery never blocks: an interrupted move it can neither finish nor undo (a folder the user may
// not write in) becomes a conflict that names the path and the fix, and every other entry — the
// dashboard starting, a restore, a purge — goes on as if it were not there. Real processes, real
// permissions: run as root, the commands run as uid 65534 (test-support/user-sandbox.ts).
import { dirname } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { TrashEntry, TrashList } from "../../shared/trash.js";
import { claudeFolderName, ClaudeStoreBuilder, CLAUDE_NOW } from "../../test-support/claude-store.js";
import { writeConfigFile } from "../../test-support/config-file.js";
import { startServe } from "../../test-support/serve-child.js";
import { fileTimes, snapshotTree, treeChanges } from "../../test-support/tree-snapshot.js";
import {
  allow,
  FIX,
  forbid,
  runAsUser,
  SPAWN_AS,
  USER,
  userSandbox,
} from "../../test-support/user-sandbox.js";
import { statePaths } from "../state/state-dir.js";
import { listTrash } from "./deletion-engine.js";

const DAY = 86_400_000;
const BIN = "bin/session-retention.js";

const cleanups: Array<() => void | Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** Three Claude sessions with bundles: one in /home/dev/shop, two in /srv/api. */
function threeSessions(home: string) {
  const b = new ClaudeStoreBuilder(home);
  const at = CLAUDE_NOW - 90 * DAY;
  const made = [
    ["/home/dev/shop", "Checkout refactor"],
    ["/srv/api", "Rate limiter"],
    ["/srv/api", "Webhook retries"],
  ].map(([cwd, title]) => {
    const t = b.session(cwd!, 90).summary(title!).conversation(2);
    const path = b.save(t);
    const id = t.session.id;
    const parts = [
      b.sessionFolder(id, claudeFolderName(cwd!), cwd!, at),
      b.fileHistory(id, at),
      b.sessionEnv(id, at),
      b.debugLog(id, at),
    ];
    return { path, parts };
  });
  b.finish();
  return { root: b.root, sessions: made };
}

describe(`an interrupted move that can be neither finished nor undone (run as uid ${USER.uid})`, () => {
  it("is a conflict naming the path and the fix; serve starts, other entries restore and purge, and it restores once the fix is made", async () => {
    const sandbox = userSandbox();
    cleanups.push(sandbox.remove);
    const { env } = sandbox;
    const { root, sessions } = threeSessions(sandbox.home);
    const [stuck, restored, purged] = sessions as [
      (typeof sessions)[0],
      (typeof sessions)[0],
      (typeof sessions)[0],
    ];
    // The stuck session as it is now: every file of it, its content and its time.
    const stuckFiles = [stuck.path, ...stuck.parts];
    const before = snapshotTree(stuckFiles);
    const times = fileTimes(dirname(stuck.path));
    writeConfigFile(
      {
        retention: { minKeepRecentCount: 0, keepLastPerNamespace: 0, allowEmptyStore: true },
        deletion: { target: "trash" },
      },
      statePaths(env).configFile,
    );
    sandbox.own();
    const cli = (...args: string[]) => runAsUser([BIN, ...args], env);
    const store = ["--store", `claude:${root}`];

    // Two sessions cleaned as usual: they are in the trash, one entry each.
    const ids = (path: string) => listed().find((e) => e.originalPath === path)?.entryId;
    const listed = () => listTrash({ actor: "cli", env }).entries;
    const cleaned = cli("clean", "--yes", ...store, "--ids", restored.path, purged.path);
    expect(cleaned.status, cleaned.stdout + cleaned.stderr).toBe(0);

    // The third is killed right after its transcript went to the desktop trash (crash point 2:
    // after the intents, their fsync, the move), before any part of its bundle followed.
    const killed = runAsUser(
      ["dist/test-support/crash-child.js", "delete", `claude:${root}`, "2", "trash"],
      env,
    );
    expect(killed.signal).toBe("SIGKILL");
    const stuckEntry = ids(stuck.path)!;
    expect(listed().find((e) => e.entryId === stuckEntry)?.state).toBe("moving");

    // Then its project's folder became root's (or lost its write right): the session's folder may
    // not leave it, and the transcript may not come back into it.
    const project = dirname(stuck.path);
    forbid(project);
    cleanups.push(() => allow(project));

    // The dashboard starts; recovery made the entry a conflict and went on.
    const server = await startServe(["--no-open", ...store], env, undefined, SPAWN_AS);
    cleanups.push(() => server.stop());
    const api = (path: string, body?: unknown) =>
      fetch(`${server.base}${path}`, {
        method: body === undefined ? "GET" : "POST",
        headers: {
          Authorization: `Bearer ${server.token}`,
          ...(body === undefined ? {} : { "Content-Type": "application/json" }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    const trash = (await (await api("/api/trash")).json()) as TrashList;
    const conflict = trash.entries.find((e) => e.entryId === stuckEntry) as TrashEntry;
    expect(conflict.state).toBe("conflict");
    expect(conflict.reason).toContain(project);
    expect(conflict.reason).toMatch(FIX);
    expect(conflict.reason).toContain(`session-retention trash restore ${stuckEntry}`);
    expect(server.output()).toContain("conflict");

    // The other entries: a restore through the dashboard, a purge through the CLI.
    const restoring = await api("/api/trash/restore", { refs: [ids(restored.path)] });
    expect(restoring.status).toBe(200);
    expect(((await restoring.json()) as { done: unknown[] }).done).toHaveLength(1);
    const purgedEntry = listed().find((e) => e.originalPath === purged.path)!;
    const purging = cli("trash", "purge", purgedEntry.entryId, "--confirm", `1:${purgedEntry.sizeBytes}`);
    expect(purging.status, purging.stdout + purging.stderr).toBe(0);
    expect(listed().find((e) => e.entryId === purgedEntry.entryId)?.state).toBe("purged");

    // `trash list` shows the conflict with its sentence.
    const list = cli("trash", "list");
    expect(list.status).toBe(0);
    expect(list.stdout).toContain(`! conflict: ~${stuck.path.slice(sandbox.home.length)} — interrupted`);
    expect(list.stdout).toContain(`session-retention trash restore ${stuckEntry}`);

    // Not retried behind the user's back: the operations since left the conflict as it is.
    expect(listed().find((e) => e.entryId === stuckEntry)?.state).toBe("conflict");

    // The fix it names, then the restore it names: every part back where it was, as it was.
    allow(project);
    const back = cli("trash", "restore", stuckEntry);
    expect(back.status, back.stdout + back.stderr).toBe(0);
    expect(listed().find((e) => e.entryId === stuckEntry)?.state).toBe("restored");
    expect(treeChanges(before, snapshotTree(stuckFiles))).toEqual([]);
    expect(fileTimes(project)).toEqual(times);
  });

  it("a restore whose part may not come back: a conflict naming the path and the fix, never a stack trace; restored whole once fixed", () => {
    const sandbox = userSandbox();
    cleanups.push(sandbox.remove);
    const { env } = sandbox;
    const { root, sessions } = threeSessions(sandbox.home);
    const session = sessions[0]!;
    const before = snapshotTree([session.path, ...session.parts]);
    writeConfigFile(
      {
        retention: { minKeepRecentCount: 0, keepLastPerNamespace: 0, allowEmptyStore: true },
        deletion: { target: "trash" },
      },
      statePaths(env).configFile,
    );
    sandbox.own();
    const cli = (...args: string[]) => runAsUser([BIN, ...args], env);
    const cleaned = cli("clean", "--yes", "--store", `claude:${root}`, "--ids", session.path);
    expect(cleaned.status, cleaned.stdout + cleaned.stderr).toBe(0);
    const entry = listTrash({ actor: "cli", env }).entries[0]!;
    // Where its file history goes back to is root's now.
    const history = dirname(session.parts[1]!);
    forbid(history);
    cleanups.push(() => allow(history));
    const refused = cli("trash", "restore", entry.entryId);
    expect(refused.status).toBe(1);
    expect(refused.stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect(refused.stdout).toContain(
      `restore failed: interrupted half-way, and neither finished nor undone: ${history} is`,
    );
    expect(refused.stdout).toMatch(FIX);
    expect(refused.stdout).toContain(`session-retention trash restore ${entry.entryId}`);
    expect(listTrash({ actor: "cli", env }).entries[0]!.state).toBe("conflict");
    allow(history);
    const back = cli("trash", "restore", entry.entryId);
    expect(back.status, back.stdout + back.stderr).toBe(0);
    expect(listTrash({ actor: "cli", env }).entries[0]!.state).toBe("restored");
    expect(treeChanges(before, snapshotTree([session.path, ...session.parts]))).toEqual([]);
  });

  it("a part that may not follow the transcript: the move is undone whole, and the reason names the part and the fix", async () => {
    const sandbox = userSandbox();
    cleanups.push(sandbox.remove);
    const { env } = sandbox;
    const { root, sessions } = threeSessions(sandbox.home);
    const stuck = sessions[0]!;
    const folder = stuck.parts[0]!; // projects/<p>/<id>/
    const before = snapshotTree([stuck.path, ...stuck.parts]);
    sandbox.own();
    // Killed after the transcripts went to the desktop trash (one call takes them all), as an older
    // version left one whose part it had not checked; then that session's folder is root's.
    const killed = runAsUser(
      ["dist/test-support/crash-child.js", "delete", `claude:${root}`, "2", "trash"],
      env,
    );
    expect(killed.signal).toBe("SIGKILL");
    forbid(folder);
    cleanups.push(() => allow(folder));
    // The next operation (here a dry run) recovers first.
    const next = runAsUser([BIN, "clean", "--dry-run", "--store", `claude:${root}`], env);
    expect(next.status, next.stderr).toBe(0);
    expect(next.stderr).toContain(`rolled-back: not moved: ${folder} is `);
    const list = runAsUser([BIN, "trash", "list", "--all", "--json"], env);
    expect(list.status, list.stderr).toBe(0);
    const entries = (JSON.parse(list.stdout) as TrashList).entries;
    const entry = entries.find((e) => e.originalPath === stuck.path)!;
    expect(entry.state).toBe("not-moved");
    expect(entry.reason).toContain(`${folder} is `);
    expect(entry.reason).toMatch(FIX);
    expect(entry.reason).toMatch(/every part of it is where it was$/);
    // Everything in place, as it was (the modes of the folder made off limits aside).
    allow(folder);
    expect(treeChanges(before, snapshotTree([stuck.path, ...stuck.parts]))).toEqual([]);
  });
});
