// Crash injection (docs/safety.md G9): a bulk soft delete of 200 sessions runs in a child process
// and is SIGKILLed — at a chosen crash point of the engine (after the intents are written, after a
// move, after its outcome is recorded) or from outside at a random moment. Recovery then runs, and
// every session must exist exactly once, byte-identical: in place, or in the trash with a record
// that restores it. 12 trials in `npm test`, 36 in `npm run test:full` (test-support/slow-lane.ts),
// 200 in `npm run test:crash`.
import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import {
  baselineOf,
  crashHome,
  expectWhole,
  inSandbox,
  type Kill,
  recoverAfterKill,
  runChild,
  sha,
  unnamedInTrash,
  type Unit,
} from "../../test-support/crash-harness.js";
import { setModified, writeSession } from "../../test-support/pi-store.js";
import { crashTrials } from "../../test-support/slow-lane.js";
import { Random } from "../demo/seeded-random.js";
import { scanStores } from "../scan/scanner.js";
import { listTrash, restore } from "./deletion-engine.js";
import { piStores } from "../../test-support/pi-stores.js";

const SESSIONS = 200;
const TRIALS = crashTrials(12, 36);
const SEED = Number(process.env.CRASH_SEED ?? 20261122);
/** Crash points of one run: 2 per batch of 64 intents, 2 per moved session. */
const CRASH_POINTS = 2 * Math.ceil(SESSIONS / 64) + 2 * SESSIONS;

let template: string;
let originals: Map<string, string>; // path relative to the store → sha256

beforeAll(async () => {
  template = realpathSync(mkdtempSync(join(tmpdir(), "sr-crash-template-")));
  for (let i = 0; i < SESSIONS; i++)
    setModified(
      writeSession(template, `/work/p${i % 7}`, 1 + (i % 3)).getSessionFile()!,
      new Date("2025-01-01T00:00:00Z"),
    );
  const { sessions } = await scanStores({ stores: piStores(template) });
  originals = new Map(sessions.map((s) => [s.path.slice(template.length), sha(s.path)]));
  expect(originals.size).toBe(SESSIONS);
});

interface Trial extends Kill {
  target: "quarantine" | "trash";
}

function trials(): Trial[] {
  const random = new Random(SEED);
  return Array.from({ length: TRIALS }, (_, i) => {
    const target = i % 3 === 2 ? "trash" : "quarantine";
    return i % 2 === 0
      ? { target, crashAt: random.int(0, CRASH_POINTS + 5) }
      : { target, crashAt: -1, killAfterMs: random.int(100, 1200) };
  });
}

/** Runs a trial's child on a fresh copy of the template store; the caller recovers its own way. */
async function runTrial(trial: Trial) {
  const { home, env, engine } = crashHome();
  const root = join(env.PI_CODING_AGENT_DIR!, "sessions");
  cpSync(template, root, { recursive: true, preserveTimestamps: true });
  const units: Unit[] = [...originals.keys()].map((relative) => ({
    id: relative,
    path: root + relative,
    bundle: [],
  }));
  const baseline = baselineOf(units);
  const { killed } = await runChild("delete", `pi:${root}`, trial, env, trial.target);
  return { home, root, env, engine, units, baseline, killed };
}

describe("crash injection: SIGKILL during a bulk soft delete of 200 sessions", () => {
  it(`loses and duplicates nothing in ${TRIALS} trials (seed ${SEED})`, { timeout: 600_000 }, async () => {
    const seen = { killed: 0, midway: 0, emptyLocks: 0 };
    for (const [i, trial] of trials().entries()) {
      const { home, root, env, engine, units, baseline, killed } = await runTrial(trial);
      const where = `trial ${i} ${JSON.stringify(trial)}`;
      await inSandbox(home, units, env, async () => {
        if (killed) seen.killed++;
        // A kill from outside may land between the lock file's create and its write.
        const recovered = await recoverAfterKill(engine, where, seen);
        const { entries } = listTrash(engine);
        expect(
          recovered.filter((r) => r.result === "conflict"),
          where,
        ).toEqual([]);
        // Every session exists exactly once, byte-identical (with its time): in place, or in the trash.
        const inTrash = expectWhole(units, baseline, entries, where);
        expect(unnamedInTrash(entries, env), `${where}: nothing in the trash that no entry names`).toEqual(
          [],
        );
        if (inTrash.length > 0 && inTrash.length < SESSIONS) seen.midway++;

        // Every trashed session comes back, byte-identical, and the trash is left empty.
        const restored = await restore(
          inTrash.map((e) => e.entryId),
          engine,
        );
        expect(restored.skipped, where).toEqual([]);
        expectWhole(units, baseline, listTrash(engine).entries, `${where}, restored`);
        expect(unnamedInTrash([], env), `${where}: the trash is empty after the restore`).toEqual([]);
        for (const [relative, hash] of originals) expect(sha(root + relative), where).toBe(hash);
      });
    }
    // The trials must really have interrupted operations, many of them half-way.
    expect(seen.killed, JSON.stringify(seen)).toBeGreaterThanOrEqual(TRIALS / 2);
    expect(seen.midway, JSON.stringify(seen)).toBeGreaterThanOrEqual(TRIALS / 3);
    console.log(`pi crash trials: ${JSON.stringify(seen)}`);
  });
});

describe("after a kill -9, the dashboard recovers when it starts", () => {
  it("serve resolves every open intent before it answers, so the trash never shows 'moving'", async () => {
    // Killed right after the first batch of intents is durable: 64 intents open, nothing moved.
    const { root, env, engine } = await runTrial({ target: "trash", crashAt: 1 });
    const { entries } = listTrash(engine);
    expect(entries.filter((e) => e.state === "moving").length).toBeGreaterThan(0);
    const server = spawn(
      process.execPath,
      ["bin/session-retention.js", "serve", "--port", "0", "--no-open", "--root", root],
      { env, stdio: ["ignore", "pipe", "pipe"] },
    );
    try {
      let stdout = "";
      let stderr = "";
      server.stderr.on("data", (chunk) => (stderr += chunk));
      await new Promise<void>((resolve, reject) => {
        server.stdout.on("data", (chunk) => {
          stdout += chunk;
          if (stdout.includes("session-retention dashboard: http://127.0.0.1:")) resolve();
        });
        server.once("exit", (code) => reject(new Error(`serve exited (${code}): ${stderr}`)));
      });
      expect(listTrash(engine).entries.filter((e) => e.state === "moving")).toEqual([]);
      expect(stderr).toContain("recovered an interrupted operation");
      for (const [relative, hash] of originals) expect(sha(root + relative)).toBe(hash);
    } finally {
      server.kill("SIGTERM");
    }
  });
});
