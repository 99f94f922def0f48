// What a command is given to talk through, and the JSON a failed command leaves on stdout. Apart
// from main.ts, which runs the commands: the commands need these types, and main.ts imports them.

export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /**
   * Asks on the terminal and returns the answer; throws `CancelledError` on Ctrl-C or Ctrl-D.
   * Absent when there is no terminal to ask on.
   */
  ask?: (question: string) => Promise<string>;
  /**
   * Resolves once what was written to stdout so far has reached its reader: false when the reader
   * is gone (`… | head`). Absent where output cannot be lost (tests capture it).
   */
  delivered?: () => Promise<boolean>;
}

/** What `--json` prints on stdout when a command fails before it could print its own document. */
export interface CliJsonError {
  ok: false;
  exitCode: number;
  /** What the command said on stderr, the reason last (also still written to stderr). */
  errors: string[];
}
