// One dashboard per state dir: the running one is recorded in <stateDir>/server.json (0600, with
// its address and token), so a second `serve` points there instead of starting another. And the
// browser is opened through a 0600 redirect file, so the token never appears on a command line
// (where any user's `ps` could read it). Both go when the dashboard stops.
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { isProcessAlive } from "../fs/lock-file.js";
import { readSmallTextFile } from "../fs/read-small-file.js";
import { writePrivateFile } from "../fs/private-files.js";

export interface RunningInstance {
  pid: number;
  port: number;
  /** The address with the token in its fragment. */
  url: string;
  /** What it shows: a second `serve` for other stores or another config must not be sent there. */
  shows?: ShownStores;
}

/** The stores and config a dashboard shows, comparable between two `serve`s. */
export interface ShownStores {
  /** `kind:root` of each store, sorted. */
  stores: string[];
  /** The config file read, and its `--set` overrides. */
  config: string;
  sets: string[];
}

export function shownStores(
  stores: ReadonlyArray<{ kind: string; root: string }>,
  config: { path: string; sets: readonly string[] },
): ShownStores {
  return {
    stores: stores.map((s) => `${s.kind}:${s.root}`).sort(),
    config: config.path,
    sets: [...config.sets],
  };
}

/** Whether a running dashboard shows what `wanted` asks for (one recorded without it is assumed to). */
export function showsSame(running: RunningInstance, wanted: ShownStores): boolean {
  return running.shows === undefined || JSON.stringify(running.shows) === JSON.stringify(wanted);
}

/** "pi:/a, claude:/b (config /x/c.json, --set mode=off)". */
export function describeShown(shows: ShownStores): string {
  const sets = shows.sets.map((set) => `, --set ${set}`).join("");
  return `${shows.stores.join(", ") || "no store"} (config ${shows.config}${sets})`;
}

const instanceFile = (stateDir: string) => join(stateDir, "server.json");
const redirectFile = (stateDir: string) => join(stateDir, "open-dashboard.html");

/** The record as written, or an error (none, unreadable, not JSON). */
const readInstance = (stateDir: string) =>
  JSON.parse(
    readSmallTextFile(instanceFile(stateDir), { maxBytes: 64 * 1024, what: "dashboard record" }),
  ) as RunningInstance;

/** The dashboard already serving this state dir, if its process is alive. */
export function runningInstance(stateDir: string): RunningInstance | undefined {
  try {
    const instance = readInstance(stateDir);
    if (Number.isInteger(instance.pid) && instance.pid !== process.pid && isProcessAlive(instance.pid))
      return instance;
  } catch {
    // none recorded, or unreadable: start one
  }
  return undefined;
}

export function recordInstance(stateDir: string, instance: RunningInstance): void {
  writePrivateFile(instanceFile(stateDir), `${JSON.stringify(instance)}\n`);
}

/**
 * Removes what this process's dashboard leaves in the state dir — its record and the redirect file
 * the browser was opened through — when it stops: both hold its token. Another process's stay.
 */
export function forgetInstance(stateDir: string): void {
  try {
    if (readInstance(stateDir).pid !== process.pid) return;
  } catch {
    return; // no record, or not one we can read: not ours to clean up
  }
  rmSync(instanceFile(stateDir), { force: true });
  rmSync(redirectFile(stateDir), { force: true });
}

/** An HTML file that sends the browser on to `url`; only its path goes on the opener's command line. */
export function writeRedirectFile(stateDir: string, url: string): string {
  const file = redirectFile(stateDir);
  const escaped = url.replaceAll("&", "&amp;").replaceAll('"', "&quot;");
  writePrivateFile(
    file,
    `<!doctype html><meta charset="utf-8"><meta name="referrer" content="no-referrer"><meta http-equiv="refresh" content="0;url=${escaped}"><title>session-retention</title>\n`,
  );
  return file;
}

/** Opens a file with the desktop's default program; false when there is no way to (a headless box). */
export function openWithDesktop(file: string): Promise<boolean> {
  const [command, args] =
    process.platform === "darwin"
      ? ["open", [file]]
      : process.platform === "win32"
        ? ["cmd", ["/c", "start", "", file]]
        : ["xdg-open", [file]];
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: "ignore", detached: true });
    child.once("error", () => resolve(false));
    child.once("spawn", () => {
      child.unref();
      resolve(true);
    });
  });
}
