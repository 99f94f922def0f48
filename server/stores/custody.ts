// The custody of a store kind's sessions (adapter-types.ts `Custody`), by kind: on the adapter object,
// at hand synchronously, because crash recovery runs under the deletion lock before anything else
// and is synchronous.
import type { StoreKind } from "../../shared/session-record.js";
import type { Custody } from "./adapter-types.js";
import { adapterOf } from "./store-adapter.js";

/** The custody of a store kind's sessions, if its agent deletes them itself. */
export const custodyOf = (kind: StoreKind): Custody | undefined => adapterOf(kind).custody;
