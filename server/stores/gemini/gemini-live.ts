// Which Gemini CLI sessions are in use. Gemini appends each record to its chat and closes it again
// (appendFileSync), so no open file shows a running session, and it keeps no registry of running
// processes. A running Gemini is found in /proc instead: its command line runs Gemini CLI's script
// (`gemini`, or a file of the @google/gemini-cli package), and its working folder is the project it
// writes for. Every session of that project's folder written since the process started is in use: a
// new chat is created when Gemini starts, and a resumed one is written to at once. Gemini started
// by a version from before slugs writes to the folder named by the project's sha256, so that folder
// counts too. The grace window covers the rest (a Gemini in a container whose processes are not
// visible here).
import { readFileSync, readlinkSync } from "node:fs";
import { join } from "node:path";
import type { SessionRecord } from "../../../shared/session-record.js";
import { processStart, runningPids } from "../../fs/process-start.js";
import { GEMINI_PROJECTS, projectHash } from "./location.js";
import { readGeminiProjects } from "./projects.js";

/** /proc's start time is to the hundredth of a second from a boot time in whole seconds. */
const START_TOLERANCE_MS = 2000;
/** The script of Gemini CLI: its `gemini` command, or a file of its package. */
const GEMINI_SCRIPT = /(?:^|\/)gemini(?:\.js)?$|\/@google\/gemini-cli\//;

/** Whether a command line runs Gemini CLI: the program itself, or the first argument that is not an option. */
export function isGeminiCommand(argv: readonly string[]): boolean {
  const script = argv.slice(1).find((arg) => !arg.startsWith("-"));
  return [argv[0], script].some((arg) => arg !== undefined && GEMINI_SCRIPT.test(arg));
}

interface GeminiProcess {
  pid: number;
  cwd: string;
  startedMs: number;
}

/** The Gemini CLI processes running now that we may look at (on Linux; none elsewhere). */
function geminiProcesses(): GeminiProcess[] {
  return runningPids().flatMap((pid): GeminiProcess[] => {
    try {
      const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
      if (!isGeminiCommand(argv)) return [];
      const cwd = readlinkSync(`/proc/${pid}/cwd`);
      const start = processStart(pid);
      return start ? [{ pid, cwd, startedMs: start.ms }] : [];
    } catch {
      return []; // gone meanwhile, or another user's
    }
  });
}

/** The Gemini sessions of `root` that running Gemini CLI processes are writing, by record id, with how we know. */
export function geminiLiveSessions(root: string, sessions: readonly SessionRecord[]): Map<string, string> {
  const live = new Map<string, string>();
  const ours = sessions.filter((s) => s.store.kind === "gemini" && s.store.root === root);
  if (ours.length === 0) return live;
  const running = geminiProcesses();
  if (running.length === 0) return live;
  const projects = readGeminiProjects(root);
  for (const { pid, cwd, startedMs } of running) {
    const folders = [projects.folderOf(cwd), projectHash(cwd)].flatMap((folder) =>
      folder === undefined ? [] : [`${join(root, GEMINI_PROJECTS, folder)}/`],
    );
    for (const session of ours)
      if (
        !live.has(session.id) &&
        folders.some((folder) => session.path.startsWith(folder)) &&
        Date.parse(session.modifiedAt) >= startedMs - START_TOLERANCE_MS
      )
        live.set(session.id, `written since Gemini CLI process ${pid} started in ${cwd}`);
  }
  return live;
}
