// FIFOs for tests of what must never block on one. A regression that opens or reads a FIFO would
// block the test's thread for good; `withFifoRescuer` makes that a slow failure instead of a hang.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";

/** Makes a named pipe at `path` with the system's mkfifo. */
export function mkfifo(path: string): string {
  const made = spawnSync("mkfifo", [path], { encoding: "utf8" });
  if (made.status !== 0) throw new Error(`mkfifo ${path} failed: ${made.stderr}`);
  return path;
}

/**
 * Runs `work` (to its end, when it returns a promise) while a child process opens the FIFO's writing end every 2 s (for up to a minute):
 * whatever blocks opening or reading it is let go, so the test fails on its timing or its result.
 */
export function withFifoRescuer<T>(fifo: string, work: () => T): T {
  const rescuer: ChildProcess = spawn(
    process.execPath,
    [
      "-e",
      `const fs = require("fs");
       const rescue = () => { try { fs.closeSync(fs.openSync(${JSON.stringify(fifo)}, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK)); } catch {} };
       setInterval(rescue, 2000);
       setTimeout(() => process.exit(), 60000);`,
    ],
    { stdio: "ignore" },
  );
  let result: T;
  try {
    result = work();
  } catch (error) {
    rescuer.kill();
    throw error;
  }
  if (!(result instanceof Promise)) {
    rescuer.kill();
    return result;
  }
  return result.finally(() => rescuer.kill()) as T;
}
