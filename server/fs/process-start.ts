// When a running process started, from Linux's /proc: what tells a live agent process from another
// that reuses its pid, and which of its sessions it has written since it started.
import { readdirSync, readFileSync } from "node:fs";

/** Linux's clock ticks per second for /proc times (USER_HZ: 100 everywhere Node runs). */
const TICKS_PER_SECOND = 100;

/** A live process's start, from /proc: [ms since the epoch, ticks since boot]. Undefined elsewhere. */
export function processStart(pid: number): { ms: number; ticks: string } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const ticks = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
    const boot = /^btime (\d+)$/m.exec(readFileSync("/proc/stat", "utf8"))?.[1];
    if (!ticks || !boot) return undefined;
    return { ms: (Number(boot) + Number(ticks) / TICKS_PER_SECOND) * 1000, ticks };
  } catch {
    return undefined;
  }
}

/**
 * How much earlier than /proc's start time a write of the process may seem: the start is to the
 * hundredth of a second from a boot time in whole seconds.
 */
export const START_TOLERANCE_MS = 2000;

/** The pids of the processes running now, from /proc (none where there is no /proc: not Linux). */
export function runningPids(): number[] {
  try {
    return readdirSync("/proc")
      .filter((name) => /^\d+$/.test(name))
      .map(Number);
  } catch {
    return [];
  }
}
