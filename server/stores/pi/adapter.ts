// pi's adapter: a store of `.jsonl` session files, flat or in `--<cwd>--` folders. Its files are read
// by the incremental file scanner (server/scan/scanner.ts, with this folder's reader and parse
// cache); what is pi's own beside that — where its stores and sessions are, its running processes,
// a session's detail — is here.
import { basename, dirname } from "node:path";
import type { StoreAdapter } from "../adapter-types.js";
import { discoverPiRoots, PI_CWD_FOLDER } from "./locations.js";
import { piLiveSessions } from "./pi-live.js";
import { runningPi } from "./pi-processes.js";

export const piAdapter: StoreAdapter = {
  kind: "pi",
  // The root and its `--<cwd>--` folders: pi writes nothing deeper.
  watchDepth: 1,
  // Its agent dir's `sessions` and the custom session dirs its environment and settings name; the
  // default one passed over quietly where pi has written nothing yet.
  defaultStores: (env) => {
    const { roots, notes } = discoverPiRoots(env);
    const stores = roots.map((r) => ({
      root: r.path,
      label: `pi's ${r.origin} session dir`,
      ...(r.origin === "default" ? { quiet: true } : {}),
    }));
    return { stores, notes };
  },
  // Directly in the root (a flat store) or in one of its `--<cwd>--` folders.
  isSessionPlace: (root, path) => {
    const parent = dirname(path);
    return parent === root || (dirname(parent) === root && PI_CWD_FOLDER.test(basename(parent)));
  },
  readByFileScanner: true,
  // pi opens, appends to and closes its file for each entry: without our extension's marker, its
  // process and folder are all that show a session in use (pi-live.ts).
  processes: { running: () => runningPi(), liveSessions: piLiveSessions },
  load: async () => {
    const { readSessionDetail } = await import("./session-detail.js");
    return { sessionDetail: readSessionDetail };
  },
};
