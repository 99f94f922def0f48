// The flags whose value is a path, judged before any command reads them: a control character (a
// NUL, a line feed, ESC…) in one is refused with the flag named. The system would cut a path at a
// NUL, or fail deep inside with a stack trace; a line feed or an escape would forge what we print.
import { controlCharacterProblem } from "../../shared/places.js";
import { UsageError } from "./errors.js";

/** Every flag of every command that takes a path (`--store` takes `KIND:DIR`). */
export const PATH_FLAGS = ["--root", "--store", "--config", "--textfile", "--out"] as const;

/** Throws a UsageError naming the first path flag whose value holds a control character. */
export function checkPathFlags(argv: readonly string[]): void {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") return; // what follows is no flag
    for (const flag of PATH_FLAGS) {
      const value =
        arg === flag ? argv[i + 1] : arg.startsWith(`${flag}=`) ? arg.slice(flag.length + 1) : undefined;
      const problem = value === undefined ? undefined : controlCharacterProblem(value, flag);
      if (problem) throw new UsageError(problem.message);
    }
  }
}
