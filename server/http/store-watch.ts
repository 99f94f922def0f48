// The dashboard's watch on its stores: every store folder and pi's session index, watched as deep as
// a scan reads them, with the paths that changed collected until the server takes them. When the
// platform cannot watch (the inotify watch limit, a file system without events), the watch says
// why and stops; the server then rescans instead.
import { statfsSync } from "node:fs";
import type { WatchStatus } from "../../shared/api.js";
import type { StoreRef } from "../../shared/session-record.js";
import { type TreeWatch, WatchFailure, watchTree } from "../fs/tree-watcher.js";
import { adapterOf } from "../stores/store-adapter.js";

export interface StoreWatch {
  readonly status: WatchStatus;
  /** Folders watched (one inotify watch each on Linux). */
  readonly folders: number;
  /** Whether some change is waiting to be taken. */
  readonly pending: boolean;
  /** The paths that changed since the last call, and none from then on. */
  take(): Set<string>;
  /** The paths waiting to be taken, left waiting. */
  peek(): ReadonlySet<string>;
  /** Paths taken but not applied after all: they wait again. */
  putBack(paths: Iterable<string>): void;
  close(): void;
}

/**
 * File systems whose changes made on another machine (or the other side of a VM share) raise no
 * event here: watching them would show a look that silently stops following. By `statfs` type.
 */
const NETWORK_FILE_SYSTEMS = new Map<number, string>([
  [0x6969, "NFS"],
  [0x517b, "SMB"],
  [0xff534d42, "CIFS"],
  [0xfe534d42, "SMB2"],
  [0x01021997, "9p"],
  [0x00c36400, "Ceph"],
  [0x5346414f, "AFS"],
  [0x0bd00bd0, "Lustre"],
]);

/** The network file system `folder` is on, by name, or undefined (a local one, or not there). */
export function networkFileSystemOf(
  folder: string,
  statfs: (path: string) => { type: number } = statfsSync,
): string | undefined {
  try {
    return NETWORK_FILE_SYSTEMS.get(statfs(folder).type);
  } catch {
    return undefined;
  }
}

export function watchStores(
  stores: readonly StoreRef[],
  /** pi's session index folder, joined onto the records: its files change what a record says. */
  metaDir: string | undefined,
  /** Called on each change (many per second while an agent writes): the caller batches. */
  onChange: () => void,
  /** Called once if watching stops for good. */
  onFailure: (status: WatchStatus) => void,
): StoreWatch {
  let changed = new Set<string>();
  let status: WatchStatus = { mode: "watching" };
  const trees: TreeWatch[] = [];
  const onFailed = (error: WatchFailure) => {
    if (status.mode !== "watching") return;
    for (const tree of trees) tree.close();
    status = {
      mode: "rescanning",
      message: `Not following the stores as they change: ${error.message} Until then the dashboard rescans the stores every few seconds while it is open.`,
    };
    onFailure(status);
  };
  const options = (depth: number) => ({
    depth,
    onChange: (path: string) => {
      changed.add(path);
      onChange();
    },
    onFailure: onFailed,
  });
  for (const store of stores) {
    if (status.mode !== "watching") break;
    const network = networkFileSystemOf(store.root);
    if (network !== undefined) {
      onFailed(
        new WatchFailure(
          `${store.root} is on a network file system (${network}), where changes made on other machines raise no events.`,
          "unwatchable",
        ),
      );
      break;
    }
    // As deep as its adapter says its sessions and their parts are kept. A write deeper than that
    // inside a session's folder raises no event on Linux: the 10-minute reconciliation finds it
    // (and the session's next watched change).
    trees.push(watchTree(store.root, options(adapterOf(store.kind).watchDepth)));
  }
  if (metaDir !== undefined && status.mode === "watching") trees.push(watchTree(metaDir, options(0)));
  return {
    get status() {
      return status;
    },
    get folders() {
      return trees.reduce((sum, tree) => sum + tree.folders, 0);
    },
    get pending() {
      return changed.size > 0;
    },
    take() {
      const taken = changed;
      changed = new Set();
      return taken;
    },
    peek: () => changed,
    putBack(paths) {
      for (const path of paths) changed.add(path);
    },
    close() {
      for (const tree of trees) tree.close();
      if (status.mode === "watching") status = { mode: "off" };
    },
  };
}
