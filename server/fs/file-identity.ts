// What makes "the same file, unchanged": device, inode, size and mtime in nanoseconds.
import type { BigIntStats } from "node:fs";

export interface FileIdentity {
  dev: number;
  ino: number;
  size: number;
  /** Nanoseconds since the epoch, as a decimal string (exact; a double would round it). */
  mtimeNs: string;
  /** The same mtime in milliseconds, for display. */
  mtimeMs: number;
}

/**
 * Copies what we need out of a BigIntStats at once: keeping 20,000 of those objects (each a dozen
 * heap BigInts and four Dates) alive through a scan made garbage collection its largest cost.
 */
export function identityOf(stat: BigIntStats): FileIdentity {
  return {
    dev: Number(stat.dev),
    ino: Number(stat.ino),
    size: Number(stat.size),
    mtimeNs: stat.mtimeNs.toString(),
    mtimeMs: Number(stat.mtimeNs / 1_000_000n),
  };
}

type Compared = Pick<FileIdentity, "dev" | "ino" | "size" | "mtimeNs">;

export function sameIdentity(a: Compared, b: Compared): boolean {
  return a.mtimeNs === b.mtimeNs && a.size === b.size && a.ino === b.ino && a.dev === b.dev;
}

/**
 * The mtime in milliseconds as a plain (not BigInt) lstat gives it, from the nanoseconds: Node
 * computes it so from the seconds and nanoseconds (`sec * 1e3 + nsec / 1e6`, a double: fractional,
 * to about a quarter of a microsecond). A test holds it to a real lstat.
 */
export function lstatMs(mtimeNs: string): number {
  const sec = mtimeNs.length > 9 ? Number(mtimeNs.slice(0, -9)) : 0;
  return sec * 1e3 + Number(mtimeNs.slice(-9)) / 1e6;
}
