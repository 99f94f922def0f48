// The command line: one sub-command per capability, each with --help; errors are one line on stderr.
import { visibleLines } from "../../shared/visible-text.js";
import { UserError } from "../errors.js";
import { CancelledError, UsageError } from "./errors.js";
import { COMMAND_NAMES, MAIN_HELP } from "./help.js";
import type { CliIo, CliJsonError } from "./io.js";
import { checkPathFlags } from "./path-flags.js";
import { didYouMean, withOptionHint } from "./suggest.js";

async function askOnTerminal(question: string): Promise<string> {
  const { createInterface } = await import("node:readline/promises");
  const terminal = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return await terminal.question(question);
  } catch (error) {
    // readline rejects the question with an AbortError on Ctrl-C and on Ctrl-D (end of input).
    if ((error as NodeJS.ErrnoException).code !== "ABORT_ERR") throw error;
    process.stderr.write("\n"); // the prompt's line was left open
    throw new CancelledError("cancelled at the prompt");
  } finally {
    terminal.close();
  }
}

/**
 * Lines to a standard stream. A reader that goes away (`scan --json | head`) is the reader's
 * choice, not an error: from then on lines are dropped and the command runs to its normal end.
 * Exiting there instead would stop work midway — a clean reported as done before it was, its lock
 * left behind.
 */
function lineWriter(stream: NodeJS.WriteStream) {
  let gone = false;
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
    gone = true;
  });
  return {
    write: (text: string) => {
      if (!gone) stream.write(`${text}\n`);
    },
    delivered: () =>
      new Promise<boolean>((resolve) => {
        if (gone) return resolve(false);
        // An empty write's callback runs once every earlier write is through or has failed; a
        // failure's error event follows within the same turn of the event loop.
        stream.write("", () => setImmediate(() => resolve(!gone)));
      }),
  };
}

const stdout = lineWriter(process.stdout);
const stderr = lineWriter(process.stderr);
const processIo: CliIo = {
  stdout: stdout.write,
  stderr: stderr.write,
  delivered: stdout.delivered,
  ...(process.stdin.isTTY && process.stderr.isTTY ? { ask: askOnTerminal } : {}),
};

/**
 * Every line a command writes or asks, made safe for a terminal: no control character from a
 * session's name, cwd or file name can act on it (shared/visible-text.ts). Line feeds stay, so a
 * value that could hold one is made `visible` where it is written. A JSON document stays valid.
 */
function visibleIo(io: CliIo): CliIo {
  const { ask } = io;
  return {
    ...io,
    stdout: (text) => io.stdout(visibleLines(text)),
    stderr: (text) => io.stderr(visibleLines(text)),
    ...(ask ? { ask: (question: string) => ask(visibleLines(question)) } : {}),
  };
}

/**
 * With `--json`, stdout carries one JSON document whatever happens: a command that fails without
 * printing its own (bad arguments, an invalid config, a refusal) leaves a `CliJsonError` there,
 * built from what it said on stderr, so a script never has to parse prose.
 */
async function withJsonErrors(io: CliIo, run: (io: CliIo) => Promise<number>): Promise<number> {
  const errors: string[] = [];
  let printed = false;
  const watched: CliIo = {
    ...io,
    stdout: (text) => ((printed = true), io.stdout(text)),
    stderr: (text) => (errors.push(text), io.stderr(text)),
  };
  let status: number;
  try {
    status = await run(watched);
  } catch (error) {
    if (!isUserError(error)) throw error;
    status = reportError(error, watched);
  }
  if (status !== 0 && !printed) {
    const failure: CliJsonError = { ok: false, exitCode: status, errors };
    io.stdout(JSON.stringify(failure));
  }
  return status;
}

function isUserError(error: unknown): boolean {
  return error instanceof UserError || isParseArgsError(error);
}

function reportError(error: unknown, io: CliIo): number {
  // Made visible like every line we print (io is wrapped). A message may have lines of its own
  // (an invalid config lists its problems); the values errors quote come from the user's own
  // arguments and config, never from a session's contents.
  io.stderr(`session-retention: ${(error as Error).message}`);
  return 2;
}

/** Runs one command and returns its exit status (0 ok, 2 unusable input). */
export async function runCli(argv: string[], given: CliIo = processIo): Promise<number> {
  const io = visibleIo(given);
  // A help text is prose even with --json.
  if (argv.includes("--json") && !argv.includes("--help") && !argv.includes("-h"))
    return withJsonErrors(io, (watched) => dispatch(argv, watched));
  try {
    return await dispatch(argv, io);
  } catch (error) {
    if (!isUserError(error)) throw error;
    return reportError(error, io);
  }
}

async function dispatch(argv: string[], io: CliIo): Promise<number> {
  const [command, ...args] = argv;
  checkPathFlags(args);
  // `help scan` is `scan --help`, as in git.
  if (command === "help" && args.length > 0) {
    if (args.length > 1) throw new UsageError(`help: unexpected "${args[1]}" (help takes one command)`);
    return await runCommand(args[0]!, ["--help"], io);
  }
  try {
    return await runCommand(command, args, io);
  } catch (error) {
    // The command's options from the completion table, loaded only for a mistyped option: the
    // table imports every command's module.
    const options = async () =>
      (await (await import("./completion-command.js")).completionTable()).find((c) => c.name === command)
        ?.options ?? [];
    throw command === undefined ? error : await withOptionHint(error, command, options);
  }
}

async function runCommand(command: string | undefined, args: string[], io: CliIo): Promise<number> {
  switch (command) {
    // Commands load lazily: `scan` must not pay for the HTTP server's modules at start-up.
    case "scan":
      return await (await import("./scan-command.js")).runScan(args, io);
    case "plan":
      return await (await import("./plan-command.js")).runPlan(args, io);
    case "status":
      return await (await import("./status-command.js")).runStatus(args, io);
    case "protect":
    case "unprotect":
      return await (await import("./protect-command.js")).runProtect(args, io, command);
    case "keep":
      return await (await import("./keep-command.js")).runKeep(args, io);
    case "clean":
      return await (await import("./clean-command.js")).runClean(args, io);
    case "trash":
      return await (await import("./trash-command.js")).runTrash(args, io);
    case "prune":
      return await (await import("./workspace-commands.js")).runPrune(args, io);
    case "touch":
      return await (await import("./workspace-commands.js")).runTouch(args, io);
    case "repair-metadata":
      return await (await import("./workspace-commands.js")).runRepair(args, io);
    case "report":
      return await (await import("./report-command.js")).runReport(args, io);
    case "metrics":
      return await (await import("./metrics-command.js")).runMetrics(args, io);
    case "audit":
      return await (await import("./audit-command.js")).runAudit(args, io);
    case "config":
      return await (await import("./config-command.js")).runConfig(args, io);
    case "cache":
      return await (await import("./cache-command.js")).runCache(args, io);
    case "completion":
      return await (await import("./completion-command.js")).runCompletion(args, io);
    case "serve":
      return await (await import("./serve-command.js")).runServe(args, io);
    case "--version":
    case "-V":
      return (await import("./version-command.js")).runVersion(io);
    case undefined:
    case "help":
    case "--help":
    case "-h":
      io.stdout(MAIN_HELP);
      return command === undefined ? 2 : 0;
    default:
      throw new UsageError(
        `unknown command "${command}"${didYouMean(command, COMMAND_NAMES) || " (try --help)"}`,
      );
  }
}

function isParseArgsError(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === "string" && code.startsWith("ERR_PARSE_ARGS");
}
