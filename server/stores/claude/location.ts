// Where Claude Code keeps its data: `$CLAUDE_CONFIG_DIR`, else `~/.claude`; and, outside it, its
// per-user temp folder. Apart from the adapter, so the store resolution and the gate need not load it.
import { lstatSync, mkdirSync, realpathSync } from "node:fs";
import { homedir, userInfo } from "node:os";
import { isAbsolute, join } from "node:path";
import { isWithin, pathTextProblem, placeProblem } from "../../../shared/places.js";

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

/** Claude Code's folders of per-session side files, each named after the session. */
export const CLAUDE_SIDE_FOLDERS = [
  "file-history",
  "session-env",
  "tasks",
  "uploads",
  "image-cache",
  "debug",
  "todos",
];

/** Claude Code's folder of background jobs, one folder each named by the first 8 characters of its session's id. */
export const CLAUDE_JOBS = "jobs";

/** Our uid as Claude Code puts it in its temp folder's name (0 where there are no uids). */
const uid = () => process.getuid?.() ?? 0;

/**
 * The folder Claude Code's temp root is made in, as 2.1.332 picks it: `$CLAUDE_CODE_TMPDIR`, else
 * the system's temp folder (`$TMPDIR`, `$TMP`, `$TEMP`, else `/tmp`, as Node's and Bun's
 * `os.tmpdir()` read them). Undefined when what the environment names is no absolute path.
 */
export function claudeTempBase(env: NodeJS.ProcessEnv): string | undefined {
  const base = env.CLAUDE_CODE_TMPDIR || env.TMPDIR || env.TMP || env.TEMP || "/tmp";
  const trimmed = base.length > 1 ? base.replace(/\/+$/, "") : base;
  return isAbsolute(trimmed) && !pathTextProblem(trimmed, "the temp folder") ? trimmed : undefined;
}

/** The home folders nothing may be: `$HOME` and the account's own, real. */
function homes(env: NodeJS.ProcessEnv): string[] {
  const found = [env.HOME || homedir()];
  try {
    found.push(userInfo().homedir);
  } catch {
    // no passwd entry (a container's arbitrary uid): $HOME is all there is
  }
  return [
    ...new Set(
      found.map((home) => {
        try {
          return realpathSync(home);
        } catch {
          return home;
        }
      }),
    ),
  ];
}

/**
 * Claude Code's per-user temp root, `<temp folder>/claude-<uid>` resolved to its real path, where it
 * keeps each session's temporary files (`<root>/<project folder>/<session id>/`: background task
 * output, scratchpad, images) — or undefined when it is not one we may move anything out of. Any
 * user can make a folder (or a link) in a shared `/tmp`, and `$TMPDIR` may name anything, so it must
 * be a folder of ours, not a link, that no one else may write to (Claude makes it 0700 and refuses a
 * link), and no place of the gate's own rules (`/`, a home folder or above, a system folder); and it
 * must be neither inside the Claude store `root` nor around it.
 */
export function claudeTempRoot(env: NodeJS.ProcessEnv, root?: string): string | undefined {
  const base = claudeTempBase(env);
  if (base === undefined) return undefined;
  // The folder itself, not through a link (Claude opens it O_NOFOLLOW and refuses a link); the
  // temp folder it is in may be one (macOS's /var is /private/var).
  const named = join(base, `claude-${uid()}`);
  const stat = lstatSync(named, { throwIfNoEntry: false });
  if (!stat?.isDirectory() || stat.uid !== uid() || (stat.mode & 0o022) !== 0) return undefined;
  let real: string;
  try {
    real = realpathSync(named);
  } catch {
    return undefined;
  }
  if (placeProblem(real, "session", { homes: homes(env) })) return undefined;
  if (root !== undefined && (isWithin(real, root) || isWithin(root, real))) return undefined;
  return real;
}

/**
 * Makes Claude Code's temp root as Claude makes it (one folder, mode 0700, in a temp folder that
 * exists) when it is not there — a restore after a reboot emptied `/tmp` puts a session's temp
 * folder back into it — and returns it as `claudeTempRoot` judges it: a folder someone else made
 * there first is not ours, and is refused.
 */
export function ensureClaudeTempRoot(env: NodeJS.ProcessEnv, root?: string): string | undefined {
  const base = claudeTempBase(env);
  if (base === undefined) return undefined;
  try {
    mkdirSync(join(base, `claude-${uid()}`), { mode: 0o700 });
  } catch {
    // there already (judged below), or the temp folder itself is gone: then there is no place
  }
  return claudeTempRoot(env, root);
}
