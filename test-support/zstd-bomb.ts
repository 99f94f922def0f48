// Decompression bombs for the tests and the bench of bounded reading: a Codex rollout of a few KB,
// compressed by the real `zstd` command, that expands to a real `session_meta` line and then
// hundreds of megabytes of newlines — what made a scan take minutes before reads were capped.
import { spawnSync } from "node:child_process";
import { statSync } from "node:fs";

/** A rollout's name in `archived_sessions/` for `thread` (a uuid), compressed. */
export const bombName = (thread: string) => `rollout-2026-01-05T10-00-00-${thread}.jsonl.zst`;

/**
 * Writes at `path` (a `.jsonl.zst`) thread `thread`'s `session_meta` line, working in `cwd`,
 * followed by `newlines` newlines, through `zstd -19`; returns its size on disk.
 */
export function writeZstdBomb(path: string, thread: string, cwd: string, newlines: number): number {
  const header = JSON.stringify({
    timestamp: "2026-01-05T10:00:00.000Z",
    type: "session_meta",
    payload: {
      id: thread,
      timestamp: "2026-01-05T10:00:00.000Z",
      cwd,
      source: "cli",
      cli_version: "0.169.0",
    },
  });
  const made = spawnSync(
    "sh",
    [
      "-c",
      `{ printf '%s\\n' "$HEADER"; head -c ${newlines} /dev/zero | tr '\\0' '\\n'; } | zstd -q -19 -f -o "$OUT"`,
    ],
    { env: { ...process.env, HEADER: header, OUT: path }, encoding: "utf8" },
  );
  if (made.status !== 0) throw new Error(`zstd bomb ${path} failed: ${made.stderr}`);
  return statSync(path).size;
}
