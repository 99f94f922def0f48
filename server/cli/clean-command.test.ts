// clean, trash and audit through runCli (and, for concurrency, as two real processes), on stores
// written by pi's SessionManager; the trash and the state dir are in the test's temporary home.
import { spawn } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { formatBytes } from "../../shared/format.js";
import { writeConfigFile } from "../../test-support/config-file.js";
import { describe, expect, it } from "vitest";
import { runCaptured as run } from "../../test-support/cli-run.js";
import { setModified, writeSession } from "../../test-support/pi-store.js";
import { scanStores } from "../scan/scanner.js";
import { removeActiveMarker, writeActiveMarker } from "../state/active-sessions.js";
import { statePaths } from "../state/state-dir.js";
import type { CleanJson } from "./clean-command.js";
import type { CliJsonError } from "./io.js";
import { piStores } from "../../test-support/pi-stores.js";

/** A store of old sessions in two namespaces, and a config that makes all but the newest candidates. */
async function store(n = 4) {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "sr-clean-")));
  const paths: string[] = [];
  for (let i = 0; i < n; i++) {
    const path = writeSession(root, `/work/p${i % 2}`, 1 + i).getSessionFile()!;
    setModified(path, new Date(Date.UTC(2025, 0, 1 + i)));
    paths.push(path);
  }
  const config = writeConfigFile(
    {
      retention: { maxAgeDays: 30, minKeepRecentCount: 1, keepLastPerNamespace: 0 },
      deletion: { target: "quarantine" },
    },
    join(mkdtempSync(join(tmpdir(), "sr-cfg-")), "session-retention.json"),
  );
  const { sessions } = await scanStores({ stores: piStores(root) });
  const idOf = (path: string) => sessions.find((s) => s.path === path)!.id;
  return { root, paths, config, idOf, args: ["--root", root, "--config", config] };
}

