// One Claude Code transcript in detail, for the dashboard's drawer: its lines by type, the
// conversation's branches (each message names the one it continues by `parentUuid`; a rewind or an
// edited prompt starts a second branch from an earlier message), its compactions (`compact_boundary`
// lines) and the first prompt typed. Read as pi's detail is (session-detail.ts): only the file the
// look found, as far as it measured it, its long lines (a pasted image, a file-history snapshot) by
// their two ends.
import type { Fingerprint } from "../../../shared/session-record.js";
import { detailTally, preview, readRecordedLines, type SessionDetail } from "../session-detail.js";
import { longLineType, typedText } from "./transcript.js";

/** Lines longer than this are read by their ends only, as the scan reads them. */
const PARSE_CAP = 256 * 1024;

/** On a long line: the id it continues from is near its start, its own near its end. */
const PARENT = /"(?:parentUuid|logicalParentUuid)":"([^"]{1,128})"/;
const UUID_G = /"uuid":"([^"]{1,128})"/g;

/**
 * The detail of the transcript at `path`, which must still be the file its record was made from
 * (`recorded`: its device and inode), else a `SessionFileChangedError`. At most `recorded.size`
 * bytes are read (what Claude appended since is the next look's), and at most MAX_LINES lines.
 */
export async function readClaudeDetail(
  path: string,
  recorded: Pick<Fingerprint, "dev" | "ino" | "size">,
): Promise<SessionDetail> {
  const tally = detailTally();
  const { detail } = tally;
  const line = (text: string) => {
    if (text.trim() === "") return;
    let parsed: Record<string, unknown>;
    try {
      parsed = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return tally.entry(undefined); // a corrupt line: the scan warns of it
    }
    if (typeof parsed !== "object" || parsed === null) return tally.entry(undefined);
    const field = (name: string) => (typeof parsed[name] === "string" ? (parsed[name] as string) : undefined);
    const type = field("type");
    // A compaction starts a new chain (`parentUuid` null) that goes on from the old one's end.
    tally.entry(type, field("uuid"), field("parentUuid") ?? field("logicalParentUuid"));
    if (type === "system" && parsed.subtype === "compact_boundary") detail.compactions += 1;
    if (type === "user" && detail.firstUserMessage === undefined) {
      const typed = typedText(parsed)?.trim();
      if (typed) detail.firstUserMessage = preview(typed);
    }
  };
  await readRecordedLines(path, recorded, {
    parseCap: PARSE_CAP,
    line,
    longLine: (head, tail) => {
      detail.longLines += 1;
      tally.entry(longLineType(head, tail), [...tail.matchAll(UUID_G)].at(-1)?.[1], PARENT.exec(head)?.[1]);
    },
  });
  return tally.done();
}
