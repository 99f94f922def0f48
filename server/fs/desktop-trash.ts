// The desktop's home trash as the freedesktop.org trash specification lays it out:
// `$XDG_DATA_HOME/Trash` (by default `~/.local/share/Trash`), with `files/` and `info/`, and the
// move into it of an entry on its file system, under a name the caller chose (and journaled).
import { lstatSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { makeDirs } from "./make-dirs.js";

/** The home trash (`$XDG_DATA_HOME/Trash`), as the `trash` package and file managers use it. */
export function homeTrashDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_DATA_HOME || join(env.HOME || homedir(), ".local", "share"), "Trash");
}

/** Where an entry named `name` lives in the home trash: the file or folder, and its `.trashinfo`. */
export function homeTrashPaths(name: string, env: NodeJS.ProcessEnv = process.env) {
  const trash = homeTrashDir(env);
  return { location: join(trash, "files", name), trashInfo: join(trash, "info", `${name}.trashinfo`) };
}

/** Whether `path` is on the home trash's file system (or that of the folder it will be made in). */
export function onHomeTrashDevice(path: string, env: NodeJS.ProcessEnv = process.env): boolean {
  const device = lstatSync(path, { throwIfNoEntry: false })?.dev;
  for (let at = homeTrashDir(env); ; at = dirname(at)) {
    const stat = lstatSync(at, { throwIfNoEntry: false });
    if (stat) return stat.dev === device;
    if (at === dirname(at)) return false;
  }
}

/** "2026-03-02T09:00:00" in local time, as the specification wants the deletion date. */
function localTime(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/**
 * Moves `path` (a file or folder on the home trash's file system) into the home trash under `name`,
 * which the caller chose and journaled before: its `.trashinfo` is created exclusively, with its
 * whole content in one write, then the entry moves by one rename. A kill at any moment leaves at
 * most that `.trashinfo` — empty, perhaps — under a name the journal holds, so recovery can tell
 * it from anyone else's. A failed rename takes its `.trashinfo` away again.
 */
export function moveToHomeTrash(
  path: string,
  name: string,
  env: NodeJS.ProcessEnv = process.env,
  now = new Date(),
): { location: string; trashInfo: string } {
  const { location, trashInfo } = homeTrashPaths(name, env);
  makeDirs(dirname(location));
  makeDirs(dirname(trashInfo));
  // encodeURI, as the `trash` package writes it (and as a search for an entry by its path reads it).
  const info = `[Trash Info]\nPath=${encodeURI(path)}\nDeletionDate=${localTime(now)}\n`;
  writeFileSync(trashInfo, info, { flag: "wx", mode: 0o600 });
  try {
    renameSync(path, location);
  } catch (error) {
    rmSync(trashInfo, { force: true });
    throw error;
  }
  return { location, trashInfo };
}
