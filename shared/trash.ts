// What was soft-deleted, where it went and what became of it: the trash as the CLI lists it and the
// dashboard shows it. Each entry is one session moved by one operation.
import { z } from "zod";
import { FingerprintSchema, StoreKindSchema } from "./session-record.js";

export const TRASH_STATES = [
  "moving", // an intent with no outcome yet: a crash happened, or it is under way
  "in-trash",
  "not-moved", // the intent was rolled back, or the file changed just before the move
  "restoring",
  "restored",
  "purging",
  "purged",
  "conflict", // recovery found both the original and a trashed copy: reported, never guessed
  // The trashed copy is no longer where we put it (the trash was emptied, or it was removed outside
  // session-retention). Judged on the disk each time: if the copy comes back, it is in the trash again.
  "gone",
] as const;
export type TrashState = (typeof TRASH_STATES)[number];

export const SidecarSchema = z.object({ from: z.string(), to: z.string() });

/** What the intent records before anything moves. */
export const TrashItemSchema = z.object({
  id: z.string(),
  originalPath: z.string(),
  /**
   * The session's title when it was moved (session-title.ts: its name, else its first message, else
   * its time). Absent in entries written before it was recorded: those are shown by file name.
   */
  title: z.string().optional(),
  namespace: z.string(),
  storeRoot: z.string(),
  /** pi sessions are files; agentsh sessions and workspaces are folders, moved as one unit. */
  storeKind: StoreKindSchema,
  /** The session's path is a folder (absent in entries written before it was recorded: see isFolderSession). */
  folder: z.boolean().optional(),
  sizeBytes: z.number().int().nonnegative(),
  fingerprint: FingerprintSchema,
  /** "system-trash": the freedesktop trash; "quarantine": our own folder. */
  target: z.enum(["system-trash", "quarantine"]),
  /** Where the file goes; for the system trash only known once moved (the trash picks the name). */
  location: z.string().optional(),
  /** The system trash's `.trashinfo` file. */
  trashInfo: z.string().optional(),
  /**
   * Its name in the home trash (`files/<name>`, `info/<name>.trashinfo`), chosen before the move:
   * what recovery may remove after a crash is what bears it. Absent in older entries and for the
   * quarantine.
   */
  trashName: z.string().optional(),
  /**
   * The trashed copy as it was just after the move (device, inode, size, newest mtime): a purge or
   * restore acts only on that same copy. Absent in entries written before it was recorded.
   */
  trashedIdentity: FingerprintSchema.extend({
    /**
     * Its change time: nobody can set it, so a file put in the slot since — even one that reuses
     * the inode and copies size and mtime — is told apart. Absent in older entries.
     */
    ctimeNs: z.string().regex(/^\d+$/).optional(),
  }).optional(),
  /** SHA-256 of the trashed copy, when the move was a copy (another file system), checked as well. */
  sha256: z.string().optional(),
  /** Files that belong to the session (pi session-index metadata) and move with it. */
  sidecars: z.array(SidecarSchema),
  /**
   * A Codex session's lines of `session_index.jsonl` (its thread names), exactly as they were:
   * `codex delete` removes them, a restore appends them again.
   */
  indexLines: z.array(z.string()).optional(),
  deletedAt: z.string(),
});
export type TrashItem = z.infer<typeof TrashItemSchema>;

export const TrashEntrySchema = TrashItemSchema.extend({
  /** `<operation>:<n>`: names this entry in `trash restore` and `trash purge`. */
  entryId: z.string(),
  state: z.enum(TRASH_STATES),
  /** Why it is not moved, or what the conflict is. */
  reason: z.string().optional(),
  updatedAt: z.string(),
});
export type TrashEntry = z.infer<typeof TrashEntrySchema>;

/** What crash recovery made of an intent left open. */
export const RecoverySchema = z.object({
  entryId: z.string(),
  id: z.string(),
  path: z.string(),
  /** What the interrupted step turned out to be ("gone": no copy is anywhere we can see). */
  result: z.enum(["finished", "rolled-back", "conflict", "gone"]),
  detail: z.string(),
});
export type Recovery = z.infer<typeof RecoverySchema>;

