// The deletion engine: soft delete, restore, purge (and empty) and crash recovery, all under one
// lock (engine.ts) and over one journal (journal.ts), each deciding on fresh facts (the config file,
// a new scan, the places the gate allows) at the moment it runs. One file per operation —
// soft-delete.ts (deciding in decide.ts, carrying out in execute.ts), restore.ts, purge.ts,
// recovery.ts; list-trash.ts reads what they journaled — and this is their one door.
export { type EngineOptions } from "./engine.js";
export { recover } from "./recovery.js";
export { STOPPED_REASON } from "../../shared/trash.js";
export { type DeleteControl } from "./execute.js";
export { softDelete, type SoftDeleteRequest } from "./soft-delete.js";
export { listTrash } from "./list-trash.js";
export { emptySelection, purge, purgeSelection } from "./purge.js";
export { restore } from "./restore.js";
