// Waiting out a process that a killed process of ours left running (an agent's own delete): found
// by its command line, then followed by its pid until it ends. A command line alone is not enough
// to wait on: while a process replaces its program (the `codex` launcher exec's the native binary),
// Linux shows its command line empty for a few milliseconds — 36 ms measured under load — and a
// look that lands there sees nothing running, though the same process is about to do its work.
// Nor can a look made at once see a process forked a moment before the kill that has not yet
// started its program: so the look goes on for a quiet spell before it concludes there is none.
import { readdirSync, readFileSync } from "node:fs";

export interface AwaitOptions {
  /** The longest wait in all (ms): past it the caller goes on, whatever still runs. */
  waitMs: number;
  /** How long to look for a matching process before concluding there is none (ms). */
  quietMs: number;
  /** Default "/proc"; where it cannot be read (not Linux), there is no wait. */
  procDir?: string;
}

const POLL_MS = 20;

const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** A process's start time (ticks since boot), or undefined once it is gone or a zombie. */
function liveStart(procDir: string, pid: string): string | undefined {
  try {
    const stat = readFileSync(`${procDir}/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // A zombie has ended: its parent (init, once ours was killed) has not reaped it yet.
    return fields[0] === "Z" || fields[0] === "X" ? undefined : fields[19];
  } catch {
    return undefined;
  }
}

/**
 * Waits (synchronously, as recovery runs) until no process whose arguments `matches` is running:
 * each one seen is followed by pid and start time until it ends, whatever its command line reads
 * meanwhile; and none counts as none only after `quietMs` of looking.
 */
export function awaitProcesses(matches: (args: string[]) => boolean, options: AwaitOptions): void {
  const { waitMs, quietMs, procDir = "/proc" } = options;
  const started = Date.now();
  const followed = new Map<string, string>();
  for (;;) {
    let pids: string[];
    try {
      pids = readdirSync(procDir).filter((name) => /^\d+$/.test(name));
    } catch {
      return; // no /proc: not Linux, and no way to look
    }
    for (const pid of pids) {
      if (followed.has(pid)) continue;
      let args: string[];
      try {
        args = readFileSync(`${procDir}/${pid}/cmdline`, "utf8").split("\0");
      } catch {
        continue;
      }
      const start = matches(args) ? liveStart(procDir, pid) : undefined;
      if (start !== undefined) followed.set(pid, start);
    }
    // A pid whose start time changed is another process now: the one followed has ended.
    for (const [pid, start] of followed) if (liveStart(procDir, pid) !== start) followed.delete(pid);
    const elapsed = Date.now() - started;
    if ((followed.size === 0 && elapsed >= quietMs) || elapsed >= waitMs) return;
    pause(POLL_MS);
  }
}
