// Where Claude Code keeps its data: `$CLAUDE_CONFIG_DIR`, else `~/.claude`. Apart from the adapter,
// so the store resolution and the gate need not load it.
import { homedir } from "node:os";
import { join } from "node:path";

/** Claude Code's config folder, the root of its store: `$CLAUDE_CONFIG_DIR`, else `~/.claude`. */
export const claudeDefaultRoot = (env: NodeJS.ProcessEnv) =>
  env.CLAUDE_CONFIG_DIR || join(env.HOME || homedir(), ".claude");

/**
 * The name Claude Code gives a cwd's folder under `projects/`: every character that is not a
 * letter or digit becomes `-`. Lossy (`/a/b c` and `/a/b-c` collide) and, past 200 characters,
 * shortened with a hash we do not reproduce: a session's cwd is read from inside its transcript,
 * and this is only used to match a live process's cwd to its folder.
 */
export const claudeProjectFolder = (cwd: string) => cwd.replace(/[^a-zA-Z0-9]/g, "-");
