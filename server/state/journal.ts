// The journal every operation of the engine writes (the trash ledger): one append-only JSON-lines
// file per operation in <stateDir>/trash/. Each line is an event for one item (by its number in the
// operation): the intent before a move — away, back, or out of the trash for good — and the outcome
// after it, each made durable before the next step. It is both the crash journal — an intent
// without an outcome is open, and recovery.ts finishes or undoes it on the next start from what is
// on disk — and the index of what is in the trash. It is our own file, so it sits in state/: delete/
// writes it, and plan/ reads it too (a file re-created at the path of a trashed session is not a
// candidate).
import {
  closeSync,
  fstatSync,
  fsyncSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  writeSync,
} from "node:fs";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { z } from "zod";
import {
  entryIdOf,
  parseEntryId,
  type TrashEntry,
  type TrashItem,
  TrashItemSchema,
  type TrashState,
} from "../../shared/trash.js";
import { fsyncDir } from "../fs/atomic-write.js";
import { ensurePrivateDir } from "../fs/private-files.js";

const at = z.string();
export const LedgerEventSchema = z.discriminatedUnion("event", [
  z.object({ seq: z.number().int(), event: z.literal("intent"), item: TrashItemSchema, at }),
  z.object({
    seq: z.number().int(),
    event: z.literal("moved"),
    location: z.string(),
    trashInfo: z.string().optional(),
    /** The trashed copy just after the move; see TrashItem. */
    identity: TrashItemSchema.shape.trashedIdentity,
    sha256: z.string().optional(),
    at,
  }),
  z.object({ seq: z.number().int(), event: z.literal("not-moved"), reason: z.string(), at }),
  z.object({ seq: z.number().int(), event: z.literal("restore-intent"), at }),
  z.object({ seq: z.number().int(), event: z.literal("restored"), at }),
  z.object({ seq: z.number().int(), event: z.literal("purge-intent"), at }),
  z.object({ seq: z.number().int(), event: z.literal("purged"), at }),
  /** A restore or purge that did not happen: the item is still in the trash. */
  z.object({ seq: z.number().int(), event: z.literal("in-trash"), reason: z.string(), at }),
  /**
   * Recovery could not settle it, or found both copies: reported, never guessed. Where its copy is
   * (when it is somewhere in the trash), so that a restore can put every part back once it can.
   */
  z.object({
    seq: z.number().int(),
    event: z.literal("conflict"),
    reason: z.string(),
    location: z.string().optional(),
    trashInfo: z.string().optional(),
    identity: TrashItemSchema.shape.trashedIdentity,
    sha256: z.string().optional(),
    at,
  }),
  /** The trashed copy was not found where we put it. */
  z.object({ seq: z.number().int(), event: z.literal("gone"), reason: z.string(), at }),
]);
export type LedgerEvent = z.infer<typeof LedgerEventSchema>;

/** Event payloads without the timestamp, which `append` adds. */
type NewEvent = LedgerEvent extends infer E ? (E extends LedgerEvent ? Omit<E, "at"> : never) : never;

const STATE_AFTER: Record<LedgerEvent["event"], TrashState> = {
  intent: "moving",
  moved: "in-trash",
  "not-moved": "not-moved",
  "restore-intent": "restoring",
  restored: "restored",
  "purge-intent": "purging",
  purged: "purged",
  "in-trash": "in-trash",
  conflict: "conflict",
  gone: "gone",
};

/** States an intent leaves until its outcome is written: what recovery must resolve. */
const OPEN_STATES: ReadonlySet<TrashState> = new Set(["moving", "restoring", "purging"]);

/** Whether an entry's last event is an intent with no outcome (a crash, or a step under way). */
export const isOpen = (entry: TrashEntry): boolean => OPEN_STATES.has(entry.state);

/** `20261122T170102Z-3f9a1c`: sorts by time, unique across processes. */
export function newOperationId(now = new Date()): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
  return `${stamp}-${randomBytes(3).toString("hex")}`;
}

/** How lines reach the file; tests inject a full disk here. */
export type LedgerWrite = (fd: number, text: string) => unknown;

export class Ledger {
  private constructor(
    readonly file: string,
    readonly operationId: string,
    private readonly fd: number,
    private readonly write: LedgerWrite,
  ) {}

