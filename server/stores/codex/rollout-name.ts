// What a Codex rollout's file name says (its thread and start time), apart from the reader in
// rollout.ts: the adapter's custody needs the name only, and loading the reader loads fzstd.
/** `rollout-2026-11-24T22-21-59-<uuid>.jsonl[.zst]`: local start time, then the thread's uuid. */
export const ROLLOUT_NAME =
  /^rollout-(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2})-([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})\.jsonl(\.zst)?$/;

export interface RolloutName {
  /** The thread's uuid, lower-cased. */
  thread: string;
  /** The start time in the name, as written (Codex's local time, no zone). */
  stamp: string;
  compressed: boolean;
}

export function parseRolloutName(name: string): RolloutName | undefined {
  const match = ROLLOUT_NAME.exec(name);
  return match ? { stamp: match[1]!, thread: match[2]!.toLowerCase(), compressed: !!match[3] } : undefined;
}