/** The outcome of a soft delete: what moved where, what was skipped and why. */
/**
 * An agent's own check of its store after we deleted from it or restored into it (Codex's
 * `codex doctor`): its verdict, said with the result and in the audit log. Not "ok" is said loudly;
 * the move itself stands (our copy was taken first).
 */
export const AgentCheckSchema = z.object({
  agent: StoreKindSchema,
  storeRoot: z.string(),
  status: z.enum(["ok", "warning", "fail", "unavailable"]),
  message: z.string(),
});
export type AgentCheck = z.infer<typeof AgentCheckSchema>;

export const SoftDeleteResultSchema = z.object({
  operationId: z.string().optional(),
  dryRun: z.boolean(),
  moved: z.array(
    z.object({
      id: z.string(),
      path: z.string(),
      /** Its title (see TrashItemSchema). */
      title: z.string().optional(),
      bytes: z.number(),
      destination: z.string(),
      target: TrashItemSchema.shape.target,
    }),
  ),
  skipped: z.array(z.object({ id: z.string(), path: z.string().optional(), reason: z.string() })),
  bytesFreed: z.number(),
  /** Things said about what moved (what an agent's own delete left behind, or took with it). */
  notes: z.array(z.string()).optional(),
  /**
   * Sessions outside the selection that were gone once an agent's own delete had run (the look after
   * each one): lost for good, in no trash entry. It must never happen; when it does, it is said
   * loudly here, in the audit log, by the CLI and on the dashboard.
   */
  lost: z.array(z.object({ id: z.string(), path: z.string(), reason: z.string() })).optional(),
  /** Set when nothing was done because the selection as a whole is refused. */
  refused: z.string().optional(),
  /**
   * Set when the user stopped the run: it stopped after `after` of the `of` chosen items. What
   * moved stays moved (with its undo); the rest are in `skipped`, untouched.
   */
  stopped: z.object({ after: z.number(), of: z.number() }).optional(),
  /** What recovery resolved before this operation started. */
  recovered: z.array(RecoverySchema).optional(),
  /** The agents' own checks of the stores it deleted from (Codex: `codex doctor`). */
  checks: z.array(AgentCheckSchema).optional(),
});
export type SoftDeleteResult = z.infer<typeof SoftDeleteResultSchema>;

/** Why an item a delete chose stayed where it is: the user stopped the run before its turn. */
export const STOPPED_REASON = "not moved: the deletion was stopped before its turn";

/** The outcome of a restore or a purge. */
export const TrashActionResultSchema = z.object({
  done: z.array(
    z.object({
      entryId: z.string(),
      id: z.string(),
      path: z.string(),
      title: z.string().optional(),
      bytes: z.number(),
    }),
  ),
  skipped: z.array(
    z.object({
      ref: z.string(),
      reason: z.string(),
      /** A restore skipped because a file is at the session's original path again: both are kept. */
      pathTaken: z.literal(true).optional(),
    }),
  ),
  refused: z.string().optional(),
  recovered: z.array(RecoverySchema).optional(),
  /**
   * Restored sessions their agent's own cleanup will delete again at its next start (a Claude
   * transcript keeps its old time, a Gemini chat the time inside it): say so, and where `keep` can
   * keep them (Claude's, by their file time), offer to.
   */
  sweptAgain: z
    .array(
      z.object({
        id: z.string(),
        path: z.string(),
        message: z.string(),
        agent: StoreKindSchema,
        keepable: z.boolean(),
      }),
    )
    .optional(),
  /** The agents' own checks of the stores it restored into (Codex: `codex doctor`). */
  checks: z.array(AgentCheckSchema).optional(),
});
export type TrashActionResult = z.infer<typeof TrashActionResultSchema>;

