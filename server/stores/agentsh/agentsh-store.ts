// agentsh's LLM-proxy logs: `~/.agentsh/sessions/<session-id>/llm-requests.jsonl` and
// whatever else the session wrote. A session is its folder; it is measured by what is inside (the
// folder's own mtime does not move when the log is appended to) and deleted as one unit.
import { closeSync, lstatSync, readSync } from "node:fs";
import { basename, join } from "node:path";
import type { SessionRecord, SessionWarning } from "../../../shared/session-record.js";
import { openRegularFile } from "../../fs/open-regular-file.js";
import type { StoreScan } from "../adapter-types.js";
import { listSessionFolders, measureFolder } from "../folder-session.js";
import { MAX_LINES, type ReadCap, readCapWarning } from "../read-caps.js";

export const AGENTSH_LOG = "llm-requests.jsonl";

/**
 * Lines of a file (a last line without a newline counts), read in chunks without decoding, never
 * through a link nor from a FIFO put in its place, up to the size it had when opened and to
 * MAX_LINES lines; undefined when it cannot be read.
 */
function countLines(path: string): { lines: number; capped?: ReadCap } | undefined {
  let opened;
  try {
    opened = openRegularFile(path);
  } catch {
    return undefined;
  }
  const { fd, identity } = opened;
  const buffer = Buffer.allocUnsafe(1 << 18);
  let lines = 0;
  /** Where the line being read starts. */
  let lineStart = 0;
  const capped = () => ({ lines, capped: { cap: "lines" as const, lines, bytes: lineStart } });
  try {
    for (let position = 0; position < identity.size;) {
      const n = readSync(fd, buffer, 0, Math.min(buffer.length, identity.size - position), position);
      if (n === 0) break;
      for (let at = buffer.indexOf(0x0a, 0); at !== -1 && at < n; at = buffer.indexOf(0x0a, at + 1)) {
        if (lines === MAX_LINES) return capped();
        lines += 1;
        lineStart = position + at + 1;
      }
      position += n;
    }
    if (lineStart === identity.size) return { lines };
    return lines === MAX_LINES ? capped() : { lines: lines + 1 }; // a last line without its newline
  } finally {
    closeSync(fd);
  }
}

const iso = (ms: number) => new Date(ms).toISOString();

/** An agentsh session is a folder holding its request log as a regular file; anything else is not one. */
export function recogniseAgentshSession(folder: string): { session: true } | { not: string } {
  const log = lstatSync(join(folder, AGENTSH_LOG), { throwIfNoEntry: false });
  return log?.isFile() ? { session: true } : { not: `a folder without ${AGENTSH_LOG}` };
}

export function scanAgentshRoot(root: string): StoreScan {
  const records: SessionRecord[] = [];
  const { folders, problems } = listSessionFolders(root, "agentsh", recogniseAgentshSession);
  for (const { path: folder } of folders) {
    let facts;
    try {
      facts = measureFolder(folder);
    } catch (error) {
      problems.push({ code: "unreadable", path: folder, message: (error as Error).message });
      continue;
    }
    const warnings: SessionWarning[] = [];
    const counted = countLines(join(folder, AGENTSH_LOG));
    const lines = counted?.lines;
    if (counted === undefined)
      warnings.push({ code: "unreadable", message: `cannot read ${AGENTSH_LOG}; its lines are not counted` });
    else if (counted.capped) warnings.push(readCapWarning(counted.capped, AGENTSH_LOG));
    if (facts.symlinks.length > 0)
      warnings.push({
        code: "symlink-inside",
        message: `${facts.symlinks.length} symlink(s) inside, not followed and not counted (e.g. ${facts.symlinks[0]})`,
      });
    if (facts.unreadable.length > 0)
      warnings.push({
        code: "unreadable",
        message: `cannot read ${facts.unreadable[0]}; its size is not counted`,
      });
    const modifiedAt = iso(facts.newestMtimeMs);
    records.push({
      id: `agentsh:${basename(folder)}`,
      store: { kind: "agentsh", root },
      path: folder,
      namespace: "agentsh",
      sizeBytes: facts.fingerprint.size,
      createdAt: iso(Math.min(facts.createdMs, facts.newestMtimeMs)),
      modifiedAt,
      lastUsedAt: modifiedAt,
      fingerprint: facts.fingerprint,
      messageCount: lines ?? 0,
      // Each line is one proxied LLM request: not a chat message by role.
      messageCounts: { user: 0, assistant: 0, toolResult: 0, other: lines ?? 0 },
      warnings,
    });
  }
  return { records, problems };
}
