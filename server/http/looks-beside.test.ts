// What a watched look reads beside the stores: a watched update keeps the last look's config, pins,
// trash ledgers and (for a while) live sessions instead of reading them again, and each is read
// again when its files change — by another process too, which the look must not miss. A real pi
// store, the real gather, the real CLI moving a session to the quarantine. And what an agent's own
// records said (Codex's state database, read with sqlite3) is kept while its files are unchanged.
import { spawnSync } from "node:child_process";
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CodexStoreBuilder, type Thread } from "../../test-support/codex-store.js";
import { messageLine, setModified, writeSession } from "../../test-support/pi-store.js";
import { piStores } from "../../test-support/pi-stores.js";
import { BIN } from "../../test-support/serve-child.js";
import { agentBin } from "../../test-support/test-agents.js";
import { type GatherOptions, gatherPlanInputs } from "../plan/plan-inputs.js";
import { setProtection } from "../state/protection-list.js";
import { statePaths } from "../state/state-dir.js";
import { createLooks } from "./looks.js";

const HOUR = 3_600_000;
const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** A policy that would clean every session older than `maxAgeDays`, into the quarantine. */
const policy = (maxAgeDays: number) => ({
  retention: { maxAgeDays, minKeepRecentCount: 0, keepLastPerNamespace: 0 },
  deletion: { target: "quarantine" },
});

/** Watched looks over a real store of old sessions; every gather's options are kept, in order. */
function watchedLooks() {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "sr-looks-beside-")));
  const files = ["/work/a", "/work/b", "/work/c"].map((cwd) => {
    const file = writeSession(root, cwd, 2).getSessionFile()!;
    setModified(file, new Date(Date.UTC(2025, 0, 1)));
    return file;
  });
  // An agent folder of its own: the state and the config of this test only.
  const env = {
    ...process.env,
    PI_CODING_AGENT_DIR: join(mkdtempSync(join(tmpdir(), "sr-looks-agent-")), "agent"),
  };
  const paths = statePaths(env);
  mkdirSync(paths.dir, { recursive: true });
  writeFileSync(paths.configFile, JSON.stringify(policy(30)));
  const gathers: Array<Pick<GatherOptions, "changed" | "kept">> = [];
  const looks = createLooks({
    gather: (options) => {
      gathers.push(options);
      return gatherPlanInputs({ flagStores: piStores(root), env, ...options });
    },
    watch: { stores: [{ kind: "pi", root }], metaDir: paths.sessionsMeta, config: { env } },
    freshMs: HOUR,
    reconcileMs: HOUR,
    followers: () => 1,
    onLook: () => {},
    onWatch: () => {},
  });
  cleanups.push(() => {
    looks.close();
    rmSync(root, { recursive: true, force: true });
  });
  /** What the gathers since `from` read (anything not kept), as "config", "pins", "ledgers", "live". */
  const readSince = (from: number) =>
    gathers.slice(from).map((g) => {
      const kept = g.kept ?? {};
      return [
        ...(kept.config ? [] : ["config"]),
        ...(kept.pins ? [] : ["pins"]),
        ...(kept.inTrash ? [] : ["ledgers"]),
        ...(kept.live ? [] : ["live"]),
      ];
    });
  return { root, files, env, paths, looks, gathers, readSince };
}

describe("a watched update", () => {
  it("reads neither the config nor the pins nor the ledgers, nor live sessions it detected just now", async () => {
    const { files, looks, gathers, readSince } = watchedLooks();
    const first = await looks.gather();
    expect(readSince(0)).toEqual([["config", "pins", "ledgers", "live"]]); // the first look reads all
    const asked = gathers.length;
    appendFileSync(files[0]!, messageLine("one more"));
    await expect.poll(() => looks.current()!.inputs !== first, { timeout: 15_000 }).toBe(true);
    // One update, of the one file, reading nothing beside it.
    expect(gathers.slice(asked).map((g) => [...(g.changed ?? ["(walk)"])])).toEqual([[files[0]]]);
    expect(readSince(asked)).toEqual([[]]);
    // And what it kept is what it shows.
    const now = looks.current()!.inputs;
    expect(now.config).toBe(first.config);
    expect(now.pins).toBe(first.pins);
    expect(now.report.sessions.find((s) => s.path === files[0])!.messageCount).toBe(5);
  });
});

describe("what a look keeps is read again when it changes", () => {
  it("a pin written by another process, and the config edited by hand, reach the look without a walk", async () => {
    const { files, paths, looks, gathers, readSince } = watchedLooks();
    const first = await looks.gather();
    const session = first.report.sessions.find((s) => s.path === files[1])!;
    const asked = gathers.length;
    setProtection([{ id: session.id, path: session.path }], true, "cli", paths); // as `protect` does
    await expect
      .poll(() => looks.current()!.inputs.pins.map((p) => p.id), { timeout: 15_000 })
      .toEqual([session.id]);
    expect(readSince(asked).flat()).toContain("pins");
    expect(readSince(asked).flat()).not.toContain("config");
    expect(gathers.slice(asked).every((g) => g.changed !== undefined)).toBe(true); // no walk

    writeFileSync(paths.configFile, JSON.stringify(policy(400)));
    await expect
      .poll(
        () => {
          const { config } = looks.current()!.inputs;
          return config.ok && config.config.retention.maxAgeDays;
        },
        { timeout: 15_000 },
      )
      .toBe(400);
  });

  it("a session another process moved to the trash and its agent re-created is in use, as before the change", async () => {
    const { root, files, env, looks } = watchedLooks();
    const first = await looks.gather();
    const session = first.report.sessions.find((s) => s.path === files[2])!;
    const content = readFileSync(files[2]!);
    // The real CLI, in a process of its own: it writes the trash ledger, which the look kept.
    const clean = spawnSync(process.execPath, [BIN, "clean", "--ids", session.id, "--yes", "--root", root], {
      encoding: "utf8",
      env,
    });
    expect(clean.stderr).toBe("");
    expect(clean.status).toBe(0);
    await expect
      .poll(() => looks.current()!.inputs.report.sessions.some((s) => s.path === files[2]), {
        timeout: 15_000,
      })
      .toBe(false);
    writeFileSync(files[2]!, content); // pi appends by path: the file comes back
    await expect
      .poll(() => looks.current()!.inputs.activeIds.get(session.id), { timeout: 15_000 })
      .toContain("a file appeared at the path of a session in the trash");
  });
});

