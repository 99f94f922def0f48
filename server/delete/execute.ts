// Carrying out a deletion's plan (decide.ts), under the deletion lock: the places judged again, then
// batch by batch every item's intent journaled and synced before anything of it moves, the last look
// that it is still the very file the plan saw, the move — renamed into the trash, or handed over to
// its agent's own delete (handover.ts) — verified and recorded, then the agents' checks and the audit.
import { randomUUID } from "node:crypto";
import { rmSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { AuditEntry, AuditItem } from "../../shared/audit.js";
import { isFolderSession } from "../../shared/session-record.js";
import { sessionTitle } from "../../shared/session-title.js";
import { type SoftDeleteResult, STOPPED_REASON, type TrashItem } from "../../shared/trash.js";
import { UserError } from "../errors.js";
import { checkPlaces } from "../safety/place-gate.js";
import { appendAudit } from "../state/audit-log.js";
import { Ledger, newOperationId } from "../state/journal.js";
import type { Custody } from "../stores/adapter-types.js";
import { withBundle } from "../stores/bundle.js";
import { adapterOf } from "../stores/store-adapter.js";
import { isSessionPlace } from "../stores/session-place.js";
import { agentChecks, checkNote, checksDetail } from "./agent-checks.js";
import type { DeletePlan, DeleteRequest, MoveTarget, PlannedItem } from "./decide.js";
import type { EngineOptions, EngineState } from "./engine.js";
import { Bystanders, handOver } from "./handover.js";
import {
  currentFingerprint,
  moveFile,
  moveToSystemTrash,
  pathExists,
  type TrashMoveOutcome,
  unchanged,
} from "./movers.js";
import { reportLost, reportTaken } from "./taken-along.js";
import { identityAfterMove, moveBack, realFolder } from "./trashed-copy.js";

/** How many intents are made durable with one fsync before their files move. */
const BATCH = 64;

/**
 * How a caller follows and stops a run (the dashboard's operations; the CLI's progress line).
 * Stopping means "after the current item": the engine asks between items, never during one, so an
 * item is moved whole or not at all, and every journal guarantee stays as it is.
 */
export interface DeleteControl {
  /** Items handled (moved or skipped) of those chosen; called before the first and after each. */
  onProgress?: (progress: { done: number; total: number }) => void;
  /** Asked between items: true stops the run there. */
  stopRequested?: () => boolean;
}

/** What carrying a plan out needs beside the plan. */
export interface ExecuteContext {
  state: EngineState;
  options: EngineOptions;
  request: Pick<DeleteRequest, "via" | "dryRun">;
  /** The stores the places are judged for. */
  stores: ReadonlyArray<{ kind: MoveTarget["store"]["kind"]; root: string }>;
  /** The move check, asked again when a move fails: why the item cannot move whole now, if so. */
  cannotMove: (target: MoveTarget) => string | undefined;
  /** The time the plan was decided at: the operation is named by it. */
  now: Date;
  control?: DeleteControl;
}

/** An item as it is journaled, with its place in the operation and what its move needs. */
type Item = TrashItem & { seq: number; planned: PlannedItem };

/** Lets the event loop answer (a status request, a stop) between two items of a run that is followed. */
const breathe = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Whether every fork reading from an item moved in this operation. */
const forksMoved = (planned: PlannedItem, result: SoftDeleteResult) =>
  planned.forks.every((id) => result.moved.some((m) => m.id === id));

/**
 * The files that move with a session, and where each goes in its operation's quarantine folder:
 * pi's session-index file, and the rest of a bundle (kept by their path below the store root, so
 * two side folders both named after the session never collide).
 */
function sidecarsOf(record: MoveTarget, folder: string): TrashItem["sidecars"] {
  const paths = [...(record.metaFile ? [record.metaFile] : []), ...(record.bundle ?? [])];
  const root = `${record.store.root}/`;
  return paths
    .filter((path) => pathExists(path))
    .map((from) => ({
      from,
      to: join(folder, from.startsWith(root) ? from.slice(root.length) : basename(from)),
    }));
}

/**
 * Whether a session and every part of its bundle are where their store keeps sessions, with no
 * symlink on the way. The scan found them there; this holds it again at the moment of the move,
 * whatever was swapped in since.
 */
function atSessionPlace(target: MoveTarget): boolean {
  const { kind, root } = target.store;
  return [target.path, ...(target.bundle ?? [])].every(
    (path) => isSessionPlace(kind, root, path) && realFolder(dirname(path)),
  );
}

/** Carries `plan` out (the caller holds the deletion lock). */
export async function executePlan(plan: DeletePlan, context: ExecuteContext): Promise<SoftDeleteResult> {
  const { state, request, control = {} } = context;
  const result: SoftDeleteResult = {
    dryRun: !!request.dryRun,
    moved: [],
    skipped: [...plan.skipped],
    bytesFreed: 0,
  };
  const report = (outcome: AuditEntry["result"], detail?: string) =>
    audit(context, plan, result, outcome, detail);
  if (plan.refused) {
    report("refused", plan.refused);
    return { ...result, refused: plan.refused };
  }
  if (request.dryRun || plan.items.length === 0) {
    for (const { record } of plan.items) {
      result.moved.push({
        id: record.id,
        path: record.path,
        title: sessionTitle(record).title,
        bytes: record.sizeBytes,
        destination: "(dry run)",
        target: "quarantine",
      });
      reportTaken(result, record.id, plan.taken.get(record.id), () => "(dry run)");
    }
    if (request.dryRun) report("dry-run");
    return result;
  }
  const { config } = plan;
  // The places, judged again now that they are about to be used: a symlink may have changed.
  const places = checkPlaces(
    context.stores.map((s) => ({ ...s, label: `${s.kind} store` })),
    {
      env: state.env,
      ...(config.deletion.quarantineDir !== null ? { quarantine: config.deletion.quarantineDir } : {}),
    },
  );
  const { now } = context;
  const operationId = newOperationId(now);
  result.operationId = operationId;
  const quarantine = join(places.quarantine, operationId);
  const ledger = Ledger.create(state.ledgerDir, operationId, context.options.ledgerWrite);
  const bystanders = new Bystanders(plan.bystanders);
  /** Where each part of an item goes: a session taken into another's item is reported there. */
  const destinations = new Map<string, string>();
  const total = plan.items.length;
  let done = 0;
  const followed = control.onProgress !== undefined || control.stopRequested !== undefined;
  const stopping = () => control.stopRequested?.() ?? false;
  /** After one item is handled: say so, and let a status request or a stop be heard. */
  const handled = async () => {
    done += 1;
    control.onProgress?.({ done, total });
    if (followed) await breathe();
  };
  const stoppedFrom = (start: number) => {
    for (const { record } of plan.items.slice(start))
      result.skipped.push({ id: record.id, path: record.path, reason: STOPPED_REASON });
  };
  control.onProgress?.({ done, total });
  try {
    for (let start = 0; start < total; start += BATCH) {
      // Stopped between batches: the rest never got an intent, so they simply stay.
      if (stopping()) {
        stoppedFrom(start);
        result.stopped = { after: done, of: total };
        // Stopped before the first intent: nothing moved, no operation, no stray ledger.
        if (start === 0) {
          ledger.close();
          rmSync(ledger.file, { force: true });
          delete result.operationId;
        }
        break;
      }
      const batch = plan.items
        .slice(start, start + BATCH)
        .map((planned, i) => intentOf(planned, start + i + 1, quarantine, now));
      for (const s of batch.flatMap((item) => item.sidecars)) destinations.set(s.from, s.to);
      try {
        ledger.append(batch.map(({ seq, planned: _, ...item }) => ({ seq, event: "intent" as const, item })));
        state.crash("intents-written");
        ledger.sync();
      } catch (error) {
        // No intent, no move. A ledger that never got a whole intent is removed, so nothing stray is left.
        if (start === 0) {
          ledger.close();
          rmSync(ledger.file, { force: true });
        }
        throw new UserError(
          `could not write the deletion journal (${(error as Error).message}); ${start === 0 ? "nothing was moved" : `${result.moved.length} sessions were moved before it`}`,
          { cause: error },
        );
      }
      state.crash("intents-synced");
      const ready = batch.flatMap((item) => {
        const ownSize = readyToMove(item, ledger, result);
        if (ownSize === false) done += 1;
        return ownSize === false ? [] : [{ item, ownSize }];
      });
      // The desktop trash takes the batch in one call; the quarantine, one rename each.
      const toTrash = ready.filter(({ item }) => item.target === "system-trash");
      const outcomes = await moveToSystemTrash(
        toTrash.map(({ item, ownSize }) => ({
          path: item.originalPath,
          sizeBytes: ownSize,
          folder: isFolderSession(item),
          ...(item.trashName ? { name: item.trashName } : {}),
        })),
        state.env,
      );
      const trashed = new Map(toTrash.map(({ item }, i) => [item.seq, outcomes[i]!]));
      for (const { item, ownSize } of ready) {
        const outcome = trashed.get(item.seq);
        // Stopped mid-batch: an item the desktop trash already took is recorded as moved (it is
        // in the trash); every other one closes its intent as not moved and stays where it is.
        if (stopping() && !(outcome && "location" in outcome)) {
          notMoved(item, STOPPED_REASON, ledger, result);
          result.stopped ??= { after: done, of: total };
          continue;
        }
        const custody = item.planned.mover === "agent" ? adapterOf(item.storeKind).custody : undefined;
        if (custody && !forksMoved(item.planned, result))
          notMoved(
            item,
            "a fork that reads its history from it was not moved; it stays while the fork exists",
            ledger,
            result,
          );
        else if (custody) settleHandedOver(item, ownSize, custody, ledger, result, state, bystanders);
        else
          settle(item, ownSize, outcome, quarantine, ledger, result, state, () =>
            // Asked afresh, now that every part is back: the preview's check, on today's facts.
            context.cannotMove(item.planned.record),
          );
        await handled();
      }
      ledger.sync();
      if (result.stopped) {
        stoppedFrom(start + BATCH);
        break;
      }
    }
  } finally {
    if (pathExists(ledger.file)) ledger.close();
  }
  for (const [id, along] of plan.taken) reportTaken(result, id, along, (path) => destinations.get(path));
  // Each store something left, checked by its agent's own look.
  const moved = new Set(result.moved.map((m) => m.id));
  const checks = await agentChecks(
    plan.items.filter((p) => moved.has(p.record.id)).map((p) => p.record.store),
    state.env,
  );
  if (checks.length > 0) {
    result.checks = checks;
    result.notes = [...(result.notes ?? []), ...checks.map(checkNote)];
  }
  report(result.skipped.length > 0 ? "partial" : "ok");
  return result;
}

/** A planned item's intent: what is journaled before anything of it moves. */
function intentOf(planned: PlannedItem, seq: number, quarantine: string, now: Date): Item {
  const { record, fingerprint, target } = planned;
  const custody = planned.mover === "agent" ? adapterOf(record.store.kind).custody : undefined;
  return {
    seq,
    planned,
    id: record.id,
    originalPath: record.path,
    title: sessionTitle(record).title,
    namespace: record.namespace,
    storeRoot: record.store.root,
    storeKind: record.store.kind,
    ...(record.folder ? { folder: true } : {}),
    sizeBytes: record.sizeBytes,
    fingerprint,
    ...(target === "quarantine"
      ? { target, location: join(quarantine, `${seq}-${basename(record.path)}`) }
      : // Its name in the home trash, journaled with the intent (see moveToHomeTrash).
        { target, trashName: randomUUID() }),
    sidecars: sidecarsOf(record, join(quarantine, `${seq}.sidecars`)),
    ...(custody ? { indexLines: custody.indexLines(record) } : {}),
    deletedAt: now.toISOString(),
  };
}

/** Closes an item's intent as not moved, said why. */
function notMoved(item: Item, reason: string, ledger: Ledger, result: SoftDeleteResult) {
  ledger.append([{ seq: item.seq, event: "not-moved", reason }]);
  result.skipped.push({ id: item.id, path: item.originalPath, reason });
}

/**
 * The last look before the move: the item is where its store keeps sessions, and the very file
 * (device, inode, size, mtime ns; not a symlink) the preview showed — with its whole bundle, if it
 * has one. Returns the size of its own file or folder (what its move is checked against), or false
 * when it stays, said why.
 */
function readyToMove(item: Item, ledger: Ledger, result: SoftDeleteResult): number | false {
  const { record } = item.planned;
  const skip = (reason: string): false => {
    notMoved(item, reason, ledger, result);
    return false;
  };
  if (!item.id.startsWith("meta:") && !atSessionPlace(record))
    return skip("not where its store keeps sessions any more (a folder on its way became a symlink?)");
  const own = currentFingerprint(item.originalPath, isFolderSession(item));
  const whole = own && record.bundle?.length ? withBundle(own, record.bundle) : own;
  if (!own || !unchanged(item.fingerprint, whole)) return skip("changed since preview");
  return own.size;
}

/** An item as the result lists it once it moved. */
function recordMoved(item: Item, destination: string, target: TrashItem["target"], result: SoftDeleteResult) {
  result.moved.push({
    id: item.id,
    path: item.originalPath,
    ...(item.title !== undefined ? { title: item.title } : {}),
    bytes: item.sizeBytes,
    destination,
    target,
  });
  result.bytesFreed += item.sizeBytes;
}

/** The item as journaled, without what only this run needs. */
const journaled = ({ seq: _seq, planned: _planned, ...item }: Item): TrashItem => item;

/**
 * Moves one item (to the quarantine; the desktop trash has had its batch: `trashed` is its outcome),
 * verifies where it went, moves its sidecars and records the outcome. Whole or not at all: when a
 * step fails, what had moved goes back and the intent is closed as not moved, said why (`explain`:
 * the check the preview made, asked again). Only when even that fails — or the copy cannot be
 * found — is the intent left open, for recovery to resolve from the disk.
 */
function settle(
  item: Item,
  ownSize: number,
  trashed: TrashMoveOutcome | undefined,
  quarantine: string,
  ledger: Ledger,
  result: SoftDeleteResult,
  state: EngineState,
  explain: () => string | undefined,
) {
  const { seq } = item;
  /** Where the item's own file or folder is once it has moved (unknown: a trash that lost it). */
  let location: string | undefined;
  let trashInfo: string | undefined;
  let copiedHash: string | undefined;
  let target = item.target;
  let lost = false;
  try {
    if (trashed && "location" in trashed) ({ location, trashInfo } = trashed);
    else if (trashed) {
      lost = !pathExists(item.originalPath);
      if (lost) throw trashed.error;
      // The system trash is not usable here (no home trash, a mount's top dir not writable, a
      // name it cannot encode): the quarantine takes the file instead, under a new intent.
      target = "quarantine";
      const to = join(quarantine, `${seq}-${basename(item.originalPath)}`);
      ledger.append([{ seq, event: "intent", item: { ...journaled(item), target, location: to } }]);
      ledger.sync();
      copiedHash = moveFile(item.originalPath, to).sha256;
      location = to;
    } else {
      copiedHash = moveFile(item.originalPath, item.location!).sha256;
      location = item.location!;
    }
    state.crash("moved");
    const identity = identityAfterMove(location, item, copiedHash);
    if (identity.identity?.size !== ownSize)
      throw new Error(`the moved copy at ${location} has the wrong size`);
    // A bundle moves part by part: a crash between two leaves the session half moved, and its open
    // intent lets recovery finish the move (the transcript is in the trash) or undo it.
    for (const sidecar of item.sidecars) {
      moveFile(sidecar.from, sidecar.to);
      state.crash("sidecar-moved");
    }
    ledger.append([{ seq, event: "moved", location, ...(trashInfo ? { trashInfo } : {}), ...identity }]);
    state.crash("recorded");
  } catch (error) {
    const failed = (error as Error).message;
    let reason = `move failed: ${failed}`;
    if (!lost)
      try {
        moveBack({ ...journaled(item), target }, location, trashInfo);
        reason = `not moved: ${explain() ?? failed}; every part of it is where it was`;
        ledger.append([{ seq, event: "not-moved", reason }]);
      } catch (undo) {
        // Left open: recovery finishes or undoes it from what is on disk.
        reason = `move failed: ${failed}; putting back what had moved failed too (${(undo as Error).message}): recovery will resolve it`;
      }
    result.skipped.push({ id: item.id, path: item.originalPath, reason });
    return;
  }
  recordMoved(item, location, target, result);
}

/**
 * An item its agent deletes: our hard links, the agent's own delete, then the look at what is left
 * (handover.ts). What the agent left is said in the result's notes; a delete the agent refused
 * leaves the session in place, skipped with the agent's words.
 */
function settleHandedOver(
  item: Item,
  ownSize: number,
  custody: Custody,
  ledger: Ledger,
  result: SoftDeleteResult,
  state: EngineState,
  bystanders: Bystanders,
) {
  let outcome: ReturnType<typeof handOver>;
  try {
    outcome = handOver(journaled(item), custody, state.env, state.crash, bystanders);
  } catch (error) {
    // Left to recovery, which judges from the disk whether the agent deleted anything.
    result.skipped.push({
      id: item.id,
      path: item.originalPath,
      reason: `move failed: ${(error as Error).message}`,
    });
    return;
  }
  reportLost(result, item.id, outcome.vanished);
  if (!outcome.moved) return notMoved(item, outcome.reason, ledger, result);
  const identity = identityAfterMove(item.location!, item);
  if (identity.identity?.size !== ownSize)
    outcome.notes.push(`the copy at ${item.location} has the wrong size; kept as it is`);
  ledger.append([{ seq: item.seq, event: "moved", location: item.location!, ...identity }]);
  state.crash("recorded");
  if (outcome.notes.length > 0)
    result.notes = [...(result.notes ?? []), ...outcome.notes.map((n) => `${item.id}: ${n}`)];
  recordMoved(item, item.location!, "quarantine", result);
}

/** The operation's entry in the audit log. */
function audit(
  { state, options, request }: ExecuteContext,
  plan: DeletePlan,
  result: SoftDeleteResult,
  outcome: AuditEntry["result"],
  detail?: string,
) {
  const items: AuditItem[] = [
    ...result.moved.map((m) => ({
      id: m.id,
      path: m.path,
      ...(m.title !== undefined ? { title: m.title } : {}),
      bytes: m.bytes,
      destination: m.destination,
      result: request.dryRun ? "would-move" : "moved",
    })),
    ...result.skipped.map((s) => ({ id: s.id, path: s.path ?? "", result: "skipped", reason: s.reason })),
    ...(result.lost ?? []).map((l) => ({ id: l.id, path: l.path, result: "lost", reason: l.reason })),
  ];
  appendAudit(state.paths.auditLog, {
    time: state.now().toISOString(),
    actor: options.actor,
    action: request.via === "auto-clean" ? "auto-clean" : "soft-delete",
    mode: request.dryRun
      ? "dry-run"
      : plan.config.deletion.target === "trash"
        ? "system-trash"
        : "quarantine",
    ...(result.operationId ? { operationId: result.operationId } : {}),
    items,
    bytes: result.bytesFreed,
    result: result.lost?.length ? "failed" : outcome,
    detail: result.lost?.length
      ? `LOST: ${result.lost.length} session(s) outside the selection were gone after an agent's own delete (via ${request.via})`
      : (detail ?? `via ${request.via}`) + checksDetail(result.checks),
  });
}
