// What the sections count their rows' matches against: the sessions table's last look.
import type { SessionRow } from "../../../../shared/api.js";

export interface ScanFacts {
  rows: readonly SessionRow[];
  namespaces: readonly string[];
  /** False while only the table's first page has arrived: counts would be too low. */
  complete: boolean;
}

/** "matches 3 sessions", or that the count waits for the table. */
export function matchesText(count: number | undefined, noun: string, scan: ScanFacts): string {
  if (count === undefined) return "not a usable pattern yet";
  if (!scan.complete) return "counting matches once the sessions have loaded…";
  return `matches ${count.toLocaleString("en-US")} ${noun}${count === 1 ? "" : "s"} in the last scan`;
}
