// Manual pins (`session-retention protect`): session ids in <stateDir>/protected.json. By id, so a pin
// survives a rename or a move of the file. Changes are atomic and serialised by a lock, so two
// processes pinning at once both land.
import { z } from "zod";
import type { AuditEntry } from "../../shared/audit.js";
import { UserError } from "../errors.js";
import { appendAudit } from "./audit-log.js";
import { writePrivateFile } from "../fs/private-files.js";
import { type StatePaths, statePaths } from "./state-dir.js";
import { withLock } from "../fs/lock-file.js";
import { readSmallTextFile, UnreadableFileError } from "../fs/read-small-file.js";

/** ~250 bytes a pin: room for some 250,000 pins, and a bound on what a broken file can cost. */
const MAX_BYTES = 64 * 1024 * 1024;

const PinSchema = z.object({
  id: z.string().min(1),
  /** Where the session was when it was pinned: shown if the id is no longer found. */
  path: z.string(),
  pinnedAt: z.iso.datetime({ offset: true }),
});
export type Pin = z.infer<typeof PinSchema>;

const ProtectionListSchema = z.object({ version: z.literal(1), pins: z.array(PinSchema) });

/**
 * The list cannot be read. Never treated as "no pins": that would make pinned sessions deletable.
 * Commands that delete refuse to run until it is fixed.
 */
export class ProtectionListError extends UserError {
  override name = "ProtectionListError";
}

export function readPins(file: string): Pin[] {
  let text: string;
  try {
    text = readSmallTextFile(file, { maxBytes: MAX_BYTES, what: "protection list" });
  } catch (error) {
    if (!(error instanceof UnreadableFileError)) throw error;
    if (error.code === "ENOENT") return [];
    throw new ProtectionListError(`${error.message}; fix or remove it`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new ProtectionListError(
      `${file} is not valid JSON (${(error as Error).message}); fix or remove it`,
    );
  }
  const parsed = ProtectionListSchema.safeParse(raw);
  if (!parsed.success)
    throw new ProtectionListError(
      `${file} is not a protection list (${parsed.error.issues[0]?.message}); fix or remove it`,
    );
  return parsed.data.pins;
}

export const pinnedIds = (pins: readonly Pin[]) => new Set(pins.map((pin) => pin.id));

function update<T>(file: string, change: (pins: Pin[]) => T): T {
  return withLock(`${file}.lock`, () => {
    const pins = readPins(file);
    const result = change(pins);
    writePrivateFile(file, `${JSON.stringify({ version: 1, pins }, null, 2)}\n`);
    return result;
  });
}

/** Pins sessions; returns the ones that were not pinned before. */
export function addPins(file: string, sessions: readonly { id: string; path: string }[], now = new Date()) {
  return update(file, (pins) => {
    const known = pinnedIds(pins);
    const added = [];
    for (const s of sessions) {
      if (known.has(s.id)) continue;
      known.add(s.id);
      added.push(s);
      pins.push({ id: s.id, path: s.path, pinnedAt: now.toISOString() });
    }
    return added;
  });
}

/** Unpins sessions by id; returns the ids that were pinned. */
export function removePins(file: string, ids: readonly string[]) {
  return update(file, (pins) => {
    const wanted = new Set(ids);
    const removed = pins.filter((pin) => wanted.has(pin.id)).map((pin) => pin.id);
    pins.splice(0, pins.length, ...pins.filter((pin) => !wanted.has(pin.id)));
    return removed;
  });
}

/**
 * Pins or unpins sessions and audits the change: the one way the CLI, the dashboard and the
 * extension change protection. Returns what changed and what already was as asked. It holds the
 * deletion lock: a pin made while a deletion runs would not be seen by it, so it waits its turn
 * (LockedError: try again) instead of seeming to protect a session that is being moved.
 */
export function setProtection(
  targets: ReadonlyArray<{ id: string; path: string }>,
  protect: boolean,
  actor: AuditEntry["actor"],
  paths: Pick<StatePaths, "protectedList" | "auditLog" | "deletionLock"> = statePaths(),
) {
  return withLock(paths.deletionLock, () => changeProtection(targets, protect, actor, paths));
}

function changeProtection(
  targets: ReadonlyArray<{ id: string; path: string }>,
  protect: boolean,
  actor: AuditEntry["actor"],
  paths: Pick<StatePaths, "protectedList" | "auditLog">,
) {
  const changed = protect
    ? addPins(paths.protectedList, targets)
    : (() => {
        const removed = new Set(
          removePins(
            paths.protectedList,
            targets.map((t) => t.id),
          ),
        );
        return targets.filter((t) => removed.has(t.id));
      })();
  const unchanged = targets.filter((t) => !changed.includes(t));
  if (changed.length > 0)
    appendAudit(paths.auditLog, {
      time: new Date().toISOString(),
      actor,
      action: protect ? "protect" : "unprotect",
      items: changed.map((t) => ({ id: t.id, path: t.path, result: protect ? "protected" : "unprotected" })),
      result: "ok",
    });
  return { changed, unchanged };
}
