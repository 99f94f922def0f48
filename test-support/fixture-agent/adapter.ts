// A tiny agent that exists only in tests, to show what adding one takes: "notes", a store of
// `<id>.note` files directly in its root, one session each, a line per message. This folder and one
// line in each list (the kind registry, the adapter list) are all of it: server/cli/new-agent.test.ts
// adds those two lines with `vi.mock` and drives the real CLI over a real folder.
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import type { StoreKind } from "../../shared/session-record.js";
import type { StoreAdapter } from "../../server/stores/adapter-types.js";

/** Its kind: no kind of the product's, so a test must add it to the kind registry. */
export const NOTES_KIND = "notes" as StoreKind;

export const notesAdapter: StoreAdapter = {
  kind: NOTES_KIND,
  watchDepth: 1,
  // `$NOTES_HOME`, else `~/.notes`: found there with no flag and no config naming it.
  defaultStores: (env) => ({
    stores: [{ root: env.NOTES_HOME || join(env.HOME || homedir(), ".notes"), label: "the notes store" }],
  }),
  isSessionPlace: (root, path) => dirname(path) === root,
  load: async () => {
    const { scanNotesRoot } = await import("./notes-store.js");
    return { scan: scanNotesRoot };
  },
};
