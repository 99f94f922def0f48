// Runs a look on a worker thread (look-worker.ts) and hands back its reply. The worker is unref'd:
// a pi that is done (a print-mode run) does not wait for a look nobody will see.
import { Worker } from "node:worker_threads";
import type { LookReply, LookRequest } from "./look-worker.js";

export function lookInBackground(request: LookRequest): Promise<LookReply> {
  return new Promise((resolve) => {
    const worker = new Worker(new URL("./look-worker.js", import.meta.url), { workerData: request });
    worker.unref();
    // The first of these settles the promise; the rest are no-ops.
    worker.once("message", resolve);
    worker.once("error", (error) => resolve({ ok: false, error: error.message }));
    worker.once("exit", (code) => resolve({ ok: false, error: `the look ended early (exit ${code})` }));
  });
}
