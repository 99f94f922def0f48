// What every operation of the deletion engine shares: its options, where its files are, and the
// one lock it runs under. Under that lock an operation first recovers what a crash may have left,
// then reads the config file from disk — never a copy a caller loaded earlier: a hand edit that
// protects a session, or makes the file invalid, counts from the very next operation.
import type { AuditEntry } from "../../shared/audit.js";
import type { Config } from "../../shared/config.js";
import type { Recovery } from "../../shared/trash.js";
import { type LoadConfigOptions, writableConfig } from "../config/config-file.js";
import { acquireLock } from "../fs/lock-file.js";
import { statePaths } from "../state/state-dir.js";
import type { LedgerWrite } from "../state/journal.js";

export interface EngineOptions {
  /** Where the change comes from, for the audit log. */
  actor: AuditEntry["actor"];
  env?: NodeJS.ProcessEnv;
  /** The config file (`--config`) and overrides (`--set`) to read under the lock. Default: the default file. */
  config?: LoadConfigOptions;
  now?: () => Date;
  /**
   * Test hook for the crash harness: called at each step where a crash must lose nothing
   * ("intents-written", "moved", "sidecar-moved", "recorded", "recovered", "restored"…).
   * Production code never sets it.
   */
  crashPoint?: (step: string) => void;
  /** Test hook: how the ledger writes (a full disk is injected here). */
  ledgerWrite?: LedgerWrite;
}

export type EngineState = ReturnType<typeof engineState>;

export function engineState(options: EngineOptions) {
  const env = options.env ?? process.env;
  const paths = statePaths(env);
  return {
    env,
    paths,
    ledgerDir: paths.trashLedgers,
    lockFile: paths.deletionLock,
    now: options.now ?? (() => new Date()),
    crash: options.crashPoint ?? (() => {}),
  };
}

/**
 * The config as the file says now, read under the lock; an invalid one refuses the operation
 * (ReadOnlyError) — the program is read-only until it is fixed.
 */
export function freshConfig(options: EngineOptions): Config {
  return writableConfig({ ...options.config, env: options.env ?? process.env });
}

/** Runs `work` holding the deletion lock, after recovering what a crash may have left. */
export async function exclusive<T extends object>(
  options: EngineOptions,
  recoverLocked: (options: EngineOptions) => Recovery[],
  work: (state: EngineState) => Promise<T>,
): Promise<T & { recovered: Recovery[] }> {
  const state = engineState(options);
  const release = acquireLock(state.lockFile);
  try {
    const recovered = recoverLocked(options);
    return { ...(await work(state)), recovered };
  } finally {
    release();
  }
}
