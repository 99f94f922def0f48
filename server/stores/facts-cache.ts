// What a file says, read again only when it changed (same path, device, inode, size and time): in
// memory for the process (a server rescans every few seconds), and — while the engine lends one for
// a scan (`withFactsShelves`) — on the scan's shelf, the persistent facts store
// (state/facts-store.ts), so that a new process reads only what changed. The adapters stay readers:
// they name what they read and how; where it is kept is the engine's. What a scan of a root did not
// ask for is forgotten when that scan ends, so a long-running `serve` holds the facts of the files
// that are there, not of every file it ever saw.
import { type BigIntStats, lstatSync } from "node:fs";
import { type FileIdentity, identityOf, sameIdentity } from "../fs/file-identity.js";

export interface FileFacts<F> {
  facts: F;
  /** The file as it was read. */
  identity: FileIdentity;
}

/** Facts as a shelf keeps them: the file's identity when read, and the facts as JSON. */
export interface StoredFacts {
  identity: Pick<FileIdentity, "dev" | "ino" | "size" | "mtimeNs">;
  facts: string;
  /** pi's parse state, where it differs from the facts (a last line without its newline). */
  resume?: string;
}

/** Where a scan keeps one reader's facts of the store root it scans (the engine's: state/facts-store.ts). */
export interface FactsShelf {
  get(path: string): StoredFacts | undefined;
  put(path: string, stored: StoredFacts): void;
  /** The scan of the root ended, having asked for every file it found: forget the rest. */
  forgetUnasked(): void;
}

/** The shelf of a reader's facts under the root being scanned now (none: memory only). */
export type ShelfOf = (reader: string) => FactsShelf | undefined;

let lent: ShelfOf | undefined;

/**
 * Runs `scan`, an adapter's scan of one root, with `shelves` lent to every `FactsCache`. It is
 * synchronous, as the adapters' scans are: no other scan runs meanwhile to see them.
 */
export function withFactsShelves<T>(shelves: ShelfOf | undefined, scan: () => T): T {
  const before = lent;
  lent = shelves;
  try {
    return scan();
  } finally {
    lent = before;
  }
}

export class FactsCache<F> {
  readonly #entries = new Map<string, FileFacts<F>>();
  readonly #asked = new Set<string>();

  /**
   * `reader`: the name its facts are kept under, with a version (bump it when the facts' shape
   * changes: facts of the old shape are then never used).
   */
  constructor(
    readonly reader: string,
    private readonly read: (path: string) => FileFacts<F>,
  ) {}

  /**
   * The facts of the file at `path`, read again only when it changed; throws as `read` does. `stat`:
   * its `lstat` (bigint) when the caller has just made it.
   */
  get(path: string, stat?: BigIntStats): FileFacts<F> {
    this.#asked.add(path);
    const cached = this.#entries.get(path);
    const shelf = lent?.(this.reader);
    let now: FileIdentity | undefined;
    const identity = () => (now ??= identityOf(stat ?? lstatSync(path, { bigint: true })));
    if (cached && sameIdentity(cached.identity, identity())) {
      // Asked for, so that the shelf keeps it; put there if this process read it since.
      const kept = shelf?.get(path);
      if (shelf && !(kept && sameIdentity(kept.identity, cached.identity))) shelf.put(path, stored(cached));
      return cached;
    }
    const kept = shelf?.get(path);
    if (kept && sameIdentity(kept.identity, identity())) {
      try {
        const facts: FileFacts<F> = { facts: JSON.parse(kept.facts) as F, identity: identity() };
        this.#entries.set(path, facts);
        return facts;
      } catch {
        // not JSON (damaged): read again
      }
    }
    const read = this.read(path);
    this.#entries.set(path, read);
    shelf?.put(path, stored(read));
    return read;
  }

  /** A scan of `root` ended: the files under it that it did not ask for are gone, or not sessions now. */
  forgetUnasked(root: string) {
    for (const path of this.#entries.keys())
      if (path.startsWith(`${root}/`) && !this.#asked.has(path)) this.#entries.delete(path);
    this.#asked.clear();
    lent?.(this.reader)?.forgetUnasked();
  }

  get size() {
    return this.#entries.size;
  }
}

const stored = <F>(read: FileFacts<F>): StoredFacts => ({
  identity: read.identity,
  facts: JSON.stringify(read.facts),
});
