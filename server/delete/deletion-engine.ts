// The deletion engine: soft delete, restore, purge and crash recovery, all under one lock and the
// trash ledger, each deciding on fresh facts (the config file, a new scan, the places the gate
// allows) at the moment it runs. One file per operation; this is their one door.
export { type EngineOptions } from "./engine.js";
export { recover } from "./recovery.js";
export { STOPPED_REASON } from "../../shared/trash.js";
export { type DeleteControl, softDelete, type SoftDeleteRequest } from "./soft-delete.js";
export { listTrash, purge, purgeSelection, restore } from "./trash-actions.js";
