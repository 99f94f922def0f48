// The notes a look brings that ask nothing of anyone — things in a store that are not its sessions,
// pi running without the extension — folded into one line: each said in full when opened, and the
// line itself says what they are about. A store where nothing is a session is not a note (the
// wrong folder, probably): it stays a banner of its own. Pure: the component shows what this says.
import type { SummaryResponse } from "../../../shared/api.js";
import { formatBytes } from "../../../shared/format.js";
import { describeFinding } from "../../../shared/scan-summary.js";
import { describePiWithoutExtension } from "../../../shared/unmarked-pi.js";

export interface Note {
  key: string;
  /** Which kind of note, for tests and styles: "not-sessions", "pi-without-extension". */
  kind: string;
  text: string;
}

export interface FoldedNotes {
  /** The closed line: what the notes are about, shortest first. */
  summary: string;
  notes: Note[];
}

const plural = (n: number, one: string, many: string) =>
  `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

/** The look's notes, folded; undefined when there are none. */
export function foldedNotes(
  look: Pick<SummaryResponse, "findings" | "piWithoutExtension">,
): FoldedNotes | undefined {
  const strays = look.findings.filter((f) => f.notSessions > 0 && f.sessions > 0);
  const pis = look.piWithoutExtension ?? [];
  const notes: Note[] = [
    ...strays.map((f) => ({
      key: `${f.store.kind}:${f.store.root}`,
      kind: "not-sessions",
      text: describeFinding(f, formatBytes)!,
    })),
    ...pis.map((pi) => ({
      key: `pi:${pi.pid}`,
      kind: "pi-without-extension",
      text: describePiWithoutExtension(pi),
    })),
  ];
  if (notes.length === 0) return undefined;
  const about: string[] = [];
  if (strays.length > 0) {
    const items = strays.reduce((n, f) => n + f.notSessions, 0);
    about.push(
      `${plural(items, "item", "items")} in ${plural(strays.length, "store", "stores")} ${items === 1 ? "is not a session" : "are not sessions"}, left alone`,
    );
  }
  if (pis.length > 0)
    about.push(`${plural(pis.length, "pi process runs", "pi processes run")} without the extension`);
  return { summary: `${plural(notes.length, "note", "notes")}: ${about.join("; ")}`, notes };
}
