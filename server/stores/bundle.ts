// A session made of several files and folders (a Claude Code transcript and its side folders) is
// one unit: one size, one last change, one fingerprint. The fingerprint keeps the anchor's device
// and inode (the transcript: what the session is) and covers every part's size and newest time,
// so a write anywhere in the bundle between a preview and the move shows as "changed since preview".
import { type BigIntStats, lstatSync } from "node:fs";
import type { Fingerprint } from "../../shared/session-record.js";
import { measureFolder } from "./folder-session.js";

export interface PartFacts {
  bytes: number;
  /** The newest time of the part (a folder: of anything inside), ns. */
  mtimeNs: bigint;
  folder: boolean;
  fingerprint: Fingerprint;
}

const fingerprintOf = (stat: BigIntStats): Fingerprint => ({
  dev: Number(stat.dev),
  ino: Number(stat.ino),
  size: Number(stat.size),
  mtimeNs: stat.mtimeNs.toString(),
});

/** A file or folder of a bundle — never through a link — or undefined when it is not there (or not one). */
export function measurePart(path: string): PartFacts | undefined {
  const stat = lstatSync(path, { bigint: true, throwIfNoEntry: false });
  if (!stat || stat.isSymbolicLink()) return undefined;
  if (stat.isDirectory()) {
    const facts = measureFolder(path);
    return {
      bytes: facts.fingerprint.size,
      mtimeNs: BigInt(facts.fingerprint.mtimeNs),
      folder: true,
      fingerprint: facts.fingerprint,
    };
  }
  if (!stat.isFile()) return undefined;
  return { bytes: Number(stat.size), mtimeNs: stat.mtimeNs, folder: false, fingerprint: fingerprintOf(stat) };
}

/** The fingerprint of an anchor together with its bundle's parts (those that are there). */
export function withBundle(anchor: Fingerprint, parts: readonly string[]): Fingerprint {
  return withParts(
    anchor,
    parts.flatMap((path) => measurePart(path) ?? []),
  );
}

/** `withBundle` with parts measured already: a scan measures each part once (a folder is a walk). */
export function withParts(anchor: Fingerprint, parts: readonly PartFacts[]): Fingerprint {
  let size = anchor.size;
  let newest = BigInt(anchor.mtimeNs);
  for (const part of parts) {
    size += part.bytes;
    if (part.mtimeNs > newest) newest = part.mtimeNs;
  }
  return { dev: anchor.dev, ino: anchor.ino, size, mtimeNs: newest.toString() };
}