/** Who started a cleanup, from its audit entry: the CLI, the dashboard, pi, or an automatic run. */
export const CleanupTriggerSchema = z.object({
  operationId: z.string(),
  actor: z.enum(["cli", "ui", "extension", "auto"]),
  /** "soft-delete" (a clean someone confirmed) or "auto-clean". */
  action: z.enum(["soft-delete", "auto-clean"]),
});
export type CleanupTrigger = z.infer<typeof CleanupTriggerSchema>;

export const TrashListSchema = z.object({
  entries: z.array(TrashEntrySchema),
  /** Ledger lines that could not be read (a torn write): counted, never guessed. */
  unreadableLines: z.number().int().nonnegative(),
  /** What started each operation, where the audit log says (the dashboard's Trash groups by it). */
  triggers: z.array(CleanupTriggerSchema).optional(),
});
export type TrashList = z.infer<typeof TrashListSchema>;

/**
 * What a soft delete did to the disk, said where its bytes are reported: the sessions sit in a trash
 * on the same disk, so nothing is freed until the trash is emptied (a purge is what frees).
 */
export const STILL_ON_DISK = "moved to the trash — still on disk until emptied";

const inTrash = (entry: TrashEntry) => entry.state === "in-trash";

// The names the trash is handled by, each built and read in this one place: the server writes them,
// the CLI, the dashboard and pi read them back.

/** The id of the `seq`-th item an operation moved: `<operation>:<n>`. */
export const entryIdOf = (operationId: string, seq: number): string => `${operationId}:${seq}`;

/** The operation and item number an entry id names; undefined for anything else. */
export function parseEntryId(entryId: string): { operationId: string; seq: number } | undefined {
  const match = /^([0-9TZ]+-[0-9a-f]+):(\d+)$/.exec(entryId);
  return match ? { operationId: match[1]!, seq: Number(match[2]) } : undefined;
}

/** The operation an entry id (`<operation>:<n>`) belongs to. */
export const operationOf = (entryId: string) => entryId.slice(0, entryId.lastIndexOf(":"));

/**
 * The confirmation a purge asks for: `COUNT:BYTES` of exactly the entries it removes, so a purge
 * typed for one selection can never remove another (nothing undoes a purge).
 */
export const purgeConfirmation = (entries: readonly { sizeBytes: number }[]): string =>
  `${entries.length}:${entries.reduce((sum, e) => sum + e.sizeBytes, 0)}`;

/** The form of a purge confirmation, for request schemas. */
export const PURGE_CONFIRMATION_FORM = /^\d+:\d+$/;

/** The count and bytes a confirmation says; undefined when it is not `COUNT:BYTES`. */
export function parsePurgeConfirmation(text: string): { count: number; bytes: number } | undefined {
  if (!PURGE_CONFIRMATION_FORM.test(text)) return undefined;
  const [count, bytes] = text.split(":").map(Number) as [number, number];
  return Number.isSafeInteger(count) && Number.isSafeInteger(bytes) ? { count, bytes } : undefined;
}

/**
 * What undoing these operations restores: their entries still in the trash (what was restored,
 * purged or is gone since is not asked for again), as entry ids for a restore.
 */
export function undoRefs(entries: readonly TrashEntry[], operations: readonly string[]): string[] {
  const wanted = new Set(operations);
  return entries.filter((e) => inTrash(e) && wanted.has(operationOf(e.entryId))).map((e) => e.entryId);
}

/**
 * What became of one delete's sessions since it ran, as the journal says now: restored (by its
 * Undo, the Trash page or `trash restore` alike), still in the trash, or neither (purged, gone from
 * the trash). The dashboard says by it that a delete was undone, and offers Undo only for what is left.
 */
export const CleanupSinceSchema = z.object({
  restored: z.number().int().nonnegative(),
  /** When the last of them was restored. */
  restoredAt: z.string().optional(),
  /** Still in the trash: what its Undo restores now. */
  inTrash: z.number().int().nonnegative(),
});
export type CleanupSince = z.infer<typeof CleanupSinceSchema>;

