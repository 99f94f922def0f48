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

/**
 * Runs `work` (synchronous code of this process, or a promise of it) while a child process watches
 * this process's threads: the moment one waits in the kernel for the other end of a FIFO
 * (`/proc/<pid>/task/<tid>/wchan` is `wait_for_partner`: an open of a FIFO that has no reader, or no
 * writer, blocks there), it opens `fifo` at both ends — which lets the waiting open go on — reads
 * what is written into it, and leaves a mark; `work` then fails with "blocked on the FIFO" instead
 * of hanging the suite. The check is the condition itself, polled every 10 ms: no sleep decides.
 * Linux only (that is where /proc has wait channels).
 */
export async function neverWaitsOn<T>(fifo: string, work: () => T | Promise<T>): Promise<T> {
  const mark = `${fifo}.rescued`;
  rmSync(mark, { force: true });
  const rescuer = spawn(
    process.execPath,
    [
      "-e",
      `const fs = require("fs");
       const tasks = "/proc/${process.pid}/task";
       const waiting = () => {
         try {
           return fs.readdirSync(tasks).some((t) => {
             try { return fs.readFileSync(tasks + "/" + t + "/wchan", "utf8").trim() === "wait_for_partner"; }
             catch { return false; }
           });
         } catch { return false; }
       };
       const drain = (fd) => { try { while (fs.readSync(fd, Buffer.alloc(65536)) > 0); } catch {} };
       const watch = setInterval(() => {
         if (!waiting()) return;
         clearInterval(watch);
         const reader = fs.openSync(${JSON.stringify(fifo)}, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
         fs.closeSync(fs.openSync(${JSON.stringify(fifo)}, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK));
         fs.writeFileSync(${JSON.stringify(mark)}, "");
         // Keeps the reading end open while the released writer writes, then lets go.
         const drainer = setInterval(() => drain(reader), 10);
         setTimeout(() => { clearInterval(drainer); drain(reader); fs.closeSync(reader); process.exit(); }, 2000);
       }, 10);
       setTimeout(() => process.exit(), 120000);`,
    ],
    { stdio: ["ignore", "pipe", "ignore"] },
  );
  await new Promise<void>((resolve) => rescuer.once("spawn", () => resolve()));
  const blocked = () => {
    const was = existsSync(mark);
    rescuer.kill();
    return was ? new Error(`blocked on the FIFO ${fifo} until the test let it go`) : undefined;
  };
  let result: T;
  try {
    result = await work();
  } catch (error) {
    throw blocked() ?? error;
  }
  const error = blocked();
  if (error) throw error;
  return result;
}
