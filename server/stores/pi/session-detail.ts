// One pi session in detail, for the dashboard's drawer: entry counts by type, the conversation tree's
// branches and leaves, compactions, and a preview of the first user message. Read as a stream of
// lines with a cap on what is parsed, so a 2 GB session with inline images costs a read, not memory;
// the server answers other requests between its chunks. Only the file the look found is read, as
// far as the look measured it and to the line cap — a file replaced since (by a FIFO, a link to
// /dev/zero, another file) is refused, never waited on.
import { closeSync, readSync } from "node:fs";
import type { Fingerprint } from "../../../shared/session-record.js";
import { MAX_LINES } from "../read-caps.js";
import { openRecorded, type SessionDetail } from "../session-detail.js";

export { SessionFileChangedError } from "../session-detail.js";

const PREVIEW_CHARS = 300;
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

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The detail of the session file at `path`, which must still be the file its record was made from
 * (`recorded`: its device and inode), else a `SessionFileChangedError`. At most `recorded.size`
 * bytes are read (what pi appended since is the next look's), and at most MAX_LINES lines.
 */
export async function readSessionDetail(
  path: string,
  recorded: Pick<Fingerprint, "dev" | "ino" | "size">,
): Promise<SessionDetail> {
  const detail: SessionDetail = { entryTypes: {}, leaves: 0, branchPoints: 0, compactions: 0, longLines: 0 };
  const ids = new Set<string>();
  const children = new Map<string, number>();
  const { fd } = openRecorded(path, recorded);
  const buffer = Buffer.allocUnsafe(1 << 18);
  let pending: Buffer[] = [];
  let pendingLength = 0;
  let lineNumber = 0;
  const onLine = (line: Buffer) => {
    lineNumber += 1;
    if (lineNumber === 1 || line.length === 0) return; // the header
    const head = line.subarray(0, HEAD).toString("utf8");
    const type = TYPE.exec(head)?.[1] ?? "(unreadable)";
    detail.entryTypes[type] = (detail.entryTypes[type] ?? 0) + 1;
    if (type === "compaction") detail.compactions += 1;
    const id = ID.exec(head)?.[1];
    const parent = PARENT.exec(head)?.[1];
    if (id) ids.add(id);
    if (parent) children.set(parent, (children.get(parent) ?? 0) + 1);
    if (line.length > PARSE_CAP) {
      detail.longLines += 1;
      return;
    }
    if (detail.firstUserMessage === undefined && type === "message" && head.includes('"role":"user"')) {
      try {
        const text = textOf((JSON.parse(line.toString("utf8")) as { message?: unknown }).message);
        if (text)
          detail.firstUserMessage = text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}…` : text;
      } catch {
        // a corrupt line: the scan reports it; the preview just skips it
      }
    }
  };
  try {
    reading: for (let position = 0, n; position < recorded.size; position += n) {
      n = readSync(fd, buffer, 0, Math.min(buffer.length, recorded.size - position), position);
      if (n === 0) break; // cut short since the look: what is there is what there is
      let start = 0;
      for (let i = buffer.indexOf(0x0a, 0); i !== -1 && i < n; i = buffer.indexOf(0x0a, i + 1)) {
        if (lineNumber === MAX_LINES) break reading; // the record says so (read-capped)
        const piece = buffer.subarray(start, i);
        // Past the cap only the head matters: keep what the head needs, count the rest.
        if (pendingLength > 0) onLine(Buffer.concat([...pending, piece]));
        else onLine(Buffer.from(piece));
        pending = [];
        pendingLength = 0;
        start = i + 1;
      }
      if (start < n) {
        const rest = buffer.subarray(start, n);
        if (pendingLength <= PARSE_CAP) pending.push(Buffer.from(rest));
        pendingLength += rest.length;
      }
      await nextTurn(); // other requests are answered between chunks
    }
    if (pendingLength > 0 && lineNumber < MAX_LINES) onLine(Buffer.concat(pending));
  } finally {
    closeSync(fd);
  }
  for (const id of ids) {
    const n = children.get(id) ?? 0;
    if (n === 0) detail.leaves += 1;
    if (n > 1) detail.branchPoints += 1;
  }
  return detail;
}
