// Where each kind of store keeps its sessions — the places a scan recognises them in, and the only
// places the deletion engine will move anything from. The scan decides what is a session; this is
// the engine's last look, at the moment of the move, that a path is still in such a place — and a
// restore's, before a part outside its store goes back. Each adapter says where its own are.
import type { StoreKind } from "../../shared/session-record.js";
import { adapterOf } from "./store-adapter.js";

/** Whether `path` is where a store of `kind` at `root` keeps a session or a part of one (`StoreAdapter.isSessionPlace`). */
export const isSessionPlace = (kind: StoreKind, root: string, path: string): boolean =>
  adapterOf(kind).isSessionPlace(root, path);

/**
 * Whether a part of a session may go back to `path` now (a restore): by its adapter's rule where it
 * has one (`StoreAdapter.isReturnPlace`), else yes — inside the store's root, and pi's session-index
 * file beside its store, it goes back as the session does.
 */
export function isReturnPlace(kind: StoreKind, root: string, path: string): boolean {
  const adapter = adapterOf(kind);
  return adapter.isReturnPlace ? adapter.isReturnPlace(root, path) : true;
}
