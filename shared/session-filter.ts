// The sessions page's filter as one pure function: the table filters its rows with it, and the
// server evaluates "all sessions matching the filter" with it for a clean, so the two cannot
// disagree about which sessions a filter means.
import { z } from "zod";
import { STORE_KINDS } from "./session-record.js";
import { wouldClean } from "./verdict.js";

/** The filter fields of the sessions page; every field is optional on the wire ("" = any). */
export const SessionFilterSchema = z.strictObject({
  /** Case-insensitive text in the path, the name, the last or the first message or the namespace. */
  text: z.string().max(256).default(""),
  /** Exactly this namespace. */
  namespace: z.string().max(4096).default(""),
  store: z.enum(["", ...STORE_KINDS]).default(""),
  /**
   * "policy": what the policy would clean now; "deletable": not kept, so it may be picked by hand
   * (the policy may still keep it); "kept": kept for some reason (active, pinned, protected…).
   */
  status: z.enum(["", "policy", "deletable", "kept"]).default(""),
  /** Only sessions with parse warnings. */
  warningsOnly: z.boolean().default(false),
  /** Only sessions their agent's user archived (Claude Code). */
  archivedOnly: z.boolean().default(false),
});
export type SessionFilter = z.output<typeof SessionFilterSchema>;

export const NO_FILTER: SessionFilter = {
  text: "",
  namespace: "",
  store: "",
  status: "",
  warningsOnly: false,
  archivedOnly: false,
};

/** What the filter looks at, in the table's row and in the server's records alike. */
export interface FilterableSession {
  path: string;
  name?: string | undefined;
  /** The last prompt, where the agent titles a session without a name by it. */
  lastPrompt?: string | undefined;
  /** The first user message (the title of a session without a name or last prompt). */
  firstMessage?: string | undefined;
  /** Whether its agent's user archived it. */
  archived?: boolean | undefined;
  namespace: string;
  store: string;
  /** Why it may not be removed, when it may not. */
  kept?: string | undefined;
  /** The policy's verdict (see verdict.ts), when there is a valid policy. */
  verdict?: string | undefined;
  /** How many parse warnings it has. */
  warnings: number;
}

/** True when the filter lets every session through. */
export function isEmptyFilter(filter: SessionFilter): boolean {
  return (
    !filter.text.trim() &&
    !filter.namespace &&
    !filter.store &&
    !filter.status &&
    !filter.warningsOnly &&
    !filter.archivedOnly
  );
}

/** A predicate for the filter (the text lower-cased once, not once per session). */
export function sessionMatcher(filter: SessionFilter): (session: FilterableSession) => boolean {
  const text = filter.text.trim().toLowerCase();
  const { namespace, store, status, warningsOnly, archivedOnly } = filter;
  return (s) =>
    (!namespace || s.namespace === namespace) &&
    (!store || s.store === store) &&
    (!status ||
      (status === "policy" ? wouldClean(s.verdict) : (status === "kept") === (s.kept !== undefined))) &&
    (!warningsOnly || s.warnings > 0) &&
    (!archivedOnly || s.archived === true) &&
    (!text ||
      s.path.toLowerCase().includes(text) ||
      (s.name?.toLowerCase().includes(text) ?? false) ||
      (s.lastPrompt?.toLowerCase().includes(text) ?? false) ||
      (s.firstMessage?.toLowerCase().includes(text) ?? false) ||
      s.namespace.toLowerCase().includes(text));
}

/** The sessions the filter lets through, in their order; the same array when the filter is empty. */
export function filterSessions<T extends FilterableSession>(sessions: T[], filter: SessionFilter): T[] {
  if (isEmptyFilter(filter)) return sessions;
  return sessions.filter(sessionMatcher(filter));
}
