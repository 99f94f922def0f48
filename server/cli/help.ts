// The top-level usage text: printed by `session-retention --help` (main.ts) and read by the
// completion scripts (completion-command.ts), which cannot import main.ts — main.ts imports them.
export const MAIN_HELP = `Usage: session-retention <command> [options]

See how much disk AI coding-agent sessions use, and clean them up safely.

Commands:
  scan       count, size, per-namespace usage and every session of the agents' stores
  plan       what the retention policy would remove and keep, and why (deletes nothing)
  status     the quota level and mode in one line (exit 0 ok/info, 1 warn, 2 critical)
  clean      move the policy's candidates (or --ids) to the trash, after a preview and a typed DELETE
  trash      list, restore, purge and empty what was soft-deleted
  prune      soft-delete sandbox workspaces idle for longer than a duration
  touch      mark a workspace as active now (.metadata.json updated_at)
  repair-metadata  rebuild a workspace's missing or corrupt .metadata.json from file times
  audit      the log of every change
  report     a cleanup report (Markdown or JSON) of the plan, or of the cleanups since a date
  metrics    Prometheus metrics (printed, or --textfile for node_exporter)
  protect    pin sessions so no policy removes them; unprotect removes the pin
  keep       keep Claude Code sessions from Claude's own cleanup (cleanupPeriodDays)
  config     the config file: schema, check, show
  cache      the scan cache: info, clear
  completion a completion script for bash, zsh or fish
  serve      run the local dashboard on 127.0.0.1

Options:
  --version, -V  print the version
  --help, -h     print this help

Run \`session-retention <command> --help\` for a command's options.`;

/** Every command name the CLI knows (the list above, `unprotect` and `help`), for "did you mean". */
export const COMMAND_NAMES: readonly string[] = [
  ...[...MAIN_HELP.matchAll(/^ {2}([a-z][a-z-]*) /gm)].map((m) => m[1]!),
  "unprotect",
  "help",
];
