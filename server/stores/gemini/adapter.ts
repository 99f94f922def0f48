// Gemini CLI's adapter: chats in `tmp/<project>/chats/`, each with its logs and tool outputs; live
// sessions from its running processes, and its own sweep of old chats.
import { existsSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { StoreAdapter } from "../adapter-types.js";
import { GEMINI_PROJECTS, GEMINI_SESSION_FOLDERS, geminiDefaultRoot } from "./location.js";

export const geminiAdapter: StoreAdapter = {
  kind: "gemini",
  // `tmp/<project>/chats/<id>/`.
  watchDepth: 4,
  // `.gemini` in `$GEMINI_CLI_HOME`, else in the home folder.
  defaultStores: (env) => ({ stores: [{ root: geminiDefaultRoot(env), label: "Gemini CLI's store" }] }),
  // Gemini's folder holds its settings too: it is a store once a project has a folder in tmp/.
  isStore: (root) => existsSync(join(root, GEMINI_PROJECTS)),
  // In a project folder of `tmp/` (a session's own folder) or in its `chats/`, `logs/` or
  // `tool-outputs/`.
  isSessionPlace: (root, path) => {
    const parent = dirname(path);
    const projects = join(root, GEMINI_PROJECTS);
    return (
      dirname(parent) === projects ||
      (dirname(dirname(parent)) === projects && GEMINI_SESSION_FOLDERS.includes(basename(parent)))
    );
  },
  load: async () => {
    const [
      { scanGeminiRoot, rescanGeminiChanged },
      { geminiLiveSessions },
      { geminiSweep, geminiSweptAgain },
    ] = await Promise.all([
      import("./gemini-store.js"),
      import("./gemini-live.js"),
      import("./gemini-sweep.js"),
    ]);
    return {
      scan: scanGeminiRoot,
      rescanChanged: rescanGeminiChanged,
      liveSessions: geminiLiveSessions,
      externalSweep: geminiSweep,
      sweptAgain: geminiSweptAgain,
    };
  },
};
