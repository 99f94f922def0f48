// The session-start look, on a worker thread: scanning a large store (and loading zod, the scanner
// and the policy engine) costs hundreds of milliseconds that pi's own thread — its terminal UI —
// must not wait for. The worker posts a small `Look` (and what auto-clean did) and exits, and its
// heap goes with it.
import { parentPort, workerData } from "node:worker_threads";
import { type AutoCleanOutcome, autoClean } from "./auto-clean.js";
import { lookAtStores } from "./look.js";

export interface LookRequest {
  /** Run auto-clean if it is due (only on a session start). */
  autoClean: boolean;
}

export type LookReply =
  | { ok: true; look: Awaited<ReturnType<typeof lookAtStores>>["look"]; autoClean?: AutoCleanOutcome }
  | { ok: false; error: string };

const request = workerData as LookRequest;
let reply: LookReply;
try {
  let looked = await lookAtStores();
  let outcome: AutoCleanOutcome | undefined;
  if (request.autoClean && looked.look.enabled) {
    outcome = await autoClean(looked.inputs, looked.plan);
    // What moved is gone from the store: look again, so the status line tells the new truth.
    if (outcome.result && !outcome.result.dryRun && outcome.result.moved.length > 0)
      looked = await lookAtStores();
  }
  reply = { ok: true, look: looked.look, ...(outcome ? { autoClean: outcome } : {}) };
} catch (error) {
  reply = { ok: false, error: (error as Error).message };
}
parentPort!.postMessage(reply);
