// Whether a configured session folder is a safe store root. Without zod (the scan path reads only
// this key of the config, and zod's load time would double a warm rescan) and without node:path
// (the dashboard's policy editor runs it too).

/** `/a/./b/../c/` → `/a/c`, without node:path (this module also runs in the browser). */
function normalizePosix(path: string): string {
  const parts: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") parts.pop();
    else parts.push(part);
  }
  return `/${parts.join("/")}`;
}

/**
 * Why `sessionDir` is not a safe store root, or undefined. It must be absolute (or `~/…`), and
 * neither `/`, the home folder, nor a folder above it: a root that broad would put every file of
 * the user in reach of a retention policy.
 */
export function sessionDirProblem(raw: string, home: string): string | undefined {
  const expanded = raw === "~" ? home : raw.startsWith("~/") ? `${home}/${raw.slice(2)}` : raw;
  if (!expanded.startsWith("/")) return `must be an absolute path or start with ~/, got "${raw}"`;
  const dir = normalizePosix(expanded);
  const homeDir = normalizePosix(home);
  if (dir === "/") return `"${raw}" is the whole file system, not a session store`;
  if (dir === homeDir) return `"${raw}" is the home folder, not a session store`;
  if (homeDir.startsWith(`${dir}/`)) return `"${raw}" contains the home folder, not a session store`;
  return undefined;
}
