// Text that comes from a session — its name, its cwd, its file's name — shown without letting it
// act: an escape sequence in it could clear the terminal or rewrite the lines a user confirms with
// DELETE, a carriage return could overwrite a line, a bidi override could reverse a path, a newline
// could forge a line. Control characters become `\u001b`-style escapes: readable, and the same
// escape JSON uses, so a JSON document passed through `visibleLines` stays valid with the same data.

// The characters a terminal or a bidi renderer acts on: C0 (TAB, LF, CR, ESC…), DEL, C1, and the
// Unicode bidi controls (ALM, LRM/RLM, embeddings and overrides, isolates).
/* eslint-disable no-control-regex -- matching control characters is the point */
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
// The same, less the line feed.
const CONTROLS_BUT_LF =
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
/* eslint-enable no-control-regex */

const escape = (char: string) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;

/** One value — a name, a path, a reason: every control character made visible, line feeds included. */
export function visible(text: string): string {
  return text.replace(CONTROLS, escape);
}

/**
 * A text of lines (a message, a table, a JSON document): the same, except that its line feeds stay
 * line feeds. A value that could hold a line feed must go through `visible` first — here, a line
 * feed inside a session's name would read as a line of its own.
 */
export function visibleLines(text: string): string {
  return text.replace(CONTROLS_BUT_LF, escape);
}
