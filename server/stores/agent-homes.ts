// Where each agent other than pi keeps its store when no config names one, and when a folder there
// is one. Store resolution finds them here, and the gate keeps a quarantine out of them. Only
// locations: no adapter is loaded for this.
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { StoreKind } from "../../shared/session-record.js";
import { agentshDefaultRoot } from "./agentsh/location.js";
import { claudeDefaultRoot } from "./claude/location.js";
import { codexDefaultRoot } from "./codex/location.js";
import { GEMINI_PROJECTS, geminiDefaultRoot } from "./gemini/location.js";

export interface AgentHome {
  kind: Exclude<StoreKind, "pi" | "workspace">;
  /** As notes name it: "Claude Code's store". */
  label: string;
  /** Its default root, from the agent's own environment variable or the home folder. */
  root: (env: NodeJS.ProcessEnv) => string;
  /** Whether the folder at `root` holds sessions (an agent's folder may hold only its settings). */
  isStore: (root: string) => boolean;
}

export const AGENT_HOMES: readonly AgentHome[] = [
  { kind: "agentsh", label: "agentsh's store", root: agentshDefaultRoot, isStore: existsSync },
  {
    kind: "claude",
    label: "Claude Code's store",
    root: claudeDefaultRoot,
    // Claude Code's folder holds much more than sessions: it is a store once it has projects.
    isStore: (root) => existsSync(join(root, "projects")),
  },
  {
    kind: "codex",
    label: "Codex's store",
    root: codexDefaultRoot,
    // Codex's home holds its config and databases too: it is a store once it has rollouts.
    isStore: (root) => existsSync(join(root, "sessions")) || existsSync(join(root, "archived_sessions")),
  },
  {
    kind: "gemini",
    label: "Gemini CLI's store",
    root: geminiDefaultRoot,
    // Gemini's folder holds its settings too: it is a store once a project has a folder in tmp/.
    isStore: (root) => existsSync(join(root, GEMINI_PROJECTS)),
  },
];
