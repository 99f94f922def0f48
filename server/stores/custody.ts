// The adapters' custody (adapter-types.ts) by store kind, at hand synchronously: crash recovery runs
// under the deletion lock before anything else and is synchronous, while store-adapter.ts loads the
// adapters on demand. The adapters name the same objects.
import type { StoreKind } from "../../shared/session-record.js";
import type { Custody } from "./adapter-types.js";
import { codexCustody } from "./codex/codex-custody.js";

const CUSTODY: Partial<Record<StoreKind, Custody>> = { codex: codexCustody };

/** The custody of a store kind's sessions, if its agent deletes them itself. */
export const custodyOf = (kind: StoreKind): Custody | undefined => CUSTODY[kind];
