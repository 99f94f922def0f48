// Recovery of a Codex move waits for a `codex delete` our killed process left running.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { describe, expect, it } from "vitest";
import { waitForCodexDelete } from "./codex-custody.js";

const THREAD = "019a0000-0000-7000-8000-00000000c0de";

/** A real process whose command line reads like `codex delete --force <thread>`, alive for `ms`. */
function fakeDelete(thread: string, ms: number) {
  const child = spawn(process.execPath, ["-e", `setTimeout(() => {}, ${ms})`, "delete", "--force", thread]);
  return { child, exited: once(child, "exit") };
}

describe.runIf(process.platform === "linux")("waitForCodexDelete", () => {
  it("returns only once the delete of that thread has ended", async () => {
    const { exited } = fakeDelete(THREAD, 800);
    await new Promise((resolve) => setTimeout(resolve, 150));
    const started = Date.now();
    waitForCodexDelete(THREAD, 10_000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
    await exited;
  });

  it("does not wait for a delete of another thread, nor past its limit", async () => {
    const { child, exited } = fakeDelete(THREAD, 5_000);
    await new Promise((resolve) => setTimeout(resolve, 150));
    let started = Date.now();
    waitForCodexDelete("019a0000-0000-7000-8000-0000000000ff", 10_000);
    expect(Date.now() - started).toBeLessThan(300);
    started = Date.now();
    waitForCodexDelete(THREAD, 500);
    expect(Date.now() - started).toBeLessThan(2_000);
    child.kill();
    await exited;
  });
});