  /** A new operation's ledger, created exclusively and made durable with its folder. */
  static create(dir: string, operationId: string, write: LedgerWrite = writeSync): Ledger {
    ensurePrivateDir(dir);
    const file = join(dir, `${operationId}.jsonl`);
    const fd = openSync(file, "wx", 0o600);
    fsyncSync(fd);
    fsyncDir(dir);
    return new Ledger(file, operationId, fd, write);
  }

  /**
   * An existing operation's ledger, to record restores, purges and recoveries. A kill in the middle
   * of a large write (a batch of intents) can leave its last line torn, without its newline: the
   * line is ended first, so that what is appended now is a line of its own, not glued to the torn
   * one and lost with it (the torn line stays, counted as unreadable).
   */
  static reopen(dir: string, operationId: string): Ledger {
    const file = join(dir, `${operationId}.jsonl`);
    const fd = openSync(file, "a+");
    try {
      const { size } = fstatSync(fd);
      const last = Buffer.alloc(1);
      if (size > 0 && readSync(fd, last, 0, 1, size - 1) === 1 && last[0] !== 0x0a) writeSync(fd, "\n");
    } catch (error) {
      closeSync(fd);
      throw error;
    }
    return new Ledger(file, operationId, fd, writeSync);
  }

  /** Writes events; durable only after `sync()` (fsync is batched per bulk operation). */
  append(events: readonly NewEvent[], now = new Date()): void {
    if (events.length === 0) return;
    const text = events.map((e) => `${JSON.stringify({ ...e, at: now.toISOString() })}\n`).join("");
    this.write(this.fd, text);
  }

  sync(): void {
    fsyncSync(this.fd);
  }

  close(): void {
    closeSync(this.fd);
  }
}

/**
 * One step on an entry already journaled (a restore, a purge): its operation's ledger opened for
 * it, with the entry's number in it, and closed afterwards whatever happens.
 */
export function withEntryLedger<T>(
  dir: string,
  entryId: string,
  step: (ledger: Ledger, seq: number) => T,
): T {
  const { operationId, seq } = parseEntryId(entryId)!;
  const ledger = Ledger.reopen(dir, operationId);
  try {
    return step(ledger, seq);
  } finally {
    ledger.close();
  }
}

export interface LedgerRead {
  entries: TrashEntry[];
  /** Lines that could not be read: a line torn by a crash, or a hand edit. */
  unreadableLines: number;
}

/**
 * Every item of every operation — or of the one `operationId` names — in its latest state, oldest
 * operation first.
 */
export function readLedgers(dir: string, operationId?: string): LedgerRead {
  let names: string[];
  try {
    names = readdirSync(dir)
      .filter((name) => name.endsWith(".jsonl"))
      .filter((name) => operationId === undefined || name === `${operationId}.jsonl`)
      .sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { entries: [], unreadableLines: 0 };
    throw error;
  }
  const entries: TrashEntry[] = [];
  let unreadableLines = 0;
  for (const name of names) {
    const operationId = name.slice(0, -".jsonl".length);
    const items = new Map<number, TrashEntry>();
    for (const line of readFileSync(join(dir, name), "utf8").split("\n")) {
      if (!line) continue;
      let event: LedgerEvent;
      try {
        event = LedgerEventSchema.parse(JSON.parse(line));
      } catch {
        unreadableLines++;
        continue;
      }
      const entry = items.get(event.seq);
      if (event.event === "intent") {
        items.set(event.seq, {
          ...event.item,
          entryId: entryIdOf(operationId, event.seq),
          state: "moving",
          updatedAt: event.at,
        });
        continue;
      }
      if (!entry) {
        unreadableLines++;
        continue;
      }
      entry.state = STATE_AFTER[event.event];
      entry.updatedAt = event.at;
      if (event.event === "moved" || (event.event === "conflict" && event.location)) {
        entry.location = event.location;
        if (event.trashInfo) entry.trashInfo = event.trashInfo;
        if (event.identity) entry.trashedIdentity = event.identity;
        if (event.sha256) entry.sha256 = event.sha256;
      }
      if ("reason" in event) entry.reason = event.reason;
      else delete entry.reason;
    }
    entries.push(...items.values());
  }
  return { entries, unreadableLines };
}

export type { TrashItem };
