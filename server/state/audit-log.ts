// The append-only audit log: one JSON line per change, written with O_APPEND and fsynced, so entries
// from several processes interleave whole and survive a crash once the change is reported done.
import { closeSync, fsyncSync, openSync, readFileSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import { type AuditEntry, AuditEntrySchema } from "../../shared/audit.js";
import { ensurePrivateDir } from "../fs/private-files.js";

export function appendAudit(file: string, entry: AuditEntry): void {
  const line = `${JSON.stringify(AuditEntrySchema.parse(entry))}\n`;
  ensurePrivateDir(dirname(file));
  const fd = openSync(file, "a", 0o600);
  try {
    writeSync(fd, line);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

export interface AuditRead {
  /** Newest first. */
  entries: AuditEntry[];
  /** Lines that are not valid entries (a torn last line after a crash, a hand edit): counted, kept on disk. */
  unreadableLines: number;
}

/** Reads the whole log; a missing log is an empty one. */
export function readAudit(file: string): AuditRead {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { entries: [], unreadableLines: 0 };
    throw error;
  }
  const entries: AuditEntry[] = [];
  let unreadableLines = 0;
  for (const line of text.split("\n")) {
    if (!line) continue;
    try {
      entries.push(AuditEntrySchema.parse(JSON.parse(line)));
    } catch {
      unreadableLines++;
    }
  }
  return { entries: entries.reverse(), unreadableLines };
}
