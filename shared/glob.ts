// Glob patterns for `protectedPatterns` and namespace quotas: small, predictable, the same on the
// server and in the browser's policy preview.
//
//   *        any run of characters, "/" included (so "*important*" matches anywhere in a path)
//   ?        exactly one character
//   [abc]    one of the listed characters; ranges ([a-z]) and negation ([!abc] or [^abc]) work
//   \x       the character x itself (to match a literal *, ?, [ or \)
//
// Matching is case-sensitive and covers the whole string. No braces and no "**": with "*" already
// crossing "/", neither would add anything.

export class GlobSyntaxError extends Error {
  override name = "GlobSyntaxError";
}

// The characters a regular expression gives a meaning to; "-" only inside a class (where the "u"
// flag allows escaping it, and outside of which it forbids that).
const REGEX_SPECIAL = /[.*+?^${}()|[\]\\/]/g;
const escapeRegex = (text: string) => text.replace(REGEX_SPECIAL, "\\$&");
const escapeClassMember = (char: string) => (char === "-" ? "\\-" : escapeRegex(char));

/** Compiles a pattern; throws `GlobSyntaxError` for an empty pattern, an unclosed `[` or a trailing `\`. */
export function compileGlob(pattern: string): RegExp {
  if (pattern.length === 0) throw new GlobSyntaxError("empty pattern");
  let source = "";
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i]!;
    if (char === "*") source += "[\\s\\S]*";
    else if (char === "?") source += "[\\s\\S]";
    else if (char === "\\") {
      if (i + 1 === pattern.length) throw new GlobSyntaxError(`"${pattern}" ends with a lone "\\"`);
      source += escapeRegex(pattern[++i]!);
    } else if (char === "[") {
      const close = findClassEnd(pattern, i);
      if (close < 0) throw new GlobSyntaxError(`"${pattern}" has a "[" that is never closed`);
      source += classToRegex(pattern.slice(i + 1, close), pattern);
      i = close;
    } else source += escapeRegex(char);
  }
  return new RegExp(`^${source}$`, "u");
}

/** Index of the `]` closing the class opened at `open`; a `]` right after `[`, `[!` or `[^` is literal. */
function findClassEnd(pattern: string, open: number): number {
  let i = open + 1;
  if (pattern[i] === "!" || pattern[i] === "^") i++;
  if (pattern[i] === "]") i++;
  for (; i < pattern.length; i++) {
    if (pattern[i] === "\\") i++;
    else if (pattern[i] === "]") return i;
  }
  return -1;
}

function classToRegex(body: string, pattern: string): string {
  const negated = body.startsWith("!") || body.startsWith("^");
  const members = negated ? body.slice(1) : body;
  let out = "";
  for (let i = 0; i < members.length; i++) {
    const char = members[i]!;
    if (char === "\\") out += escapeClassMember(members[++i] ?? "");
    else if (char === "-" && i > 0 && i < members.length - 1) {
      const from = members[i - 1]!;
      const to = members[i + 1]!;
      if (from > to) throw new GlobSyntaxError(`"${pattern}" has a backwards range ${from}-${to}`);
      out += "-";
    } else out += escapeClassMember(char);
  }
  return negated ? `[^${out}]` : `[${out}]`;
}

/** Why a pattern is not usable, or undefined when it is. */
export function globProblem(pattern: string): string | undefined {
  try {
    compileGlob(pattern);
    return undefined;
  } catch (error) {
    if (error instanceof GlobSyntaxError) return error.message;
    throw error;
  }
}
