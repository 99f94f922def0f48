// Where Gemini CLI keeps its data, and how it names what it keeps per project and per session.
// Apart from the adapter, so the store resolution and the gate need not load it. (From
// google-gemini/gemini-cli: packages/core/src/utils/paths.ts, config/storage.ts,
// utils/fileUtils.ts.)
import { createHash } from "node:crypto";
import { homedir } from "node:os";
import { join } from "node:path";

/**
 * Gemini CLI's folder, the root of its store: `.gemini` in `$GEMINI_CLI_HOME`, which stands in for
 * the home folder, else in the home folder.
 */
export const geminiDefaultRoot = (env: NodeJS.ProcessEnv) =>
  join(env.GEMINI_CLI_HOME || env.HOME || homedir(), ".gemini");

/** The per-project folders live in `<root>/tmp/<folder>/`: a slug of the project's name, or (older) a hash. */
export const GEMINI_PROJECTS = "tmp";

/** The folders of a project that hold one file or folder per session: chats, activity logs, tool outputs. */
export const GEMINI_SESSION_FOLDERS = ["chats", "logs", "tool-outputs"];

/** The name Gemini gives a file or folder after a session id: every character but [A-Za-z0-9_-] becomes `_`. */
export const safeSessionId = (id: string) => id.replace(/[^a-zA-Z0-9_-]/g, "_");

/** A project's folder before slugs (and what a chat's `projectHash` holds): the sha256 of its path, in hex. */
export const projectHash = (path: string) => createHash("sha256").update(path).digest("hex");
