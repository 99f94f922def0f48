// The package's library API (`import { pruneSessions } from "session-retention"`): the workspace
// pruning (docs/stores.md), and the building blocks the CLI, the dashboard and the pi extension share.
export {
  createSessionMetadata,
  type MetadataWriteOptions,
  type PruneLogLine,
  type PruneOptions,
  type PruneResult,
  pruneSessions,
  type RepairResult,
  repairSessionMetadata,
  touchSession,
} from "./workspace/workspace-api.js";
export { type WorkspaceMetadata, WorkspaceMetadataSchema } from "./stores/workspace/workspace-store.js";
export {
  type GrowthRecording,
  scan,
  type ScanOptions,
  type ScanRequest,
  scanStores,
} from "./scan/scanner.js";
export { evaluatePolicy, exemptions } from "../shared/policy.js";
export { ConfigSchema, type Config } from "../shared/config.js";
