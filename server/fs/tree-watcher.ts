// Watches a folder tree and says which paths changed, so a server can follow a store without
// rescanning it. On Linux there is no recursive watch in the kernel: Node emulates `recursive: true`
// with one inotify watch per file *and* folder (2,003 watches for 2,000 files in one folder, measured
// on Node 20), which at 100,000 sessions is most of a common watch limit. A change to a file is
// reported by the watch on its folder, so here only folders are watched, and only as deep as the
// caller looks (pi: the root and its `--<cwd>--` folders, ~200 watches at 100,000 sessions). Where
// the platform watches a tree natively (macOS, Windows), `recursive: true` is used.
import { type FSWatcher, lstatSync, readdirSync, readFileSync, watch } from "node:fs";
import { UserError } from "../errors.js";

export interface TreeWatchOptions {
  /**
   * How many levels of folders below the root are watched: 0 watches the root's own entries, 1
   * also its folders' entries, and so on. On Linux a change further down raises no event at all —
   * a watched folder reports its entries coming, going and being written, not what happens inside
   * a folder among them — so callers watch as deep as their stores keep files, and a periodic full
   * rescan finds the rest. Native recursive watching (macOS, Windows) reports every change as is.
   */
  depth: number;
  /** A path that changed: created, written, removed, renamed (both names, as the platform tells). */
  onChange: (path: string) => void;
  /**
   * Watching cannot go on (a limit reached, a folder that cannot be watched): every watch of this
   * tree is closed already, and the caller must find changes some other way.
   */
  onFailure: (error: WatchFailure) => void;
}

/** Why a tree cannot be watched, said for the person who can fix it. */
export class WatchFailure extends UserError {
  constructor(
    message: string,
    readonly reason: "watch-limit" | "unwatchable",
  ) {
    super(message);
    this.name = "WatchFailure";
  }
}

export interface TreeWatch {
  /** Folders watched now (one inotify watch each on Linux; 1 where the platform watches trees). */
  readonly folders: number;
  close(): void;
}

/** How often a root that went away is looked for again. */
const ROOT_RETRY_MS = 2000;

/** The smallest inotify watch limit in force: the system's, and the user namespace's where there is one. */
function inotifyLimit(): number | undefined {
  const limits = ["/proc/sys/fs/inotify/max_user_watches", "/proc/sys/user/max_inotify_watches"].flatMap(
    (file) => {
      try {
        const value = Number(readFileSync(file, "utf8").trim());
        return Number.isFinite(value) ? [value] : [];
      } catch {
        return [];
      }
    },
  );
  return limits.length > 0 ? Math.min(...limits) : undefined;
}

/** The failure for an error of `fs.watch` on `folder`. */
export function watchFailure(folder: string, error: NodeJS.ErrnoException): WatchFailure {
  if (error.code === "ENOSPC") {
    const limit = inotifyLimit();
    return new WatchFailure(
      `the system's limit of inotify watches${limit !== undefined ? ` (${limit.toLocaleString("en")})` : ""} ` +
        `is reached, so ${folder} cannot be watched. Other programs (editors, build tools) use watches ` +
        "too. Raise the limit: sudo sysctl fs.inotify.max_user_watches=524288 (and put the same line " +
        "in /etc/sysctl.d/ to keep it).",
      "watch-limit",
    );
  }
  if (error.code === "EMFILE")
    return new WatchFailure(
      `too many inotify instances or open files to watch ${folder} (${error.message}). Raise ` +
        "fs.inotify.max_user_instances or the open-file limit (ulimit -n).",
      "watch-limit",
    );
  return new WatchFailure(`${folder} cannot be watched: ${error.message}`, "unwatchable");
}

const nativeRecursive = process.platform === "darwin" || process.platform === "win32";

const identityOf = (path: string) => {
  try {
    const stat = lstatSync(path);
    return stat.isDirectory() ? `${stat.dev}:${stat.ino}` : undefined;
  } catch {
    return undefined;
  }
};