/** What became of the sessions operation `operationId` moved (its entries among `entries`). */
export function cleanupSince(entries: readonly TrashEntry[], operationId: string): CleanupSince {
  let restored = 0;
  let restoredAt: string | undefined;
  let count = 0;
  for (const entry of entries) {
    if (operationOf(entry.entryId) !== operationId) continue;
    if (inTrash(entry)) count++;
    else if (entry.state === "restored") {
      restored++;
      if (restoredAt === undefined || entry.updatedAt > restoredAt) restoredAt = entry.updatedAt;
    }
  }
  return { restored, ...(restoredAt ? { restoredAt } : {}), inTrash: count };
}

/** The operation that last moved something still in the trash: what a bare "undo" takes back. */
export function latestOperation(entries: readonly TrashEntry[]): string | undefined {
  let latest: TrashEntry | undefined;
  for (const entry of entries)
    if (inTrash(entry) && (!latest || entry.deletedAt > latest.deletedAt)) latest = entry;
  return latest && operationOf(latest.entryId);
}

/** Shortest start of a name that may stand for the whole of it. */
export const MIN_REF_PREFIX = 8;

/**
 * What `trash restore` and `trash purge` act on. A ref is an entry id (`<operation>:<n>`, in any
 * state, so that restoring a restored entry says so), an operation id (every entry of it still in
 * the trash: the undo `clean` prints), a session id (its entry in the trash, if it has just one),
 * or the start — at least 8 characters — of exactly one such name among what is in the trash.
 * Every ref is resolved before anything is done, so a typo never leaves half a restore behind.
 */
export function resolveTrashRefs(
  entries: readonly TrashEntry[],
  refs: readonly string[],
): { entries: TrashEntry[]; problems: string[] } {
  const resolve = trashRefResolver(entries);
  const named = new Set<TrashEntry>();
  const problems: string[] = [];
  for (const ref of refs) {
    const found = resolve(ref);
    if (typeof found === "string") problems.push(found);
    else for (const entry of found) named.add(entry);
  }
  return { entries: [...named], problems };
}

/**
 * The entries one ref names, or why it names none: `resolveTrashRefs` for one ref at a time, with
 * the entries indexed once (a restore of 1,000 refs over a long history must not search it 1,000 times).
 */
export function trashRefResolver(entries: readonly TrashEntry[]): (ref: string) => TrashEntry[] | string {
  const byEntry = new Map(entries.map((e) => [e.entryId, e]));
  const byOperation = new Map<string, TrashEntry[]>();
  const bySession = new Map<string, TrashEntry[]>();
  for (const entry of entries) {
    const operation = operationOf(entry.entryId);
    byOperation.set(operation, [...(byOperation.get(operation) ?? []), entry]);
    if (inTrash(entry)) bySession.set(entry.id, [...(bySession.get(entry.id) ?? []), entry]);
  }
  const byName = (name: string): TrashEntry[] | string | undefined => {
    const entry = byEntry.get(name);
    if (entry) return [entry];
    const operation = byOperation.get(name);
    if (operation) {
      const left = operation.filter(inTrash);
      return left.length > 0 ? left : `nothing of operation ${name} is in the trash any more`;
    }
    const session = bySession.get(name) ?? [];
    if (session.length === 1) return session;
    if (session.length > 1)
      return `session ${name} is in the trash ${session.length} times; name the entry (${session.map((e) => e.entryId).join(", ")})`;
    return undefined;
  };
  const byPrefix = (ref: string): TrashEntry[] | string => {
    const names = new Set<string>();
    if (ref.length >= MIN_REF_PREFIX)
      for (const entry of entries.filter(inTrash)) {
        const operation = operationOf(entry.entryId);
        // An entry id starts with its operation's: a start that ends inside it names the operation.
        if (entry.entryId.startsWith(ref) && ref.length > operation.length) names.add(entry.entryId);
        if (operation.startsWith(ref)) names.add(operation);
        if (entry.id.startsWith(ref)) names.add(entry.id);
      }
    if (names.size === 1) return byName([...names][0]!)!;
    if (names.size > 1) {
      const shown = [...names].slice(0, 5);
      return `"${ref}" starts ${names.size} names in the trash: ${shown.join(", ")}${names.size > shown.length ? ", …" : ""}; give more of it`;
    }
    return `nothing in the trash is called ${ref} (give an operation id, an entry id, a session id, or at least ${MIN_REF_PREFIX} characters of one)`;
  };
  return (ref) => byName(ref) ?? byPrefix(ref);
}

