// One pi session in detail, for the dashboard's drawer: entry counts by type, the conversation tree's
// branches and leaves, compactions, and a preview of the first user message. Read as a stream of
// lines with a cap on what is parsed, so a 2 GB session with inline images costs a read, not memory;
// the server answers other requests between its chunks. Only the file the look found is read, as
// far as the look measured it and to the line cap — a file replaced since (by a FIFO, a link to
// /dev/zero, another file) is refused, never waited on.
import type { Fingerprint } from "../../../shared/session-record.js";
import { detailTally, preview, readRecordedLines, type SessionDetail } from "../session-detail.js";

export { SessionFileChangedError } from "../session-detail.js";

/** Lines longer than this are not JSON-parsed (their head still gives type, id and parentId). */
const PARSE_CAP = 1 << 20;
const HEAD = 512;

const TYPE = /"type":"([^"]{1,64})"/;
const ID = /"id":"([^"]{1,128})"/;
const PARENT = /"parentId":"([^"]{1,128})"/;

function textOf(message: unknown): string | undefined {
  const content = (message as { content?: unknown } | undefined)?.content;
  if (typeof content === "string") return content;
  if (Array.isArray(content))
    return content
      .filter((part): part is { type: "text"; text: string } => (part as { type?: unknown })?.type === "text")
      .map((part) => part.text)
      .join(" ");
  return undefined;
}

/**
 * The detail of the session file at `path`, which must still be the file its record was made from
 * (`recorded`: its device and inode), else a `SessionFileChangedError`. At most `recorded.size`
 * bytes are read (what pi appended since is the next look's), and at most MAX_LINES lines.
 */
export async function readSessionDetail(
  path: string,
  recorded: Pick<Fingerprint, "dev" | "ino" | "size">,
): Promise<SessionDetail> {
  const tally = detailTally();
  const { detail } = tally;
  let lineNumber = 0;
  /** A line, or (`long`) the head of one too long to parse. */
  const onLine = (text: string, long: boolean) => {
    lineNumber += 1;
    if (lineNumber === 1 || text.length === 0) return; // the header
    const head = text.slice(0, HEAD);
    const type = TYPE.exec(head)?.[1];
    tally.entry(type, ID.exec(head)?.[1], PARENT.exec(head)?.[1]);
    if (type === "compaction") detail.compactions += 1;
    if (long) {
      detail.longLines += 1;
      return;
    }
    if (detail.firstUserMessage === undefined && type === "message" && head.includes('"role":"user"')) {
      try {
        const first = textOf((JSON.parse(text) as { message?: unknown }).message);
        if (first) detail.firstUserMessage = preview(first);
      } catch {
        // a corrupt line: the scan reports it; the preview just skips it
      }
    }
  };
  await readRecordedLines(path, recorded, {
    parseCap: PARSE_CAP,
    line: (text) => onLine(text, false),
    longLine: (head) => onLine(head, true),
  });
  return tally.done();
}
