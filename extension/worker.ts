// The worker thread's entry: runs one task (tasks.ts) and posts its result, then exits — and the
// heap of the scan goes with it.
import { parentPort, workerData } from "node:worker_threads";
import { type TaskName, tasks } from "./tasks.js";

const { task, input } = workerData as { task: TaskName; input: never };
try {
  parentPort!.postMessage({ ok: true, value: await tasks[task](input) });
} catch (error) {
  parentPort!.postMessage({ ok: false, error: (error as Error).message });
}
