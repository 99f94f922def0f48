// Runs a task (tasks.ts) on a worker thread and hands back its result; a task's error comes back
// as an Error with the same message. A plain look is unref'd — a pi that is done (a print-mode
// run) does not wait for a look nobody will see — but whatever changes something is waited for.
import { Worker } from "node:worker_threads";
import type { TaskName, Tasks } from "./tasks.js";

export function offThread<K extends TaskName>(
  task: K,
  input: Parameters<Tasks[K]>[0],
): Promise<Awaited<ReturnType<Tasks[K]>>> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL("./worker.js", import.meta.url), { workerData: { task, input } });
    if (task === "look" && !(input as { autoClean: boolean }).autoClean) worker.unref();
    // The first of these settles the promise; the rest are no-ops.
    worker.once(
      "message",
      (reply: { ok: true; value: Awaited<ReturnType<Tasks[K]>> } | { ok: false; error: string }) =>
        reply.ok ? resolve(reply.value) : reject(new Error(reply.error)),
    );
    worker.once("error", reject);
    worker.once("exit", (code) => reject(new Error(`the ${task} task ended early (exit ${code})`)));
  });
}
