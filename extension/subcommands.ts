// The sub-commands of `/session-retention`, for completion before the commands' module is loaded.
export const SUBCOMMANDS = ["scan", "clean", "policy", "protect", "unprotect", "undo", "dashboard"] as const;