/**
 * Watches `root` (a real, absolute folder path). A root that is not there, or goes away, is looked
 * for again every 2 s; when it appears (or is replaced by another folder), the root itself is
 * reported changed.
 */
export function watchTree(root: string, options: TreeWatchOptions): TreeWatch {
  const watchers = new Map<string, FSWatcher>();
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  /** The root folder being watched (device and inode), to notice it replaced by another. */
  let rootIdentity: string | undefined;

  const closeAll = () => {
    for (const watcher of watchers.values()) watcher.close();
    watchers.clear();
    rootIdentity = undefined;
  };
  const fail = (error: WatchFailure) => {
    if (closed) return;
    closed = true;
    closeAll();
    if (retry) clearTimeout(retry);
    options.onFailure(error);
  };
  /** Stops watching `path` and every folder below it. */
  const unwatch = (path: string) => {
    for (const [folder, watcher] of watchers)
      if (folder === path || folder.startsWith(`${path}/`)) {
        watcher.close();
        watchers.delete(folder);
      }
  };

  /** Watches `folder` (at `level` below the root) and, within the depth, the folders in it. */
  const add = (folder: string, level: number): void => {
    if (closed || watchers.has(folder)) return;
    let watcher: FSWatcher;
    try {
      watcher = watch(
        folder,
        { persistent: false, ...(nativeRecursive ? { recursive: true } : {}) },
        (event, name) => changed(folder, level, event, name),
      );
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT" || code === "ENOTDIR") return; // gone already: its parent's event says so
      return fail(watchFailure(folder, error as NodeJS.ErrnoException));
    }
    // A watched folder that is removed ends its watch; its parent's watch (or the root's check) reports it.
    watcher.on("error", () => {
      watcher.close();
      if (watchers.get(folder) === watcher) watchers.delete(folder);
      if (folder === root) checkRoot();
    });
    watchers.set(folder, watcher);
    if (nativeRecursive || level >= options.depth) return;
    let entries;
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      return; // gone or unreadable: a scan reports it
    }
    for (const entry of entries) if (entry.isDirectory()) add(`${folder}/${entry.name}`, level + 1);
  };

  const changed = (folder: string, level: number, event: string, name: string | Buffer | null) => {
    if (closed) return;
    if (name === null) {
      options.onChange(folder); // the platform did not say which entry: the folder as a whole
      if (folder === root) checkRoot();
      return;
    }
    const path = `${folder}/${name.toString()}`;
    options.onChange(path);
    // Only a "rename" (an entry made, removed or moved, the folder itself among them) changes what
    // is watched; a "change" is a file written, many a second while an agent writes.
    if (nativeRecursive || event !== "rename") return;
    if (folder === root) checkRoot();
    if (level >= options.depth) return;
    // A folder made (or moved) here is watched from now on; one removed (or moved away) is not.
    if (identityOf(path) !== undefined) add(path, level + 1);
    else unwatch(path);
  };

  /** The root is gone or is another folder now: report it, and watch it again when it is there. */
  const checkRoot = () => {
    if (closed) return;
    const now = identityOf(root);
    if (now !== undefined && now === rootIdentity && watchers.has(root)) return;
    const hadRoot = rootIdentity !== undefined;
    closeAll();
    if (now !== undefined) {
      rootIdentity = now;
      add(root, 0);
    }
    if (hadRoot || now !== undefined) options.onChange(root);
    if (now === undefined && !closed) {
      retry = setTimeout(() => {
        retry = undefined;
        checkRoot();
      }, ROOT_RETRY_MS);
      retry.unref();
    }
  };

  rootIdentity = identityOf(root);
  if (rootIdentity !== undefined) add(root, 0);
  else checkRoot();

  return {
    get folders() {
      return watchers.size;
    },
    close() {
      closed = true;
      if (retry) clearTimeout(retry);
      closeAll();
    },
  };
}
