// What is in the trash: the journal's entries, each in its latest state, with "in the trash" judged
// on the disk each time it is read.
import type { TrashEntry } from "../../shared/trash.js";
import { type EngineOptions, engineState } from "./engine.js";
import { type LedgerRead, readLedgers } from "../state/journal.js";
import { pathExists } from "./movers.js";
import { trashedCopy } from "./trashed-copy.js";

/**
 * Every entry (or those of operation `operationId`), in its latest state — with "in the trash"
 * judged on the disk: an entry whose copy is gone (the trash was emptied by a file manager) is shown
 * as gone, and one whose copy came back is in the trash again.
 */
export function listTrash(options: EngineOptions, operationId?: string): LedgerRead {
  const read = readLedgers(engineState(options).ledgerDir, operationId);
  return { ...read, entries: read.entries.map(onDisk) };
}

function onDisk(entry: TrashEntry): TrashEntry {
  if (entry.state !== "in-trash" && entry.state !== "gone") return entry;
  const present = entry.location !== undefined && pathExists(entry.location);
  if (entry.state === "in-trash" && !present) {
    const copy = trashedCopy(entry);
    return { ...entry, state: "gone", ...(copy.state === "gone" ? { reason: copy.reason } : {}) };
  }
  if (entry.state === "gone" && present) {
    const { reason: _gone, ...back } = entry;
    return { ...back, state: "in-trash" };
  }
  return entry;
}
