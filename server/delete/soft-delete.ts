// Soft delete: sessions go to the desktop trash or the quarantine, never away for good. Everything
// is decided under the deletion lock on fresh facts: the config file as it is now, one new scan of
// the stores (ids are resolved against it, never taken as paths), the pins and the live sessions
// as they are now, and the places the gate allows now. Just before each move the file must still be
// the one the preview showed; every move is journaled before it happens and verified after.
import { randomUUID } from "node:crypto";
import { rmSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { AuditEntry, AuditItem } from "../../shared/audit.js";
import type { Config } from "../../shared/config.js";
import { emptiesStore } from "../../shared/policy.js";
import type { ScanReport } from "../../shared/scan-report.js";
import {
  type Fingerprint,
  isFolderSession,
  type SessionRecord,
  type StoreRef,
} from "../../shared/session-record.js";
import { sessionTitle } from "../../shared/session-title.js";
import { type SoftDeleteResult, STOPPED_REASON, type TrashItem } from "../../shared/trash.js";
import { UserError } from "../errors.js";
import { exemptionsOf, gatherPlanInputs, planFor } from "../plan/plan-inputs.js";
import { moveChecker } from "../plan/movable.js";
import { askAgents } from "../plan/agent-takes.js";
import { checkPlaces } from "../safety/place-gate.js";
import { appendAudit } from "../state/audit-log.js";
import { withBundle } from "../stores/bundle.js";
import { isSessionPlace } from "../stores/session-place.js";
import { detachableParts, partStays } from "../stores/detachable.js";
import { ReadOnlyError } from "../config/config-file.js";
import { type EngineOptions, type EngineState, exclusive } from "./engine.js";
import {
  currentFingerprint,
  moveFile,
  moveToSystemTrash,
  pathExists,
  type TrashMoveOutcome,
  unchanged,
} from "./movers.js";
import {
  Bystanders,
  type CodexMoveOutcome,
  codexIndexLines,
  codexPreflight,
  deletedByCodex,
  moveCodexSession,
} from "./codex-move.js";
import { reportLost, reportTaken, takeAgentsAlong } from "./taken-along.js";
import { agentChecks, checkNote, checksDetail } from "./agent-checks.js";
import { recoverLocked } from "./recovery.js";
import { identityAfterMove, moveBack, realFolder } from "./trashed-copy.js";
import { Ledger, newOperationId } from "../state/journal.js";

/** What the engine needs to know about something it moves: a session, or an orphaned index file. */
type MoveTarget = Pick<
  SessionRecord,
  "id" | "path" | "namespace" | "store" | "sizeBytes" | "metaFile" | "bundle" | "folder"
>;

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

/** How far down a chain of forks reading from it a session is: it moves after all of them. */
function forkDepth(
  record: MoveTarget,
  byId: ReadonlyMap<string, SessionRecord>,
  seen = new Set<string>(),
): number {
  const needed = byId.get(record.id)?.neededBy ?? [];
  if (needed.length === 0 || seen.has(record.id)) return 0;
  seen.add(record.id);
  return 1 + Math.max(...needed.map((id) => (byId.has(id) ? forkDepth(byId.get(id)!, byId, seen) : 0)));
}

/** Whether every fork reading from a session moved in this operation. */
const forksMoved = (record: SessionRecord | undefined, result: SoftDeleteResult) =>
  (record?.neededBy ?? []).every((id) => result.moved.some((m) => m.id === id));

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

/** Lets the event loop answer (a status request, a stop) between two items of a run that is followed. */
const breathe = () => new Promise<void>((resolve) => setImmediate(resolve));

export interface SoftDeleteRequest {
  /** The sessions to move, each with the fingerprint its preview showed (when there was a preview). */
  items: ReadonlyArray<{ id: string; fingerprint?: Fingerprint }>;
  /** The stores the ids were found in, each with its kind. */
  stores: readonly StoreRef[];
  dryRun?: boolean;
  /** Orphaned pi session-index files (by path, as the plan listed them) to move as well. */
  orphanedMeta?: readonly string[];
  /**
   * What chose the sessions, recorded in the audit log. "policy" and "auto-clean" move only what the
   * policy, evaluated again now, still chooses; "prune" (workspace pruning by age) lifts the keeps
   * that count sessions (the most recent, the last of a namespace, an emptied store).
   */
  via: "policy" | "selection" | "auto-clean" | "prune";
  /**
   * The caller's last look at these stores: the engine's own scan reuses the records of files
   * unchanged since (every file is still looked at). A server has one; without it, a full scan.
   */
  previous?: ScanReport;
}

/** The policy a request is judged by: the config's, with pruning's own rule. */
function policyFor(via: SoftDeleteRequest["via"], config: Config): Config {
  if (via !== "prune") return config;
  return {
    ...config,
    retention: { ...config.retention, minKeepRecentCount: 0, keepLastPerNamespace: 0, allowEmptyStore: true },
  };
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

export async function softDelete(
  request: SoftDeleteRequest,
  options: EngineOptions,
  control: DeleteControl = {},
): Promise<SoftDeleteResult> {
  return exclusive(options, recoverLocked, async (state) => {
    const now = state.now();
    if (request.stores.length === 0) throw new UserError("no store to delete from");
    const inputs = await gatherPlanInputs({
      flagStores: request.stores,
      env: state.env,
      ...(options.config ? { config: options.config } : {}),
      ...(request.previous ? { previous: request.previous } : {}),
    });
    // The config as the file says now (gathered under the lock): an invalid one refuses the deletion.
    if (!inputs.config.ok) throw new ReadOnlyError(inputs.config);
    const config = policyFor(request.via, inputs.config.config);
    const result: SoftDeleteResult = { dryRun: !!request.dryRun, moved: [], skipped: [], bytesFreed: 0 };
    let items = request.items;
    if (request.via === "auto-clean") {
      const { autoClean, dryRun, autoCleanMaxDeletesPerRun } = config.retention;
      if (!autoClean || (dryRun && !request.dryRun)) {
        const refused = `auto-clean is ${autoClean ? "set to dry run" : "off"} in the config now; nothing was moved`;
        audit(state, options, request, config, result, "refused", refused);
        return { ...result, refused };
      }
      items = items.slice(0, autoCleanMaxDeletesPerRun);
    }
    const sessions = inputs.report.sessions;
    const byId = new Map(sessions.map((s) => [s.id, s]));
    // Parts a session lets go on their own (a Gemini resume twin): each an item by its own id.
    const parts = detachableParts(sessions);
    // A hand selection may take a Codex family as one (see forksChosenToo): its forks go first.
    const exempt = exemptionsOf(
      inputs,
      config,
      now,
      request.via === "selection" ? new Set(items.map((i) => i.id)) : undefined,
    );
    const planNow =
      request.via === "policy" || request.via === "auto-clean"
        ? planFor({ ...inputs, config: { ...inputs.config, ok: true, config } }, now)
        : undefined;
    const stillChosen = planNow && new Set(planNow.candidates.map((c) => c.id));
    // What the plan made now leaves out, and why (an agent's own delete that would take more): said
    // as it is, not as a change of the policy's mind.
    const leftOutNow = new Map(
      (planNow?.leftOut ?? []).flatMap((g) => g.sessions.map((x) => [x.id, x.detail ?? g.reason])),
    );
    const chosen: Array<{ record: MoveTarget; fingerprint: Fingerprint }> = [];
    // Whole or not at all: every part must be movable before the item gets an intent (plan/movable.ts,
    // the check the preview made).
    const movable = inputs.moveContext && moveChecker(inputs.moveContext, config.deletion);
    const cannotMove = (target: MoveTarget) => movable?.whyNot(target);
    /** What a Codex session's move needs, found before its intent: Codex's tools. */
    const codex = new Map<string, Exclude<ReturnType<typeof codexPreflight>, string>>();
    for (const { id, fingerprint } of items) {
      const part = parts.get(id);
      const record = byId.get(id) ?? part?.record;
      const why = exempt.get(id) ?? (part && partStays(part, inputs.activeIds));
      if (!record) result.skipped.push({ id, reason: "not found in the store (already gone?)" });
      else if (why) result.skipped.push({ id, path: record.path, reason: `${why.reason}: ${why.detail}` });
      else if (cannotMove(record))
        result.skipped.push({ id, path: record.path, reason: cannotMove(record)! });
      else if (stillChosen && !stillChosen.has(id))
        result.skipped.push({
          id,
          path: record.path,
          reason:
            leftOutNow.get(id) ??
            "no longer chosen by the policy (the config or the sessions changed since the preview)",
        });
      else if (record.warnings.some((w) => w.code === "non-utf8-name"))
        result.skipped.push({
          id,
          path: record.path,
          reason: "its file name is not valid UTF-8; rename it first",
        });
      else if (fingerprint && !unchanged(fingerprint, record.fingerprint))
        result.skipped.push({ id, path: record.path, reason: "changed since preview" });
      else if (deletedByCodex(record) && !chosen.some((c) => c.record.id === id)) {
        const duplicate = record.warnings.find((w) => w.code === "duplicate-id");
        const ready = duplicate
          ? `${duplicate.message}: \`codex delete\` could remove the wrong one`
          : codexPreflight(state.env);
        if (typeof ready === "string") result.skipped.push({ id, path: record.path, reason: ready });
        else {
          codex.set(id, ready);
          chosen.push({ record, fingerprint: fingerprint ?? record.fingerprint });
        }
      } else if (!chosen.some((c) => c.record.id === id))
        chosen.push({ record, fingerprint: fingerprint ?? record.fingerprint });
    }
    // Session-index files whose session is gone: only those the fresh scan still finds orphaned.
    const orphans = new Map((inputs.report.orphanedMeta ?? []).map((o) => [o.path, o]));
    for (const path of request.orphanedMeta ?? []) {
      const orphan = orphans.get(path);
      const fingerprint = currentFingerprint(path);
      const record: MoveTarget | undefined = orphan && {
        id: `meta:${orphan.sessionId}`,
        path,
        namespace: "(pi session index)",
        store: { kind: "pi", root: dirname(path) },
        sizeBytes: orphan.sizeBytes,
      };
      if (!record || !fingerprint)
        result.skipped.push({
          id: `meta:${basename(path)}`,
          path,
          reason: "not an orphaned session-index file (any more)",
        });
      else if (cannotMove(record)) result.skipped.push({ id: record.id, path, reason: cannotMove(record)! });
      else chosen.push({ record, fingerprint });
    }
    // What an agent's own delete takes with a session: into its item, or the session is refused.
    const taken = takeAgentsAlong(
      chosen,
      inputs.report,
      inputs.agentAnswers ?? (await askAgents(inputs.report, state.env)),
      exempt,
      request.via,
      result,
    );
    for (const record of taken.merged) byId.set(record.id, record);
    // A Codex session whose forks read from it goes after them (see forksChosenToo).
    chosen.sort((a, b) => forkDepth(a.record, byId) - forkDepth(b.record, byId));
    const refusal = emptiesStore(
      sessions,
      new Set([...chosen.map((c) => c.record.id), ...[...taken.taken.values()].flat().map((t) => t.id)]),
      config.retention.allowEmptyStore,
    );
    if (refusal) {
      audit(state, options, request, config, result, "refused", refusal.message);
      return { ...result, refused: refusal.message };
    }
    if (request.dryRun || chosen.length === 0) {
      for (const { record } of chosen) {
        result.moved.push({
          id: record.id,
          path: record.path,
          title: sessionTitle(record).title,
          bytes: record.sizeBytes,
          destination: "(dry run)",
          target: "quarantine",
        });
        reportTaken(result, record.id, taken.taken.get(record.id), () => "(dry run)");
      }
      if (request.dryRun) audit(state, options, request, config, result, "dry-run");
      return result;
    }

    // The places, judged again now that they are about to be used: a symlink may have changed.
    const places = checkPlaces(
      inputs.report.stores.map((s) => ({ ...s, label: `${s.kind} store` })),
      {
        env: state.env,
        ...(config.deletion.quarantineDir !== null ? { quarantine: config.deletion.quarantineDir } : {}),
      },
    );
    const operationId = newOperationId(now);
    result.operationId = operationId;
    const quarantine = join(places.quarantine, operationId);
    const ledger = Ledger.create(state.ledgerDir, operationId, options.ledgerWrite);
    // The look after each agent's own delete: every other session of its store still there.
    const bystanders = new Bystanders(codex.size > 0 ? sessions : []);
    /** Where each part of an item goes: a session taken into another's item is reported there. */
    const destinations = new Map<string, string>();
    const total = chosen.length;
    let done = 0;
    const followed = control.onProgress !== undefined || control.stopRequested !== undefined;
    const stopping = () => control.stopRequested?.() ?? false;
    /** After one item is handled: say so, and let a status request or a stop be heard. */
    const handled = async () => {
      done += 1;
      control.onProgress?.({ done, total });
      if (followed) await breathe();
    };
    control.onProgress?.({ done, total });
    try {
      for (let start = 0; start < chosen.length; start += BATCH) {
        // Stopped between batches: the rest never got an intent, so they simply stay.
        if (stopping()) {
          for (const { record } of chosen.slice(start))
            result.skipped.push({ id: record.id, path: record.path, reason: STOPPED_REASON });
          result.stopped = { after: done, of: total };
          // Stopped before the first intent: nothing moved, no operation, no stray ledger.
          if (start === 0) {
            ledger.close();
            rmSync(ledger.file, { force: true });
            delete result.operationId;
          }
          break;
        }
        const batch = chosen
          .slice(start, start + BATCH)
          .map(({ record, fingerprint }, i): TrashItem & { seq: number } => {
            const seq = start + i + 1;
            return {
              seq,
              id: record.id,
              originalPath: record.path,
              title: sessionTitle(record).title,
              namespace: record.namespace,
              storeRoot: record.store.root,
              storeKind: record.store.kind,
              ...(record.folder ? { folder: true } : {}),
              sizeBytes: record.sizeBytes,
              fingerprint,
              // A Codex session always goes to the quarantine: our copy of it is a hard link (see codex-move.ts).
              ...(config.deletion.target === "quarantine" || record.store.kind === "codex"
                ? {
                    target: "quarantine" as const,
                    location: join(quarantine, `${seq}-${basename(record.path)}`),
                  }
                : // Its name in the home trash, journaled with the intent (see moveToHomeTrash).
                  { target: "system-trash" as const, trashName: randomUUID() }),
              sidecars: sidecarsOf(record, join(quarantine, `${seq}.sidecars`)),
              ...(codex.has(record.id) ? { indexLines: codexIndexLines(record) } : {}),
              deletedAt: now.toISOString(),
            };
          });
        for (const s of batch.flatMap((item) => item.sidecars)) destinations.set(s.from, s.to);
        try {
          ledger.append(batch.map(({ seq, ...item }) => ({ seq, event: "intent" as const, item })));
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
        const ready = batch.flatMap((item, i) => {
          const ownSize = readyToMove(item, chosen[start + i]!.record, ledger, result);
          if (ownSize === false) done += 1;
          return ownSize === false ? [] : [{ ...item, ownSize }];
        });
        // The desktop trash takes the batch in one call; the quarantine, one rename each.
        const toTrash = ready.filter((item) => item.target === "system-trash");
        const outcomes = await moveToSystemTrash(
          toTrash.map((item) => ({
            path: item.originalPath,
            sizeBytes: item.ownSize,
            folder: isFolderSession(item),
            ...(item.trashName ? { name: item.trashName } : {}),
          })),
          state.env,
        );
        const trashed = new Map(toTrash.map((item, i) => [item.seq, outcomes[i]!]));
        for (const { ownSize, ...item } of ready) {
          const outcome = trashed.get(item.seq);
          // Stopped mid-batch: an item the desktop trash already took is recorded as moved (it is
          // in the trash); every other one closes its intent as not moved and stays where it is.
          if (stopping() && !(outcome && "location" in outcome)) {
            ledger.append([{ seq: item.seq, event: "not-moved", reason: STOPPED_REASON }]);
            result.skipped.push({ id: item.id, path: item.originalPath, reason: STOPPED_REASON });
            result.stopped ??= { after: done, of: total };
            continue;
          }
          if (codex.has(item.id) && !forksMoved(byId.get(item.id), result)) {
            const reason =
              "a fork that reads its history from it was not moved; it stays while the fork exists";
            ledger.append([{ seq: item.seq, event: "not-moved", reason }]);
            result.skipped.push({ id: item.id, path: item.originalPath, reason });
          } else if (codex.has(item.id))
            settleCodex(item, ownSize, codex.get(item.id)!.tools, ledger, result, state, bystanders);
          else
            settle(item, ownSize, outcome, quarantine, ledger, result, state, () =>
              // Asked afresh, now that every part is back: the preview's check, on today's facts.
              inputs.moveContext
                ? moveChecker(inputs.moveContext, config.deletion).whyNot(chosen[item.seq - 1]!.record)
                : undefined,
            );
          await handled();
        }
        ledger.sync();
        if (result.stopped) {
          for (const { record } of chosen.slice(start + BATCH))
            result.skipped.push({ id: record.id, path: record.path, reason: STOPPED_REASON });
          break;
        }
      }
    } finally {
      if (pathExists(ledger.file)) ledger.close();
    }
    for (const [id, along] of taken.taken) reportTaken(result, id, along, (path) => destinations.get(path));
    // Each store something left, checked by its agent's own look (Codex: `codex doctor`).
    const moved = new Set(result.moved.map((m) => m.id));
    const checks = await agentChecks(
      chosen.filter((c) => moved.has(c.record.id)).map((c) => c.record.store),
      state.env,
    );
    if (checks.length > 0) {
      result.checks = checks;
      result.notes = [...(result.notes ?? []), ...checks.map(checkNote)];
    }
    audit(state, options, request, config, result, result.skipped.length > 0 ? "partial" : "ok");
    return result;
  });
}

/**
 * The last look before the move: the item is where its store keeps sessions, and the very file
 * (device, inode, size, mtime ns; not a symlink) the preview showed — with its whole bundle, if it
 * has one. Returns the size of its own file or folder (what its move is checked against), or false
 * when it stays, said why.
 */
function readyToMove(
  item: TrashItem & { seq: number },
  record: MoveTarget,
  ledger: Ledger,
  result: SoftDeleteResult,
): number | false {
  const skip = (reason: string): false => {
    ledger.append([{ seq: item.seq, event: "not-moved", reason }]);
    result.skipped.push({ id: item.id, path: item.originalPath, reason });
    return false;
  };
  if (!item.id.startsWith("meta:") && !atSessionPlace(record))
    return skip("not where its store keeps sessions any more (a folder on its way became a symlink?)");
  const own = currentFingerprint(item.originalPath, isFolderSession(item));
  const whole = own && record.bundle?.length ? withBundle(own, record.bundle) : own;
  if (!own || !unchanged(item.fingerprint, whole)) return skip("changed since preview");
  return own.size;
}

/**
 * Moves one item (to the quarantine; the desktop trash has had its batch: `trashed` is its outcome),
 * verifies where it went, moves its sidecars and records the outcome. Whole or not at all: when a
 * step fails, what had moved goes back and the intent is closed as not moved, said why (`explain`:
 * the check the preview made, asked again). Only when even that fails — or the copy cannot be
 * found — is the intent left open, for recovery to resolve from the disk.
 */
function settle(
  item: TrashItem & { seq: number },
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
      ledger.append([{ seq, event: "intent", item: { ...withoutSeq(item), target, location: to } }]);
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
        moveBack({ ...withoutSeq(item), target }, location, trashInfo);
        reason = `not moved: ${explain() ?? failed}; every part of it is where it was`;
        ledger.append([{ seq, event: "not-moved", reason }]);
      } catch (undo) {
        // Left open: recovery finishes or undoes it from what is on disk.
        reason = `move failed: ${failed}; putting back what had moved failed too (${(undo as Error).message}): recovery will resolve it`;
      }
    result.skipped.push({ id: item.id, path: item.originalPath, reason });
    return;
  }
  result.moved.push({
    id: item.id,
    path: item.originalPath,
    ...(item.title !== undefined ? { title: item.title } : {}),
    bytes: item.sizeBytes,
    destination: location,
    target,
  });
  result.bytesFreed += item.sizeBytes;
}

/**
 * A Codex session's move: our hard links, Codex's own delete, then the look at what is left
 * (codex-move.ts). What Codex left is said in the result's notes; a delete Codex refused leaves the
 * session in place, skipped with Codex's words.
 */
function settleCodex(
  item: TrashItem & { seq: number },
  ownSize: number,
  tools: Parameters<typeof moveCodexSession>[1],
  ledger: Ledger,
  result: SoftDeleteResult,
  state: EngineState,
  bystanders: Bystanders,
) {
  const { seq } = item;
  let outcome: CodexMoveOutcome;
  try {
    outcome = moveCodexSession(withoutSeq(item), tools, state.env, state.crash, bystanders);
  } catch (error) {
    // Left to recovery, which judges from the disk whether Codex deleted anything.
    result.skipped.push({
      id: item.id,
      path: item.originalPath,
      reason: `move failed: ${(error as Error).message}`,
    });
    return;
  }
  reportLost(result, item.id, outcome.vanished);
  if (!outcome.moved) {
    ledger.append([{ seq, event: "not-moved", reason: outcome.reason }]);
    result.skipped.push({ id: item.id, path: item.originalPath, reason: outcome.reason });
    return;
  }
  const identity = identityAfterMove(item.location!, item);
  if (identity.identity?.size !== ownSize)
    outcome.notes.push(`the copy at ${item.location} has the wrong size; kept as it is`);
  ledger.append([{ seq, event: "moved", location: item.location!, ...identity }]);
  state.crash("recorded");
  if (outcome.notes.length > 0)
    result.notes = [...(result.notes ?? []), ...outcome.notes.map((n) => `${item.id}: ${n}`)];
  result.moved.push({
    id: item.id,
    path: item.originalPath,
    ...(item.title !== undefined ? { title: item.title } : {}),
    bytes: item.sizeBytes,
    destination: item.location!,
    target: "quarantine",
  });
  result.bytesFreed += item.sizeBytes;
}

const withoutSeq = ({ seq: _seq, ...item }: TrashItem & { seq: number }): TrashItem => item;

function audit(
  state: EngineState,
  options: EngineOptions,
  request: SoftDeleteRequest,
  config: Config,
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
    mode: request.dryRun ? "dry-run" : config.deletion.target === "trash" ? "system-trash" : "quarantine",
    ...(result.operationId ? { operationId: result.operationId } : {}),
    items,
    bytes: result.bytesFreed,
    result: result.lost?.length ? "failed" : outcome,
    detail: result.lost?.length
      ? `LOST: ${result.lost.length} session(s) outside the selection were gone after an agent's own delete (via ${request.via})`
      : (detail ?? `via ${request.via}`) + checksDetail(result.checks),
  });
}
