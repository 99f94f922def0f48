// The real CLI run in-process, as a test drives it: its output caught, its questions answered by
// `ask` (none asked without it: a prompt then fails the run as it would without a terminal).
import type { CliIo } from "../server/cli/io.js";
import { runCli } from "../server/cli/main.js";

/** Runs `session-retention <argv>`: its exit status, what it printed (lines joined), and what it asked. */
export async function runCaptured(argv: string[], ask?: (question: string) => string) {
  const out: string[] = [];
  const err: string[] = [];
  const questions: string[] = [];
  const io: CliIo = {
    stdout: (t) => out.push(t),
    stderr: (t) => err.push(t),
    ...(ask ? { ask: async (q: string) => (questions.push(q), ask(q)) } : {}),
  };
  const status = await runCli(argv, io);
  return { status, stdout: out.join("\n"), stderr: err.join("\n"), questions };
}
