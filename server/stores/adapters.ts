// Every agent's adapter, listed once. Adding an agent is its folder (server/stores/<kind>/, its
// `adapter.ts` exporting one StoreAdapter) and one line here, with its kind and label in the kind
// registry (shared/store-kinds.ts, which the dashboard and the pure policy read too): the type
// checker names whichever is missing. docs/architecture.md, "Adding an agent".
import type { StoreKind } from "../../shared/session-record.js";
import type { StoreAdapter } from "./adapter-types.js";
import { agentshAdapter } from "./agentsh/adapter.js";
import { claudeAdapter } from "./claude/adapter.js";
import { codexAdapter } from "./codex/adapter.js";
import { geminiAdapter } from "./gemini/adapter.js";
import { piAdapter } from "./pi/adapter.js";
import { workspaceAdapter } from "./workspace/adapter.js";

/** Every agent's adapter, by kind (store-adapter.test.ts holds each under its own kind). */
export const STORE_ADAPTERS: Readonly<Record<StoreKind, StoreAdapter>> = {
  pi: piAdapter,
  claude: claudeAdapter,
  codex: codexAdapter,
  gemini: geminiAdapter,
  agentsh: agentshAdapter,
  workspace: workspaceAdapter,
};
