// Recovery of a Codex move waits for a `codex delete` our killed process left running — the whole
// of its life, though its command line reads otherwise while it replaces its program, and one
// that had not started its program yet when the wait began.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { waitForCodexDelete } from "./codex-custody.js";

const THREAD = "019a0000-0000-7000-8000-00000000c0de";

/** Whether /proc shows `pid` running with `thread` on its command line (a zombie's is empty). */
const running = (pid: number, thread: string) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").includes(thread);
  } catch {
    return false;
  }
};

/** Whether process `pid` is alive: there, and no zombie (its parent, this test, has not reaped it). */
const alive = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return !["Z", "X"].includes(stat.slice(stat.lastIndexOf(")") + 2)[0]!);
  } catch {
    return false;
  }
};

/**
 * A real process whose command line reads like `codex delete --force <thread>`: resolved once it is
 * running (it says so), it ends `lifeMs` after that, or when killed. `script` replaces what it runs.
 */
async function fakeDelete(thread: string, lifeMs: number, script = `setTimeout(() => {}, ${lifeMs})`) {
  const child = spawn(
    process.execPath,
    ["-e", `console.log("ready"); ${script}`, "delete", "--force", thread],
    {
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const exited = once(child, "exit");
  await once(child.stdout!, "data");
  return { child, exited };
}

describe.runIf(process.platform === "linux")("waitForCodexDelete", () => {
  it("returns only once the delete of that thread has ended", async () => {
    // Its life is long beside the microseconds between the check below and the call, however
    // loaded the machine; the test needs no bound on how long the wait took, only that it ended.
    const { child, exited } = await fakeDelete(THREAD, 3_000);
    expect(running(child.pid!, THREAD)).toBe(true);
    const started = Date.now();
    waitForCodexDelete(THREAD, 60_000);
    expect(running(child.pid!, THREAD)).toBe(false);
    expect(Date.now() - started).toBeLessThan(60_000); // it ended, not the limit
    await exited;
  });

  it("does not wait for a delete of another thread, nor past its limit", async () => {
    // This delete ends by itself only long past every limit below: a wait for it lasts the whole
    // limit it is given, and a wait that ignored its limit fails here instead of hanging.
    const { child, exited } = await fakeDelete(THREAD, 120_000);
    try {
      let started = Date.now();
      waitForCodexDelete("019a0000-0000-7000-8000-0000000000ff", 60_000);
      expect(Date.now() - started).toBeLessThan(30_000); // far from its limit: it did not wait
      started = Date.now();
      waitForCodexDelete(THREAD, 500);
      const waited = Date.now() - started;
      expect(waited).toBeGreaterThanOrEqual(500); // it waited: the delete runs
      expect(waited).toBeLessThan(30_000); // and gave up at its limit, not at the delete's end
      expect(running(child.pid!, THREAD)).toBe(true);
    } finally {
      child.kill();
      await exited;
    }
  });

  // The `codex` launcher replaces itself with the native binary (process.execve): for a few ms its
  // command line reads empty, and a wait that looked only at command lines stopped there — then
  // recovery judged the move untouched, removed our copy, and Codex deleted the session (the crash
  // harness's one lost session, codex-crash-recovery.test.ts). Here the stand-in becomes `sleep`,
  // whose command line names no thread at all, for its last 1.5 s: the same process, still at work.
  it("follows the delete by its pid while it replaces its program", async () => {
    const { child, exited } = await fakeDelete(
      THREAD,
      0,
      `setTimeout(() => process.execve("/bin/sleep", ["sleep", "1.5"]), 300)`,
    );
    waitForCodexDelete(THREAD, 60_000);
    expect(alive(child.pid!)).toBe(false);
    await exited;
  });

  // A process of ours killed just after it forked the delete leaves a child that has not started
  // `codex` yet: its command line is still ours. The wait looks for a while before it concludes
  // there is none. Here the delete's command line appears 200 ms after the wait began.
  it("waits for a delete whose command line appears after the wait began", async () => {
    const starter = spawn(
      process.execPath,
      [
        "-e",
        `console.log("ready"); setTimeout(() => process.execve(process.execPath, [process.execPath, "-e", "setTimeout(() => {}, 1500)", "delete", "--force", "${THREAD}"]), 200)`,
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    const exited = once(starter, "exit");
    await once(starter.stdout!, "data");
    waitForCodexDelete(THREAD, 60_000, 2_000);
    expect(alive(starter.pid!)).toBe(false);
    await exited;
  });
});
