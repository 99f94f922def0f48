// The watch on what a look gathers beside the stores: the config file, the pins, the trash ledgers
// and the pi extension's live markers. A look keeps the last look's reading of each until its files
// change — here, or by our own hand — so that a watched update reads none of them.
import { realpathSync } from "node:fs";
import { dirname } from "node:path";
import { type TreeWatch, watchTree } from "../fs/tree-watcher.js";
import type { Beside } from "./look-queue.js";

export interface StateFiles {
  /** The config file (which may not exist). */
  config: string;
  /** The state folder: the pins, the ledgers (`trash/`) and the live markers (`active/`) are in it. */
  stateDir: string;
  pins: string;
  ledgers: string;
  markers: string;
}

export interface StateWatch {
  /** False once watching failed: every look reads all of them again. */
  readonly watching: boolean;
  close(): void;
}

const real = (path: string) => {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
};

const isAtOrUnder = (path: string, folder: string) => path === folder || path.startsWith(`${folder}/`);

/**
 * Watches the folders of `files` (a folder that is not there yet is looked for again every 2 s)
 * and says what changed. `onFailure`: the watch stopped for good (an inotify limit, say).
 */
export function watchState(
  files: StateFiles,
  onChange: (changed: Beside) => void,
  onFailure: () => void,
): StateWatch {
  let watching = true;
  const configDir = real(dirname(files.config));
  const config = `${configDir}/${files.config.split("/").at(-1)}`;
  const stateDir = real(files.stateDir);
  // The state folder's real path, with each file's place in it.
  const inState = (path: string) => `${stateDir}${path.slice(files.stateDir.length)}`;
  const pins = inState(files.pins);
  const ledgers = inState(files.ledgers);
  const markers = inState(files.markers);
  const failed = () => {
    if (!watching) return;
    watching = false;
    for (const tree of trees) tree.close();
    onFailure();
  };
  const trees: TreeWatch[] = [];
  const said = (path: string) => {
    // A folder made, removed or replaced as a whole may have taken any of its files with it.
    if (path === configDir || isAtOrUnder(config, path)) onChange("config");
    if (isAtOrUnder(path, pins) || isAtOrUnder(pins, path)) onChange("pins");
    if (isAtOrUnder(path, ledgers) || isAtOrUnder(ledgers, path)) onChange("ledgers");
    if (isAtOrUnder(path, markers) || isAtOrUnder(markers, path)) onChange("live");
  };
  // Two watches, even where the state folder is inside the config file's (pi's agent folder, by
  // default): a watch of the agent folder deep enough for the state folder would watch pi's stores.
  trees.push(watchTree(configDir, { depth: 0, onChange: said, onFailure: failed }));
  if (watching) trees.push(watchTree(stateDir, { depth: 1, onChange: said, onFailure: failed }));
  return {
    get watching() {
      return watching;
    },
    close() {
      watching = false;
      for (const tree of trees) tree.close();
    },
  };
}
