// A server rescans every few seconds: a file unchanged since it was last read (same path, device,
// inode, size and time) is not read again. Per process. What a scan of a root did not ask for is
// forgotten when that scan ends, so a long-running `serve` holds the facts of the files that are
// there, not of every file it ever saw.
import { type BigIntStats, lstatSync } from "node:fs";
import { type FileIdentity, sameIdentity } from "../fs/file-identity.js";
import { fingerprintOf } from "./bundle.js";

export interface FileFacts<F> {
  facts: F;
  /** The file as it was read. */
  identity: FileIdentity;
}

export class FactsCache<F> {
  readonly #entries = new Map<string, FileFacts<F>>();
  readonly #asked = new Set<string>();

  constructor(private readonly read: (path: string) => FileFacts<F>) {}

  /**
   * The facts of the file at `path`, read again only when it changed; throws as `read` does. `stat`:
   * its `lstat` (bigint) when the caller has just made it.
   */
  get(path: string, stat?: BigIntStats): FileFacts<F> {
    this.#asked.add(path);
    const cached = this.#entries.get(path);
    if (cached && sameIdentity(cached.identity, fingerprintOf(stat ?? lstatSync(path, { bigint: true }))))
      return cached;
    const read = this.read(path);
    this.#entries.set(path, read);
    return read;
  }

  /** A scan of `root` ended: the files under it that it did not ask for are gone, or not sessions now. */
  forgetUnasked(root: string) {
    for (const path of this.#entries.keys())
      if (path.startsWith(`${root}/`) && !this.#asked.has(path)) this.#entries.delete(path);
    this.#asked.clear();
  }

  get size() {
    return this.#entries.size;
  }
}