describe("session-retention clean", () => {
  it("without a terminal and without --yes it refuses, and nothing moves", async () => {
    const s = await store();
    const result = await run(["clean", ...s.args]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("no terminal to ask on; pass --yes");
    for (const p of s.paths) expect(existsSync(p)).toBe(true);
  });

  it("previews count, bytes and the riskiest, asks for DELETE, then reports what moved, saying it is still on disk until emptied", async () => {
    const s = await store();
    const sizes = s.paths.slice(0, 3).reduce((t, p) => t + statSync(p).size, 0);
    const result = await run(["clean", ...s.args], () => "DELETE");
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(`3 sessions, `);
    expect(result.stdout).toContain(`(${sizes} bytes), would go to the quarantine folder:`);
    expect(result.stdout).toContain("Riskiest");
    // Each session by its title (no names here: the first message), its path after it.
    expect(result.stdout).toMatch(/WHY\s+TITLE\s+SESSION/);
    expect(result.stdout).toMatch(/question 0 in \/work\/p0\s+\S+\.jsonl/);
    expect(result.questions).toEqual([
      expect.stringMatching(/^Type DELETE to move 3 sessions \(.*\) to the quarantine folder: $/),
    ]);
    expect(result.stdout).toMatch(
      new RegExp(
        `^3 sessions, .* \\(${sizes} bytes\\): moved to the trash — still on disk until emptied`,
        "m",
      ),
    );
    expect(s.paths.map((p) => existsSync(p))).toEqual([false, false, false, true]);
  });

  it("a long preview lists the first 20 sessions and how many more before the DELETE prompt; --all lists every one; --json has them all", async () => {
    const s = await store(25); // 24 candidates
    const listed = (stdout: string) =>
      stdout
        .split("Riskiest")[0]!
        .split("\n")
        .filter((line) => line.endsWith(".jsonl"));
    const top = await run(["clean", ...s.args], () => "no");
    expect(top.status).toBe(1);
    expect(listed(top.stdout)).toHaveLength(20);
    expect(top.stdout).toContain("\n  …and 4 more (--all to list every one)\n");
    expect(top.questions).toEqual([expect.stringMatching(/^Type DELETE to move 24 sessions /)]);
    const all = await run(["clean", ...s.args, "--all"], () => "no");
    expect(listed(all.stdout)).toHaveLength(24);
    expect(all.stdout).not.toContain("more (--all");
    const json = await run(["clean", ...s.args, "--dry-run", "--json"]);
    expect((JSON.parse(json.stdout) as CleanJson).sessions).toHaveLength(24);
    for (const p of s.paths) expect(existsSync(p)).toBe(true);
  });

  it("anything but DELETE cancels", async () => {
    const s = await store();
    const result = await run(["clean", ...s.args], () => "delete");
    expect(result).toMatchObject({
      status: 1,
      stdout: expect.stringContaining("Cancelled: nothing was moved."),
    });
    for (const p of s.paths) expect(existsSync(p)).toBe(true);
  });

  it("--dry-run moves nothing", async () => {
    const s = await store();
    const result = await run(["clean", "--dry-run", ...s.args]);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("Dry run: nothing was moved.");
    for (const p of s.paths) expect(existsSync(p)).toBe(true);
  });

  it("--ids: a hand selection (acceptance 2); the active session is kept even when named (acceptance 6), and the exit status says one stayed", async () => {
    const s = await store();
    writeActiveMarker(statePaths().activeMarkers, {
      pid: process.pid,
      sessionFile: s.paths[0]!,
      startedAt: new Date().toISOString(),
    });
    try {
      const result = await run(["clean", "--yes", "--ids", s.idOf(s.paths[0]!), s.paths[1]!, ...s.args]);
      // A session named by hand that stays is a skip: 1, as the help says, not "all moved".
      expect(result.status).toBe(1);
      expect(result.stderr).toContain(`kept: ${s.paths[0]} — active: pi process ${process.pid} (marker)`);
      expect(existsSync(s.paths[0]!)).toBe(true);
      expect(existsSync(s.paths[1]!)).toBe(false);
    } finally {
      removeActiveMarker(statePaths().activeMarkers, process.pid);
    }
  });

  it("an invalid config: read-only, nothing moves", async () => {
    const s = await store();
    writeFileSync(s.config, JSON.stringify({ retention: { maxAgeDays: -1 } }));
    const result = await run(["clean", "--yes", ...s.args]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("Running read-only");
    for (const p of s.paths) expect(existsSync(p)).toBe(true);
  });

  it("two clean processes on the same ids at once move each file once", async () => {
    const s = await store(6);
    const ids = s.paths.slice(0, 5).map((p) => s.idOf(p));
    const cli = (): Promise<{ code: number | null; out: string }> =>
      new Promise((resolve) => {
        const child = spawn(
          process.execPath,
          ["bin/session-retention.js", "clean", "--yes", "--ids", ...ids, ...s.args],
          {
            env: process.env,
            stdio: ["ignore", "pipe", "pipe"],
          },
        );
        let out = "";
        child.stdout.on("data", (c) => (out += c));
        child.stderr.on("data", (c) => (out += c));
        child.once("exit", (code) => resolve({ code, out }));
      });
    const [a, b] = await Promise.all([cli(), cli()]);
    const moved = [a, b].map((r) =>
      Number(/^(\d+) sessions?, .*: moved to the trash/m.exec(r.out)?.[1] ?? 0),
    );
    expect(
      moved.reduce((x, y) => x + y, 0),
      `${a.out}\n---\n${b.out}`,
    ).toBe(5);
    for (const p of s.paths.slice(0, 5)) expect(existsSync(p)).toBe(false);
    const quarantined = readdirSync(join(statePaths().dir, "..", "session-trash"), {
      recursive: true,
    }).filter((n) => String(n).endsWith(".jsonl"));
    for (const p of s.paths.slice(0, 5))
      expect(quarantined.filter((n) => String(n).endsWith(p.slice(p.lastIndexOf("/") + 1)))).toHaveLength(1);
  });
});

describe("session-retention trash and audit", () => {
  it("list, restore, purge with the echoed COUNT:BYTES, and the audit trail of all of it", async () => {
    const s = await store();
    const bytes = readFileSync(s.paths[0]!);
    await run(["clean", "--yes", ...s.args]);

    const list = JSON.parse((await run(["trash", "list", "--json"])).stdout) as {
      entries: { entryId: string; originalPath: string; state: string; sizeBytes: number }[];
    };
    const mine = list.entries.filter((e) => s.paths.includes(e.originalPath));
    expect(mine.map((e) => e.state)).toEqual(["in-trash", "in-trash", "in-trash"]);
    expect((await run(["trash", "list"])).stdout).toContain("quarantine");
    expect((await run(["trash", "list"])).stdout).toMatch(/STATE\s+TITLE\s+ORIGINAL PATH/);
    expect((await run(["trash", "list"])).stdout).toMatch(/in-trash\s+question 0 in \/work\/p1\s/);

    const restored = await run(["trash", "restore", s.idOf(s.paths[0]!)]);
    expect(restored.status).toBe(0);
    expect(restored.stdout).toContain(`restored “question 0 in /work/p0” `);
    expect(readFileSync(s.paths[0]!).equals(bytes)).toBe(true);

    const rest = mine.filter((e) => e.originalPath !== s.paths[0]);
    const refs = rest.map((e) => e.entryId);
    const total = rest.reduce((t, e) => t + e.sizeBytes, 0);
    const ask = await run(["trash", "purge", ...refs]);
    expect(ask.status).toBe(2);
    expect(ask.stdout).toContain(`--confirm 2:${total}`);
    const wrong = await run(["trash", "purge", ...refs, "--confirm", `2:${total - 1}`]);
    expect(wrong).toMatchObject({ status: 2, stderr: expect.stringContaining(`must be 2:${total}`) });
    const done = await run(["trash", "purge", ...refs, "--confirm", `2:${total}`]);
    expect(done.status).toBe(0);
    // Only a purge frees space, and says so; a restore does not.
    expect(done.stdout).toContain(`2 purged, ${formatBytes(total)} freed.`);
    expect(restored.stdout).toMatch(/^1 restored, [^,]+\.$/m);

    const audit = JSON.parse((await run(["audit", "--json", "--since", "1h"])).stdout) as {
      entries: { action: string; result: string }[];
    };
    expect(audit.entries.slice(0, 3).map((e) => e.action)).toEqual(["purge", "restore", "soft-delete"]);
    expect((await run(["audit"])).stdout).toMatch(/cli {2}purge \(hard\) {2}ok/);
  });

  it("the undo command clean prints works exactly as printed: everything of that clean comes back", async () => {
    const s = await store();
    const before = s.paths.map((p) => readFileSync(p));
    const cleaned = await run(["clean", "--yes", ...s.args]);
    const undo = /undo with `session-retention (trash restore [^`]+)`/.exec(cleaned.stdout)?.[1];
    expect(undo, cleaned.stdout).toMatch(/^trash restore \d{8}T\d{6}Z-[0-9a-f]{6}$/);
    expect(s.paths.filter((p) => !existsSync(p))).toHaveLength(3);

    const restored = await run(undo!.split(" "));
    expect(restored.status, restored.stderr).toBe(0);
    expect(restored.stdout).toContain("3 restored");
    s.paths.forEach((p, i) => expect(readFileSync(p).equals(before[i]!), p).toBe(true));
  });

  it("restore and purge take operation ids, and 8+ characters of a name; a ref naming nothing, or several, changes nothing", async () => {
    // Only this test's operations in the trash (earlier tests leave theirs), so that a start of 8
    // characters names exactly what the test means.
    rmSync(join(statePaths().dir, "trash"), { recursive: true, force: true });
    const s = await store();
    const opOf = (stdout: string) => /operation (\S+);/.exec(stdout)![1]!;
    const first = opOf((await run(["clean", "--yes", ...s.args])).stdout); // paths 0–2; the newest is kept
    const inPlace = () => s.paths.map((p) => existsSync(p));

    const nothing = await run(["trash", "restore", first, "no-such-entry"]);
    expect(nothing.status).toBe(2);
    expect(nothing.stderr).toContain("nothing in the trash is called no-such-entry");
    expect(inPlace()).toEqual([false, false, false, true]);

    const last = s.idOf(s.paths[3]!);
    const allowEmpty = ["--set", "retention.allowEmptyStore=true", "--set", "retention.minKeepRecentCount=0"];
    const second = opOf((await run(["clean", "--yes", "--ids", last, ...allowEmpty, ...s.args])).stdout);
    const both = first.slice(0, 8); // the date both operations share
    const ambiguous = await run(["trash", "restore", both]);
    expect(ambiguous.status).toBe(2);
    expect(ambiguous.stderr).toContain(`"${both}" starts 2 names in the trash: `);
    for (const operation of [first, second]) expect(ambiguous.stderr).toContain(operation);
    expect(inPlace()).toEqual([false, false, false, false]);

    const ask = await run(["trash", "purge", first]);
    expect(ask).toMatchObject({ status: 2, stdout: expect.stringContaining("--confirm 3:") });

    // A session id's start, and the operation it is part of: its entry is restored once.
    const restored = await run(["trash", "restore", s.idOf(s.paths[0]!).slice(0, -1), first]);
    expect(restored.status, restored.stderr).toBe(0);
    expect(restored.stdout).toContain("3 restored");
    expect(restored.stdout).not.toContain("freed");
    expect(inPlace()).toEqual([true, true, true, false]);
    // Now only the second operation is in the trash: 8 characters name it.
    expect((await run(["trash", "restore", both])).status).toBe(0);
    expect(inPlace()).toEqual([true, true, true, true]);
  });

  it("trash empty purges only what is older than the duration, with the same confirmation", async () => {
    const s = await store();
    await run(["clean", "--yes", ...s.args]);
    const none = await run(["trash", "empty", "--older-than", "30d"]);
    expect(none).toMatchObject({
      status: 0,
      stdout: expect.stringContaining("Nothing in the trash was deleted more than 30d ago"),
    });
    expect((await run(["trash", "empty", "--older-than", "soon"])).stderr).toContain("wants a duration");
    // restic's "1m" is a month, most tools' a minute: refused with both spellings, and nothing purged.
    const ambiguous = await run(["trash", "empty", "--older-than", "1m", "--confirm", "3:1"]);
    expect(ambiguous).toMatchObject({
      status: 2,
      stderr: 'session-retention: --older-than: "1m" is ambiguous: did you mean 1mo (month) or 1min?',
    });
    expect((await run(["trash", "list", "--json"])).stdout).toContain('"in-trash"');
  });
});

describe("orphaned session-index files", () => {
  it("are listed by plan and moved by clean as their own kind of candidate, and restorable", async () => {
    const s = await store();
    const metaDir = statePaths().sessionsMeta;
    mkdirSync(metaDir, { recursive: true });
    const orphan = join(metaDir, "0190cccc-0000-7000-8000-000000000009.meta.json");
    writeFileSync(
      orphan,
      JSON.stringify({ sessionId: "0190cccc-0000-7000-8000-000000000009", name: "gone" }),
    );
    const plan = await run(["plan", ...s.args]);
    expect(plan.stdout).toMatch(/Orphaned session-index files: 1 \(/);
    const cleaned = await run(["clean", "--yes", ...s.args]);
    expect(cleaned.stdout).toContain("…and 1 orphaned session-index file");
    expect(cleaned.stdout).toContain("4 sessions, "); // 3 sessions + the orphan
    expect(existsSync(orphan)).toBe(false);
    const restored = await run(["trash", "restore", "meta:0190cccc-0000-7000-8000-000000000009"]);
    expect(restored.status).toBe(0);
    expect(JSON.parse(readFileSync(orphan, "utf8")).name).toBe("gone");
  });
});

describe("--json on the commands that act", () => {
  const inPlace = (paths: string[]) => paths.map((p) => existsSync(p));
  it("clean: a dry run and a move are one document each, and trash restore/purge answer in JSON", async () => {
    const s = await store();
    const dry = await run(["clean", "--dry-run", "--json", ...s.args]);
    expect(dry.status).toBe(0);
    const preview = JSON.parse(dry.stdout) as CleanJson;
    expect(preview).toMatchObject({ dryRun: true, result: { dryRun: true } });
    expect(preview.sessions.map((x) => x.path).sort()).toEqual(s.paths.slice(0, 3).sort());
    expect(inPlace(s.paths)).toEqual([true, true, true, true]);

    const moved = JSON.parse((await run(["clean", "--yes", "--json", ...s.args])).stdout) as CleanJson;
    // (An orphaned index file an earlier test left in the shared state dir may go with them.)
    expect(moved.result!.moved.map((m) => m.path)).toEqual(expect.arrayContaining(s.paths.slice(0, 3)));
    expect(inPlace(s.paths)).toEqual([false, false, false, true]);
    const operation = moved.result!.operationId!;

    const restored = await run(["trash", "restore", s.idOf(s.paths[0]!), "--json"]);
    expect(restored.status).toBe(0);
    expect(JSON.parse(restored.stdout)).toMatchObject({ done: [{ path: s.paths[0] }], skipped: [] });
    expect(inPlace(s.paths)).toEqual([true, false, false, true]);

    // A purge without --confirm says what to confirm, in JSON, and deletes nothing.
    const ask = await run(["trash", "purge", operation, "--json"]);
    expect(ask.status).toBe(2);
    const { needsConfirmation, count } = JSON.parse(ask.stdout);
    expect(count).toBe(moved.result!.moved.length - 1);
    const purged = await run(["trash", "purge", operation, "--confirm", needsConfirmation, "--json"]);
    expect(purged.status).toBe(0);
    expect(JSON.parse(purged.stdout).done).toHaveLength(count);
  });

  it("errors are JSON too, with a non-zero exit: a bad flag, an invalid config, no confirmation", async () => {
    const s = await store();
    for (const argv of [
      ["clean", "--json", "--frobnicate"],
      ["clean", "--json", ...s.args, "--set", "mode=sometimes"],
      ["clean", "--json", ...s.args],
      ["trash", "restore", "nothing-like-this", "--json"],
    ]) {
      const result = await run(argv);
      expect(result.status, argv.join(" ")).toBe(2);
      const failure = JSON.parse(result.stdout) as CliJsonError;
      expect(failure).toMatchObject({ ok: false, exitCode: 2 });
      expect(failure.errors.join("\n")).toBe(result.stderr);
    }
    expect(inPlace(s.paths)).toEqual([true, true, true, true]);
  });

  it("protect and unprotect: what changed and what already was, and --list", async () => {
    const s = await store();
    const id = s.idOf(s.paths[0]!);
    const pinned = await run(["protect", id, "--json", "--root", s.root]);
    expect(JSON.parse(pinned.stdout)).toEqual({
      action: "protect",
      changed: [{ id, path: s.paths[0] }],
      unchanged: [],
    });
    expect(JSON.parse((await run(["protect", "--list", "--json"])).stdout).pins).toContainEqual(
      expect.objectContaining({ id }),
    );
    const again = JSON.parse((await run(["protect", id, "--json", "--root", s.root])).stdout);
    expect(again).toMatchObject({ changed: [], unchanged: [{ id }] });
    const unpinned = JSON.parse((await run(["unprotect", id, "--json", "--root", s.root])).stdout);
    expect(unpinned).toMatchObject({ action: "unprotect", changed: [{ id }] });
  });
});
