// The dashboard's one running (or last finished) deletion, as an operation a page can follow, stop
// and come back to. A delete no longer lives in a request the page waits on: the page may be
// reloaded or left while sessions move, and the result with its Undo must still be there after.
// One at a time — the engine's lock allows no more — and the last result is kept until dismissed
// or until the next operation starts.
import { randomBytes } from "node:crypto";
import type { OperationStatus } from "../../shared/api.js";
import type { SoftDeleteResult } from "../../shared/trash.js";
import type { DeleteControl } from "../delete/deletion-engine.js";
import { ConflictError, httpFailure } from "../errors.js";

/** A second operation while one runs (409), or a stop/dismiss for one that is not the current one. */
export class OperationConflictError extends ConflictError {
  override name = "OperationConflictError";
}

export function createOperations(now = () => new Date()) {
  let current: OperationStatus = { state: "none" };
  let stop = false;

  return {
    status: (): OperationStatus => current,

    /**
     * Starts `run` as the current operation and answers at once with its status. `run` gets the
     * control it passes to the engine: progress comes in, the stop flag goes out.
     */
    start(run: (control: DeleteControl) => Promise<SoftDeleteResult>): OperationStatus {
      if (current.state === "running")
        throw new OperationConflictError(
          "a deletion is already running; wait for it (or stop it) before starting another",
        );
      const base = { id: randomBytes(12).toString("base64url"), kind: "delete" as const };
      const startedAt = now().toISOString();
      const before = current;
      stop = false;
      current = {
        state: "running",
        ...base,
        startedAt,
        phase: "preparing",
        done: 0,
        total: 0,
        stopRequested: false,
      };
      const control: DeleteControl = {
        onProgress: ({ done, total }) => {
          if (current.state === "running" && current.id === base.id)
            current = { ...current, phase: "moving", done, total };
        },
        stopRequested: () => stop,
      };
      const started = current;
      let running: Promise<SoftDeleteResult>;
      try {
        running = run(control);
      } catch (error) {
        // Refused before anything ran (an expired preview): no operation, the request says why.
        current = before;
        throw error;
      }
      // Settled here, never awaited by the request: the page asks for the status instead.
      running.then(
        (result) => {
          current = { state: "finished", ...base, startedAt, finishedAt: now().toISOString(), result };
        },
        (error: unknown) => {
          // Said as the API would say it: the engine's own words, a full disk plainly, else a pointer to the log.
          const failure = httpFailure(error);
          if (failure.log) console.error(error);
          current = {
            state: "failed",
            ...base,
            startedAt,
            finishedAt: now().toISOString(),
            error: failure.body.error.message,
          };
        },
      );
      return started;
    },

    /** Asks the running operation `id` to stop after its current item. */
    stop(id: string): OperationStatus {
      if (current.state !== "running" || current.id !== id)
        throw new OperationConflictError("that deletion is not running any more");
      stop = true;
      current = { ...current, stopRequested: true };
      return current;
    },

    /** Forgets the finished operation `id` (its result was seen); a running one cannot be dismissed. */
    dismiss(id: string): OperationStatus {
      if (current.state === "running")
        throw new OperationConflictError("a deletion is running; its result cannot be dismissed yet");
      if (current.state !== "none" && current.id === id) current = { state: "none" };
      return current;
    },
  };
}

export type Operations = ReturnType<typeof createOperations>;
