// Which session a command-line argument names: its id, a unique part of its id, or its file's path.
import { realpathSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { SessionRecord } from "../../shared/session-record.js";
import { UserError } from "../errors.js";
import { detachableParts } from "../stores/detachable.js";

/**
 * Shortest id fragment accepted. A unique part rather than a prefix: pi's ids are UUIDv7, whose
 * leading characters are a timestamp shared by every session started in the same minute.
 */
const MIN_FRAGMENT = 8;

/**
 * The session an argument names: exact id, path (relative to the working folder) or a unique part of
 * an id — or, by its exact id or path, a part of a session that can be removed on its own (a Gemini
 * resume twin), as the item that moves it alone.
 */
export function findSession(arg: string, sessions: readonly SessionRecord[]): SessionRecord {
  return sessionFinder(sessions)(arg);
}

/**
 * `findSession` for many arguments over the same sessions (`clean --ids` with 1,500 of them in a
 * store of 100,000): the ids and paths are indexed once, not searched once per argument.
 */
export function sessionFinder(sessions: readonly SessionRecord[]): (arg: string) => SessionRecord {
  const parts = [...detachableParts(sessions).values()].map((p) => p.record);
  // The first of each id or path wins, as a search in order would find it.
  const index = (key: (s: SessionRecord) => string, ...lists: Array<readonly SessionRecord[]>) => {
    const map = new Map<string, SessionRecord>();
    for (const list of lists) for (const s of list) if (!map.has(key(s))) map.set(key(s), s);
    return map;
  };
  const byId = index((s) => s.id, sessions, parts);
  const byPath = index((s) => s.path, sessions, parts);
  return (arg) => {
    const found = byId.get(arg) ?? byPath.get(realPathOrResolved(arg));
    if (found) return found;
    if (arg.length >= MIN_FRAGMENT && !arg.includes("/")) {
      const matches = sessions.filter((s) => s.id.includes(arg));
      if (matches.length === 1) return matches[0]!;
      if (matches.length > 1)
        throw new UserError(`"${arg}" is part of ${matches.length} session ids; give more of it`);
    }
    throw new UserError(`no session "${arg}" in the scanned stores (give its id or the path of its file)`);
  };
}

/** Real path of a file, or of its folder when the file is gone, so `./x.jsonl` matches a scanned path. */
function realPathOrResolved(arg: string): string {
  const absolute = resolve(arg);
  try {
    return realpathSync(absolute);
  } catch {
    try {
      return join(realpathSync(dirname(absolute)), absolute.slice(dirname(absolute).length + 1));
    } catch {
      return absolute;
    }
  }
}
