// A tiny agent that exists only in tests, to show what adding one takes: "notes", a store of
// `<id>.note` files directly in its root, one session each, a line per message. This folder and one
// line in each list (the kind registry, the adapter list) are all of it: server/cli/new-agent.test.ts
// adds those two lines with `vi.mock` and drives the real CLI over a real folder.
import { readFileSync, readlinkSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import type { StoreKind } from "../../shared/session-record.js";
import { processStart, runningPids } from "../../server/fs/process-start.js";
import type { AgentProcess, StoreAdapter } from "../../server/stores/adapter-types.js";

/** Its kind: no kind of the product's, so a test must add it to the kind registry. */
export const NOTES_KIND = "notes" as StoreKind;

/** The variable a notes editor is started with: the note it edits (so /proc shows which). */
export const NOTES_EDITING = "NOTES_EDITING";

/** The note a process edits, by its environment, if it is a notes editor. */
function editedNote(pid: number): string | undefined {
  try {
    const environ = readFileSync(`/proc/${pid}/environ`, "utf8").split("\0");
    return environ.find((entry) => entry.startsWith(`${NOTES_EDITING}=`))?.slice(NOTES_EDITING.length + 1);
  } catch {
    return undefined; // gone meanwhile, or another user's
  }
}

/** The notes editors running now: processes whose environment names a note they edit. */
function notesEditors(): AgentProcess[] {
  return runningPids().flatMap((pid): AgentProcess[] => {
    const note = editedNote(pid);
    const start = processStart(pid);
    if (!note || !start) return [];
    try {
      return [{ pid, cwd: readlinkSync(`/proc/${pid}/cwd`), startedMs: start.ms, stores: [dirname(note)] }];
    } catch {
      return [];
    }
  });
}

export const notesAdapter: StoreAdapter = {
  kind: NOTES_KIND,
  watchDepth: 1,
  // `$NOTES_HOME`, else `~/.notes`: found there with no flag and no config naming it.
  defaultStores: (env) => ({
    stores: [{ root: env.NOTES_HOME || join(env.HOME || homedir(), ".notes"), label: "the notes store" }],
  }),
  isSessionPlace: (root, path) => dirname(path) === root,
  // A running editor keeps the note its environment names in use.
  processes: {
    running: notesEditors,
    liveSessions: (running, sessions) => {
      const live = new Map<string, { pid: number; how: string }>();
      for (const { pid } of running) {
        const note = editedNote(pid);
        if (sessions.some((s) => s.path === note))
          live.set(note!, { pid, how: `edited by notes editor ${pid}` });
      }
      return live;
    },
  },
  load: async () => {
    const { scanNotesRoot } = await import("./notes-store.js");
    return { scan: scanNotesRoot };
  },
};
