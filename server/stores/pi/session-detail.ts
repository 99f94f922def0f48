// One pi session in detail, for the dashboard's drawer: entry counts by type, the conversation tree's
// branches and leaves, compactions, and a preview of the first user message. Read as a stream of
// lines with a cap on what is parsed, so a 2 GB session with inline images costs a read, not memory.
import { closeSync, openSync, readSync } from "node:fs";

export interface SessionDetail {
  /** Entries after the header by `type` (unknown types counted too). */
  entryTypes: Record<string, number>;
  /** Entries no other entry continues from: the ends of the conversation's branches. */
  leaves: number;
  /** Entries continued by more than one entry: where the conversation branched. */
  branchPoints: number;
  compactions: number;
  /** The first user message's text, cut to 300 characters. */
  firstUserMessage?: string;
  /** Lines too long to look into (counted by their type only when it can be seen). */
  longLines: number;
}

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

export function readSessionDetail(path: string): SessionDetail {
  const detail: SessionDetail = { entryTypes: {}, leaves: 0, branchPoints: 0, compactions: 0, longLines: 0 };
  const ids = new Set<string>();
  const children = new Map<string, number>();
  const fd = openSync(path, "r");
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
    for (let n; (n = readSync(fd, buffer, 0, buffer.length, null)) > 0;) {
      let start = 0;
      for (let i = buffer.indexOf(0x0a, 0); i !== -1 && i < n; i = buffer.indexOf(0x0a, i + 1)) {
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
    }
    if (pendingLength > 0) onLine(Buffer.concat(pending));
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
