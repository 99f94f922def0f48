// How much of one agent's file a reader takes at most, whatever the file holds. Its size on disk
// bounds a plain read, but not what the read costs: a few KB of zstd expand to hundreds of MB of
// newlines, and a file of millions of `{}` lines costs every reader per line, not per byte. So each
// reader of a session's lines stops after MAX_LINES lines, and a compressed file is decoded to at
// most MAX_INFLATION times its size on disk. Past a cap the scan moves on: the session keeps its
// size on disk, what was read is counted, and a `read-capped` warning names the cap.
import { formatBytes } from "../../shared/format.js";
import type { SessionWarning } from "../../shared/session-record.js";

/**
 * Lines read of one file at most, blank ones included. A busy store holds 2.7 M lines in 20,000
 * files; at this cap a reader spends one to two seconds on a file of nothing but `{}` lines
 * (bench/bounded-read-bench.ts).
 */
export const MAX_LINES = 2_000_000;

/**
 * A compressed file is decoded to at most this many times its size on disk. Agents' JSON lines
 * compress 2–6× with zstd; a decompression bomb thousands of times.
 */
export const MAX_INFLATION = 100;

/** A read that stopped at a cap: which one, and how much was read (all of it counted). */
export interface ReadCap {
  cap: "lines" | "inflation";
  /** Lines read, blank ones included. */
  lines: number;
  /** Bytes read (decompressed, for a compressed file). */
  bytes: number;
}

/** The most a compressed file of `sizeOnDisk` bytes is decoded to. */
export const inflationCap = (sizeOnDisk: number) => sizeOnDisk * MAX_INFLATION;

/** The warning of a session whose file (`file`, when it is not the session's own) was read to a cap. */
export function readCapWarning(hit: ReadCap, file?: string): SessionWarning {
  const cap =
    hit.cap === "lines"
      ? `the cap of ${MAX_LINES.toLocaleString("en-US")} lines a file`
      : `the cap of ${MAX_INFLATION}× its size on disk, decompressed`;
  const read = `${hit.lines.toLocaleString("en-US")} lines (${formatBytes(hit.bytes)})`;
  return {
    code: "read-capped",
    message: `${file ? `${file}: ` : ""}reading stopped at ${cap}; the ${read} read are counted, the rest is not (its size on disk is counted whole)`,
  };
}

/** The later of two ISO times: a session read to a cap is never older than its file's time. */
export const laterOf = (a: string | undefined, b: string): string => (a !== undefined && a > b ? a : b);
