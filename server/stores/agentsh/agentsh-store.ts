// agentsh's LLM-proxy logs: `~/.agentsh/sessions/<session-id>/llm-requests.jsonl` and
// whatever else the session wrote. A session is its folder; it is measured by what is inside (the
// folder's own mtime does not move when the log is appended to) and deleted as one unit.
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync } from "node:fs";
import { basename, join } from "node:path";
import type { SessionRecord, SessionWarning } from "../../../shared/session-record.js";
import type { StoreScan } from "../adapter-types.js";
import { listSessionFolders, measureFolder } from "../folder-session.js";

export const AGENTSH_LOG = "llm-requests.jsonl";

/** Lines of a file (a last line without a newline counts), read in chunks without decoding. */
function countLines(path: string): number | undefined {
  let fd: number;
  try {
    // Never through a link, never blocking on a FIFO put in its place.
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  if (!fstatSync(fd).isFile()) {
    closeSync(fd);
    return undefined;
  }
  const buffer = Buffer.allocUnsafe(1 << 18);
  let lines = 0;
  let last = 0x0a;
  try {
    for (let n; (n = readSync(fd, buffer, 0, buffer.length, null)) > 0;) {
      for (let i = 0; i < n; i++) if (buffer[i] === 0x0a) lines++;
      last = buffer[n - 1]!;
    }
  } finally {
    closeSync(fd);
  }
  return last === 0x0a ? lines : lines + 1;
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
    const lines = countLines(join(folder, AGENTSH_LOG));
    if (lines === undefined)
      warnings.push({ code: "unreadable", message: `cannot read ${AGENTSH_LOG}; its lines are not counted` });
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
