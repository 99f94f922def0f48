// The last gate before `clean` and `prune` move anything: a typed DELETE on a terminal (or --yes),
// and an output that still reaches someone — what moved, and how to undo it, must be readable.
import type { CliIo } from "./io.js";
import { CancelledError } from "./errors.js";

/** Exit status of a prompt cancelled with Ctrl-C or Ctrl-D: 128 + SIGINT, as a shell reports an interrupt. */
export const CANCELLED = 130;

/**
 * Whether the move may start: undefined when it may, else the exit status to stop with, having
 * said why. `refusal` completes "refusing to …" when there is no terminal to ask on.
 */
export async function confirmMove(
  io: CliIo,
  options: { yes: boolean; question: string; refusal: string },
): Promise<number | undefined> {
  if (!options.yes) {
    if (!io.ask) {
      io.stderr(
        `session-retention: refusing to ${options.refusal} without a confirmation: there is no terminal to ask on; pass --yes`,
      );
      return 2;
    }
    let answer: string;
    try {
      answer = await io.ask(options.question);
    } catch (error) {
      if (!(error instanceof CancelledError)) throw error;
      io.stderr("Cancelled: nothing was moved.");
      return CANCELLED;
    }
    if (answer.trim() !== "DELETE") {
      io.stdout("Cancelled: nothing was moved.");
      return 1;
    }
  }
  // `clean --yes | head -1`: the reader left with the preview, so nobody would learn what moved.
  // Once moving has started it finishes (and reports what it can): stopping midway helps no one.
  if (io.delivered && !(await io.delivered())) {
    io.stderr("session-retention: the output was closed before anything moved; nothing was moved.");
    return 1;
  }
  return undefined;
}
