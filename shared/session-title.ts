// How a session is called wherever it is shown, as its agent's own session picker calls it: its name,
// else its last prompt where the agent shows that (Claude Code), else its first user message, else
// its time. The file name is only ever secondary: `<time>_<uuid>.jsonl`
// tells a person nothing. One helper, so the table, the treemap, the wizard, Trash, Activity and the
// CLI cannot disagree.

/** Characters kept of a first message: a title is one line, and 100,000 of them go over the wire. */
export const FIRST_MESSAGE_CHARS = 80;

/**
 * A message as one short line: control characters and runs of white space become one space (pi's
 * picker does the same), trimmed, cut at `max` characters with an ellipsis. Undefined when nothing
 * is left. Cuts between code points, never inside a surrogate pair.
 */
/** White space other than one plain space between words, and control characters: what `oneLine` replaces. */
const NOT_ONE_LINE = /[^\S ]| {2}|\p{Cc}/u;

export function oneLine(text: string, max = FIRST_MESSAGE_CHARS): string | undefined {
  // Only the start matters: a pasted 5 MB log is not walked to its end.
  const head = text.length > max * 4 + 64 ? text.slice(0, max * 4 + 64) : text;
  // Already one short line (a record's first message is stored so): nothing to replace or cut.
  if (head.length === text.length && text.length <= max && !NOT_ONE_LINE.test(text) && text.trim() === text)
    return text === "" ? undefined : text;
  const line = head.replace(/[\s\p{Cc}]+/gu, " ").trim();
  if (line === "") return undefined;
  const chars = Array.from(line);
  return chars.length <= max && head.length === text.length
    ? line
    : `${chars
        .slice(0, max - 1)
        .join("")
        .trimEnd()}…`;
}

/** What a title is made of: a name the user (or the agent) gave, the first message, or the time. */
export type TitleSource = "name" | "message" | "time";

export interface SessionTitle {
  title: string;
  source: TitleSource;
}

/** The fields a title needs, on a record, a table row, a trash entry or an audit item alike. */
export interface Titled {
  name?: string | undefined;
  /** The last prompt, where the agent titles a session by it (see `SessionRecord.lastPrompt`). */
  lastPrompt?: string | undefined;
  firstMessage?: string | undefined;
  /** ISO time, for a session with neither a name nor a message. */
  createdAt?: string | undefined;
  /** The last resort when there is no time either (an old trash entry, an audit item). */
  path?: string | undefined;
}

/** `2026-01-05 14:03` in UTC: the same on the server, in the CLI and in any browser. */
export function titleTime(iso: string): string | undefined {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return undefined;
  return new Date(ms).toISOString().slice(0, 16).replace("T", " ");
}

/**
 * A session's title: its name, else its last prompt (where its agent shows that), else its first user
 * message, else its time (else its file name).
 */
export function sessionTitle(session: Titled): SessionTitle {
  const name = session.name?.trim();
  if (name) return { title: oneLine(name, 120) ?? name, source: "name" };
  const message =
    (session.lastPrompt && oneLine(session.lastPrompt)) ||
    (session.firstMessage && oneLine(session.firstMessage));
  if (message) return { title: message, source: "message" };
  const time = session.createdAt === undefined ? undefined : titleTime(session.createdAt);
  return { title: time ?? (session.path ? fileName(session.path) : "(unnamed)"), source: "time" };
}

/** The last part of a path: a session's file name, a namespace's folder name. */
export function fileName(path: string): string {
  const trimmed = path.endsWith("/") && path.length > 1 ? path.slice(0, -1) : path;
  return trimmed.slice(trimmed.lastIndexOf("/") + 1) || trimmed;
}

/** A namespace as shown beside a title: its folder's name (`/home/dev/app` → `app`). */
export const namespaceBase = (namespace: string) => fileName(namespace);

/** One line for a plain-text listing: `title · namespace`, the title's own source implied. */
export function titleLine(session: Titled & { namespace?: string | undefined }): string {
  const { title } = sessionTitle(session);
  return session.namespace ? `${title} · ${namespaceBase(session.namespace)}` : title;
}
