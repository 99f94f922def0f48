// Recovery of a Codex move waits for a `codex delete` our killed process left running.
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

/**
 * A real process whose command line reads like `codex delete --force <thread>`: resolved once it is
 * running (it says so), it ends `lifeMs` after that, or when killed.
 */
async function fakeDelete(thread: string, lifeMs: number) {
  const script = `console.log("ready"); setTimeout(() => {}, ${lifeMs})`;
  const child = spawn(process.execPath, ["-e", script, "delete", "--force", thread], {
    stdio: ["ignore", "pipe", "inherit"],
  });
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
});
