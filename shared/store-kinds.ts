// The kinds of store, apart from the record's schema: the CLI's quick paths (`status`, `scan`) name them
// without loading zod.

/**
 * Which kind of store a session lives in — which agent wrote it. pi, Claude Code, Codex and Gemini
 * CLI sessions are files (Claude's and Gemini's with the side files of their bundle, a Codex thread
 * with its subagents' rollouts); agentsh sessions and sandbox workspaces are folders, measured by
 * what is inside and moved as one unit.
 */
export const STORE_KINDS = ["pi", "claude", "codex", "gemini", "agentsh", "workspace"] as const;
export type StoreKind = (typeof STORE_KINDS)[number];

/**
 * The kind of store `--root DIR` and the config's `sessionDir` name: pi's (the tool began as pi's
 * alone, and those two kept their meaning when other agents came).
 */
export const SESSION_DIR_KIND: StoreKind = "pi";

/**
 * The kind whose agent carries out the quota's mode (pi's extension warns, or blocks new sessions):
 * where no such store is shown, the mode means nothing here, and the dashboard says so.
 */
export const QUOTA_MODE_KIND: StoreKind = "pi";

/** Whether a kind's stores are found without being named (a workspace store is only ever named). */
export const isFoundUnnamed = (kind: StoreKind) => kind !== "workspace";

/** A store kind as the dashboard names it: the agent whose sessions these are. */
export const AGENT_LABELS: Record<StoreKind, string> = {
  pi: "pi",
  claude: "Claude Code",
  codex: "Codex",
  gemini: "Gemini CLI",
  agentsh: "agentsh",
  workspace: "workspace",
};

/**
 * Whether a session and the forks that read from it may move as one family: a hand selection that
 * takes them all no longer keeps the session for its forks, and the deletion engine moves the forks
 * first and the session once they all moved (Codex, whose forks read their parent's rollout). For
 * other kinds a session stays while a fork needs it (a system-trash batch has no order).
 */
export const familyMovesTogether = (kind: StoreKind) => kind === "codex";

/** Whether a store's sessions are folders (moved as one unit) rather than files. */
export const isFolderStore = (kind: StoreKind) => kind === "agentsh" || kind === "workspace";
