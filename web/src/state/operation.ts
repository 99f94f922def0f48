// Following the server's delete operation from the page: the server runs it whatever the page does
// (a reload, another page), so the page only asks for its status until it is no longer running.
// Polled rather than streamed: a status is a few hundred bytes, and a page that comes back simply
// asks again.
import type { OperationStatus } from "../../../shared/api.js";
import type { CleanupSince } from "../../../shared/trash.js";
import type { ApiClient } from "../api/client.js";

/** How often the page asks while a delete runs: often enough for a moving count, cheap for the server. */
export const POLL_MS = 250;

export type FinishedOperation = Exclude<OperationStatus, { state: "none" | "running" }>;

/** Asks for the status of the running operation `id` until it finishes; each running status goes to `onStatus`. */
export async function followOperation(
  api: Pick<ApiClient, "operation">,
  id: string,
  onStatus: (status: Extract<OperationStatus, { state: "running" }>) => void,
  wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
): Promise<FinishedOperation> {
  for (;;) {
    const status = await api.operation();
    if (status.state === "none" || status.id !== id)
      throw new Error("The deletion's result is gone (dismissed in another tab, or the server restarted).");
    if (status.state !== "running") return status;
    onStatus(status);
    await wait(POLL_MS);
  }
}

/** "Moving 812 of 1,435" — or, before the first move, what the server is doing. */
export function progressText(status: Extract<OperationStatus, { state: "running" }>): string {
  if (status.phase === "preparing") return "Preparing: looking at the stores again before the first move…";
  const count = (n: number) => n.toLocaleString("en-US");
  return `Moving ${count(status.done)} of ${count(status.total)}${status.stopRequested ? " — stopping after the current item…" : ""}`;
}

/**
 * What became of a delete's `moved` sessions since, in a sentence — "Undone: 12 sessions restored at
 * 10:42." — or undefined while all of them are still in the trash. `at` writes a time.
 */
export function sinceText(
  moved: number,
  since: CleanupSince,
  at: (iso: string) => string,
): string | undefined {
  const count = (n: number) => n.toLocaleString("en-US");
  const elsewhere = moved - since.restored - since.inTrash;
  const rest = [
    ...(since.inTrash > 0 ? [`${count(since.inTrash)} still in the trash`] : []),
    ...(elsewhere > 0 ? [`${count(elsewhere)} no longer in the trash (purged or removed)`] : []),
  ].join("; ");
  const when = since.restoredAt ? ` at ${at(since.restoredAt)}` : "";
  if (since.restored === 0) return elsewhere > 0 ? `${rest}.` : undefined;
  if (since.restored >= moved)
    return `Undone: ${count(moved)} session${moved === 1 ? "" : "s"} restored${when}.`;
  return `Partly undone: ${count(since.restored)} of ${count(moved)} sessions restored${when}; ${rest}.`;
}
