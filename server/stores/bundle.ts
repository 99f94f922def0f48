// A session made of several files and folders (a Claude Code transcript and its side folders, a
// Gemini CLI chat and its logs, tool outputs and subagents) is one unit: one size, one last change, one fingerprint. The fingerprint keeps the anchor's device
// and inode (the transcript: what the session is) and covers every part's size and newest time,
// so a write anywhere in the bundle between a preview and the move shows as "changed since preview".
import { type BigIntStats, lstatSync } from "node:fs";
import type { Fingerprint, SessionRecord, StoreRef } from "../../shared/session-record.js";
import { measureFolder } from "./folder-session.js";

export interface PartFacts {
  bytes: number;
  /** The newest time of the part (a folder: of anything inside), ns. */
  mtimeNs: bigint;
  folder: boolean;
  fingerprint: Fingerprint;
}

export const fingerprintOf = (stat: BigIntStats): Fingerprint => ({
  dev: Number(stat.dev),
  ino: Number(stat.ino),
  size: Number(stat.size),
  mtimeNs: stat.mtimeNs.toString(),
});

/**
 * A file or folder of a bundle — never through a link — or undefined when it is not there (or not
 * one). `stat`: its lstat (bigint), when the caller has just made it; `names`: given the names
 * directly in a folder part (its walk lists them anyway).
 */
export function measurePart(
  path: string,
  stat = lstatSync(path, { bigint: true, throwIfNoEntry: false }),
  names?: (names: readonly string[]) => void,
): PartFacts | undefined {
  if (!stat || stat.isSymbolicLink()) return undefined;
  if (stat.isDirectory()) {
    const facts = measureFolder(path, stat, names);
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

/**
 * One fingerprint for several sessions moved as one (a session and those its agent's own delete
 * takes with it): the first's anchor, every one's size, the newest time — what `withBundle` of the
 * first gives once the others' files are in its bundle.
 */
export function joinFingerprints(first: Fingerprint, others: readonly Fingerprint[]): Fingerprint {
  let size = first.size;
  let newest = BigInt(first.mtimeNs);
  for (const other of others) {
    size += other.size;
    if (BigInt(other.mtimeNs) > newest) newest = BigInt(other.mtimeNs);
  }
  return { dev: first.dev, ino: first.ino, size, mtimeNs: newest.toString() };
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Adds parts (those that are there) to a session's bundle: its size, its fingerprint and its last
 * change cover them — the agent may be writing only a subagent's file: the session is in use all
 * the same.
 */
export function addBundle(
  record: SessionRecord,
  paths: readonly string[],
  /** Parts the caller measured already, by path. */
  measured?: ReadonlyMap<string, PartFacts>,
) {
  // Each part measured once: a folder's measure is a walk of it.
  addMeasuredParts(
    record,
    paths.flatMap((path) => {
      const part = measured?.get(path) ?? measurePart(path);
      return part ? [{ path, part }] : [];
    }),
  );
}

/** `addBundle` with the parts measured already. */
export function addMeasuredParts(
  record: SessionRecord,
  bundle: ReadonlyArray<{ path: string; part: PartFacts }>,
) {
  if (bundle.length === 0) return;
  record.bundle = [...(record.bundle ?? []), ...bundle.map((b) => b.path)];
  record.fingerprint = withParts(
    record.fingerprint,
    bundle.map((b) => b.part),
  );
  record.sizeBytes = record.fingerprint.size;
  record.modifiedAt = iso(Number(BigInt(record.fingerprint.mtimeNs) / 1_000_000n));
}

/**
 * Parts of a bundle whose session file is gone: one item, its first part (that is there) its path
 * and anchor, the rest its bundle; undefined when none is there.
 */
export function orphanedBundle(
  store: StoreRef,
  id: string,
  namespace: string,
  paths: readonly string[],
  /** Parts the caller measured already, by path. */
  known?: ReadonlyMap<string, PartFacts>,
): SessionRecord | undefined {
  const parts = paths.flatMap((path) => {
    const measured = known?.get(path) ?? measurePart(path);
    return measured ? [{ path, ...measured, mtimeMs: Number(measured.mtimeNs / 1_000_000n) }] : [];
  });
  const [primary, ...rest] = parts;
  if (!primary) return undefined;
  const fingerprint = withParts(primary.fingerprint, rest);
  const newest = Number(BigInt(fingerprint.mtimeNs) / 1_000_000n);
  const oldest = Math.min(...parts.map((p) => p.mtimeMs));
  return {
    id,
    store,
    path: primary.path,
    namespace,
    sizeBytes: fingerprint.size,
    createdAt: iso(oldest),
    modifiedAt: iso(newest),
    lastUsedAt: iso(newest),
    fingerprint,
    messageCount: 0,
    messageCounts: { user: 0, assistant: 0, toolResult: 0, other: 0 },
    ...(primary.folder ? { folder: true as const } : {}),
    ...(rest.length > 0 ? { bundle: rest.map((p) => p.path) } : {}),
    warnings: [],
  };
}
