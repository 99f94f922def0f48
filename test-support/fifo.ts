// FIFOs for tests of what must never block on one. A regression that opens or reads a FIFO would
// block the test's thread for good; `neverBlockedBy` turns that into a failure instead of a hang.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, rmSync } from "node:fs";

/** Makes a named pipe at `path` with the system's mkfifo. */
export function mkfifo(path: string): string {
  const made = spawnSync("mkfifo", [path], { encoding: "utf8" });
  if (made.status !== 0) throw new Error(`mkfifo ${path} failed: ${made.stderr}`);
  return path;
}

/**
 * Runs `work` (to its end, when it returns a promise) while a child process tries every 2 s to open
 * the FIFO's writing end, which succeeds only while someone holds its reading end — that is, while
 * something blocks on it. The child then lets the reader go and leaves a mark, and `work` fails
 * with "blocked on the FIFO" instead of hanging the suite.
 */
export function neverBlockedBy<T>(fifo: string, work: () => T): T {
  const mark = `${fifo}.rescued`;
  rmSync(mark, { force: true });
  const rescuer = spawn(
    process.execPath,
    [
      "-e",
      `const fs = require("fs");
       const rescue = () => {
         let fd;
         try { fd = fs.openSync(${JSON.stringify(fifo)}, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK); } catch { return; }
         fs.writeFileSync(${JSON.stringify(mark)}, "");
         fs.closeSync(fd);
       };
       setInterval(rescue, 2000);
       setTimeout(() => process.exit(), 60000);`,
    ],
    { stdio: "ignore" },
  );
  /** Stops the rescuer; the error to throw when it had to let `work` go. */
  const blocked = () => {
    rescuer.kill();
    return existsSync(mark) ? new Error(`blocked on the FIFO ${fifo} until a writer came`) : undefined;
  };
  let result: T;
  try {
    result = work();
  } catch (error) {
    throw blocked() ?? error;
  }
  if (!(result instanceof Promise)) {
    const error = blocked();
    if (error) throw error;
    return result;
  }
  return result.then(
    (value: unknown) => {
      const error = blocked();
      if (error) throw error;
      return value;
    },
    (failure: unknown) => {
      throw blocked() ?? failure;
    },
  ) as T;
}
