// "Did you mean …?" for a mistyped command or option: the nearest known word by edit distance.
import { UsageError } from "./errors.js";

/**
 * The optimal-string-alignment distance (Damerau–Levenshtein with adjacent transpositions):
 * `scna` is one edit from `scan`, as a typist would count it.
 */
export function editDistance(a: string, b: string): number {
  // d[i][j]: the distance between a's first i characters and b's first j.
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  return d[a.length]![b.length]!;
}

/**
 * The known word `typed` most likely meant: the nearest within two edits (fewer than the word's
 * own length, so `x` suggests nothing), else the one word it begins; undefined when none is
 * close or two are equally so.
 */
export function closest(typed: string, known: readonly string[]): string | undefined {
  const bare = (word: string) => word.replace(/^-+/, "");
  const word = bare(typed);
  if (word === "") return undefined;
  const near = known
    .map((k) => ({ k, distance: editDistance(word, bare(k)) }))
    .filter(({ distance }) => distance <= 2 && distance < word.length)
    .sort((x, y) => x.distance - y.distance);
  if (near.length > 0)
    return near.length > 1 && near[1]!.distance === near[0]!.distance ? undefined : near[0]!.k;
  const begun = known.filter((k) => word.length >= 2 && bare(k).startsWith(word));
  return begun.length === 1 ? begun[0] : undefined;
}

/** `(did you mean X?)` with a leading space, or nothing. */
export function didYouMean(typed: string, known: readonly string[]): string {
  const guess = closest(typed, known);
  return guess === undefined ? "" : ` (did you mean ${guess}?)`;
}

/**
 * parseArgs' "Unknown option '--jsn'" for `command`, with the nearest of `options()` (the
 * command's options as its help lists them, asked only for such an error) offered; any other
 * error as it was.
 */
export async function withOptionHint(
  error: unknown,
  command: string,
  options: () => Promise<readonly string[]> | readonly string[],
): Promise<unknown> {
  if ((error as NodeJS.ErrnoException | undefined)?.code !== "ERR_PARSE_ARGS_UNKNOWN_OPTION") return error;
  const typed = /^Unknown option '([^']+)'/.exec((error as Error).message)?.[1];
  if (typed === undefined) return error;
  const hint = didYouMean(typed, await options());
  return hint === "" ? error : new UsageError(`${command}: unknown option '${typed}'${hint}`);
}

/** The `--flags` a help text names, and `--help`: what a command takes, as its help says. */
export const flagsIn = (help: string): string[] =>
  [...new Set([...[...help.matchAll(/(?<![\w-])--[a-z][a-z-]*/g)].map((m) => m[0]), "--help"])].sort();