describe("what an agent's own records said", () => {
  /**
   * A real Codex store with the state database Codex made, one spawn edge in it, and looks over it
   * whose `sqlite3` (the real one) writes each of its command lines to a log first.
   */
  function codexLooks() {
    const home = realpathSync(mkdtempSync(join(tmpdir(), "sr-looks-codex-")));
    cleanups.push(() => rmSync(home, { recursive: true, force: true }));
    const root = join(home, ".codex");
    const b = new CodexStoreBuilder(root, 41);
    const spawner = b.thread({ cwd: "/home/dev/shop", turns: 2 });
    const lost = b.thread({ cwd: "/home/dev/shop", turns: 1, spawnedBy: spawner, headerless: true });
    const other = b.thread({ cwd: "/home/dev/api", turns: 1 });
    const bystander = b.thread({ cwd: "/home/dev/docs", turns: 1 });
    b.finish();
    // Codex makes its state database at its first run.
    spawnSync(agentBin("codex"), ["delete", "--force", "00000000-0000-7000-8000-000000000000"], {
      env: { ...process.env, CODEX_HOME: root },
      stdio: "ignore",
    });
    const db = join(root, "state_5.sqlite");
    const edge = (parent: Thread, child: Thread) =>
      expect(
        spawnSync("sqlite3", [
          db,
          `insert into thread_spawn_edges (parent_thread_id, child_thread_id, status) values ('${parent.id}','${child.id}','closed')`,
        ]).status,
      ).toBe(0);
    edge(spawner, lost);
    const bin = join(home, "bin");
    const log = join(home, "sqlite3.log");
    mkdirSync(bin);
    const real = spawnSync("sh", ["-c", "command -v sqlite3"], { encoding: "utf8" }).stdout.trim();
    writeFileSync(join(bin, "sqlite3"), `#!/bin/sh\necho "$*" >> '${log}'\nexec '${real}' "$@"\n`, {
      mode: 0o755,
    });
    const env = {
      ...process.env,
      PATH: `${bin}:${process.env.PATH}`,
      CODEX_HOME: root,
      PI_CODING_AGENT_DIR: join(home, "agent"),
    };
    const stores = [{ kind: "codex" as const, root }];
    const looks = createLooks({
      gather: (options) => gatherPlanInputs({ flagStores: stores, env, ...options }),
      watch: { stores, metaDir: statePaths(env).sessionsMeta, config: { env } },
      freshMs: HOUR,
      reconcileMs: HOUR,
      followers: () => 1,
      onLook: () => {},
      onWatch: () => {},
    });
    cleanups.push(() => looks.close());
    /** How many times Codex's spawn edges were read. */
    const asked = () =>
      existsSync(log)
        ? readFileSync(log, "utf8")
            .split("\n")
            .filter((l) => l.includes("thread_spawn_edges")).length
        : 0;
    const takes = (thread: Thread) =>
      looks.current()!.inputs.agentAnswers?.get(`codex:${thread.id}`) as
        ReadonlyArray<{ what: string }> | undefined;
    return { root, spawner, lost, other, bystander, looks, asked, takes, edge };
  }

  it("is not asked again at a watched update that changed nothing of its records; a change to them is asked", async () => {
    const { spawner, lost, other, bystander, looks, asked, takes, edge } = codexLooks();
    const first = await looks.gather();
    expect(asked()).toBe(1);
    expect(takes(spawner)?.map((t) => t.what)).toEqual([`its spawned thread ${lost.id}`]);

    // A rollout appended to, as a running Codex does: a watched update, and no sqlite3.
    appendFileSync(
      bystander.path,
      `${JSON.stringify({ timestamp: new Date().toISOString(), type: "event_msg", payload: { type: "agent_message", message: "more" } })}\n`,
    );
    await expect.poll(() => looks.current()!.inputs !== first, { timeout: 15_000 }).toBe(true);
    const updated = looks.current()!.inputs;
    expect(updated.report.sessions.find((s) => s.path === bystander.path)!.sizeBytes).toBeGreaterThan(
      first.report.sessions.find((s) => s.path === bystander.path)!.sizeBytes,
    );
    expect(asked()).toBe(1);
    expect(takes(spawner)?.map((t) => t.what)).toEqual([`its spawned thread ${lost.id}`]);

    // Codex records a new spawn: the next look asks again, and sees it.
    edge(other, bystander);
    appendFileSync(
      other.path,
      `${JSON.stringify({ timestamp: new Date().toISOString(), type: "event_msg", payload: { type: "agent_message", message: "spawned" } })}\n`,
    );
    await expect
      .poll(() => takes(other)?.map((t) => t.what), { timeout: 15_000 })
      .toEqual([`its spawned thread ${bystander.id}`]);
    expect(asked()).toBe(2);
  });
});
