// Purge: the only hard delete there is — of entries already in the trash, confirmed by the exact
// count and bytes of what goes (shared/trash.ts's purgeConfirmation), and only while the config is
// valid. An entry goes only while its trashed copy is still the very one we put there; each removal
// is journaled before it happens, so recovery can tell a purge that happened from one that did not.
import { rmSync } from "node:fs";
import { isFolderSession } from "../../shared/session-record.js";
import {
  deletedBefore,
  purgeConfirmation,
  resolveTrashRefs,
  type TrashActionResult,
} from "../../shared/trash.js";
import { type EngineOptions, exclusive, freshConfig } from "./engine.js";
import { withEntryLedger } from "../state/journal.js";
import { listTrash } from "./list-trash.js";
import { recoverLocked } from "./recovery.js";
import { removeEmptiedFolders, removeSidecars, trashedCopy } from "./trashed-copy.js";
import { doneItem, trashAudit } from "./trash-report.js";

/** What exactly a purge of these refs would remove, for the confirmation that must echo it. */
export function purgeSelection(refs: readonly string[], options: EngineOptions) {
  const named = resolveTrashRefs(listTrash(options).entries, refs);
  const selected = named.entries.filter((e) => e.state === "in-trash");
  const problems = [
    ...named.problems,
    ...named.entries
      .filter((e) => e.state !== "in-trash")
      .map((e) => `${e.entryId} is ${e.state}, not in the trash`),
  ];
  return {
    selected,
    problems,
    count: selected.length,
    bytes: selected.reduce((t, e) => t + e.sizeBytes, 0),
    confirmation: purgeConfirmation(selected),
  };
}

/**
 * Hard delete of soft-deleted items only, and only when `confirm` is exactly "COUNT:BYTES" of what
 * goes. Refused while the config is invalid (read-only); an entry whose copy is not ours is skipped.
 */
export async function purge(
  refs: readonly string[],
  confirm: string,
  options: EngineOptions,
): Promise<TrashActionResult> {
  return exclusive(options, recoverLocked, async (state) => {
    freshConfig(options);
    const { selected, problems } = purgeSelection(refs, options);
    if (problems.length > 0) return { done: [], skipped: [], refused: problems.join("; ") };
    const expected = purgeConfirmation(selected);
    if (confirm !== expected)
      return {
        done: [],
        skipped: [],
        refused: `the confirmation must be ${expected} (count:bytes of exactly what will be purged), got "${confirm}"`,
      };
    const result: TrashActionResult = { done: [], skipped: [] };
    for (const entry of selected) {
      const copy = trashedCopy(entry, true);
      if (copy.state !== "ours") {
        result.skipped.push({ ref: entry.entryId, reason: copy.reason });
        continue;
      }
      try {
        withEntryLedger(state.ledgerDir, entry.entryId, (ledger, seq) => {
          ledger.append([{ seq, event: "purge-intent" }]);
          ledger.sync();
          // Hard delete of what is already in the trash; a folder session goes as a whole.
          rmSync(entry.location!, { force: true, recursive: isFolderSession(entry) });
          removeSidecars(entry);
          if (entry.trashInfo) rmSync(entry.trashInfo, { force: true });
          removeEmptiedFolders(entry); // before the outcome, as for a restore
          ledger.append([{ seq, event: "purged" }]);
          ledger.sync();
        });
        result.done.push(doneItem(entry));
      } catch (error) {
        result.skipped.push({ ref: entry.entryId, reason: `purge failed: ${(error as Error).message}` });
      }
    }
    trashAudit(state, options, "purge", result);
    return result;
  });
}

/**
 * What "empty items older than N days" takes now: every entry in the trash deleted before `cutoff`,
 * as refs for `purgeSelection` (to show and confirm) and `purge` (which resolves them again under
 * its lock and goes only if the confirmation still matches).
 */
export function emptySelection(cutoff: Date, options: EngineOptions): string[] {
  return deletedBefore(listTrash(options).entries, cutoff).map((e) => e.entryId);
}
