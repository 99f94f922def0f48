// The desktop's home trash as the freedesktop.org trash specification lays it out:
// `$XDG_DATA_HOME/Trash` (by default `~/.local/share/Trash`), with `files/` and `info/`.
import { homedir } from "node:os";
import { join } from "node:path";

/** The home trash (`$XDG_DATA_HOME/Trash`), as the `trash` package and file managers use it. */
export function homeTrashDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_DATA_HOME || join(env.HOME || homedir(), ".local", "share"), "Trash");
}