/** What is in the trash now: counted and weighed as a purge would (only entries `in-trash`). */
export function trashTotals(entries: readonly TrashEntry[]): { count: number; bytes: number } {
  let count = 0;
  let bytes = 0;
  for (const entry of entries.filter(inTrash)) {
    count++;
    bytes += entry.sizeBytes;
  }
  return { count, bytes };
}

/**
 * What "empty items older than N days" purges: what is in the trash and was deleted before
 * `cutoff`. An entry whose time cannot be read is never taken — a purge is for good.
 */
export function deletedBefore(entries: readonly TrashEntry[], cutoff: Date): TrashEntry[] {
  return entries.filter((e) => inTrash(e) && Date.parse(e.deletedAt) < cutoff.getTime());
}

/** One cleanup as the Trash page shows it: one delete operation and what is left of it. */
export interface TrashGroup {
  operationId: string;
  /** When it ran: its first entry's time. */
  deletedAt: string;
  /** Its entries still worth showing (not restored, not purged), in the order they moved. */
  entries: TrashEntry[];
  /** What of it is in the trash now (what "Restore this cleanup" brings back). */
  inTrash: { count: number; bytes: number };
  trigger?: CleanupTrigger;
}

/** Entries a restore or purge has finished with: history, not what the trash holds. */
const settled = (entry: TrashEntry) => entry.state === "restored" || entry.state === "purged";

/**
 * The trash by cleanup, newest first: each delete operation is one group. Groups with nothing left
 * to show (all restored or purged) are left out.
 */
export function groupByCleanup(
  entries: readonly TrashEntry[],
  triggers: readonly CleanupTrigger[] = [],
): TrashGroup[] {
  const byOperation = new Map<string, TrashEntry[]>();
  for (const entry of entries) {
    if (settled(entry)) continue;
    const operation = operationOf(entry.entryId);
    const list = byOperation.get(operation);
    if (list) list.push(entry);
    else byOperation.set(operation, [entry]);
  }
  const triggerOf = new Map(triggers.map((t) => [t.operationId, t]));
  const groups = [...byOperation].map(([operationId, list]): TrashGroup => {
    const trigger = triggerOf.get(operationId);
    return {
      operationId,
      deletedAt: list.reduce((first, e) => (e.deletedAt < first ? e.deletedAt : first), list[0]!.deletedAt),
      entries: list,
      inTrash: trashTotals(list),
      ...(trigger ? { trigger } : {}),
    };
  });
  return groups.sort((a, b) => Date.parse(b.deletedAt) - Date.parse(a.deletedAt));
}

const ACTORS = { cli: "the CLI", ui: "the dashboard", extension: "pi", auto: "an automatic run" } as const;

/** "auto-clean", "a clean from the dashboard" — or undefined when the audit log does not say. */
export function describeTrigger(trigger: CleanupTrigger | undefined): string | undefined {
  if (!trigger) return undefined;
  if (trigger.action === "auto-clean" || trigger.actor === "auto") return "auto-clean";
  return `a clean from ${ACTORS[trigger.actor]}`;
}

/** Each operation's trigger, from the audit log's soft deletes and auto-cleans (the last entry wins). */
export function cleanupTriggers(
  audit: readonly { operationId?: string; actor: CleanupTrigger["actor"]; action: string }[],
): CleanupTrigger[] {
  const found = new Map<string, CleanupTrigger>();
  for (const { operationId, actor, action } of audit)
    if (operationId && (action === "soft-delete" || action === "auto-clean"))
      found.set(operationId, { operationId, actor, action });
  return [...found.values()];
}
