// `session-retention protect|unprotect <id|path>…`: manual pins, by session id, audited. All or
// nothing: if one argument names no session, nothing changes.
import { parseArgs } from "node:util";
import { visible } from "../../shared/visible-text.js";
import { scan } from "../scan/scanner.js";
import { resolveStores } from "../scan/resolve-roots.js";
import { configuredRoot } from "../config/configured-root.js";
import { readPins, setProtection } from "../state/protection-list.js";
import { statePaths } from "../state/state-dir.js";
import { CONFIG_FLAGS, STORE_FLAGS, configOptions } from "./config-command.js";
import { UsageError } from "./errors.js";
import { sessionFinder } from "../plan/find-session.js";
import type { CliIo } from "./io.js";
import { STORE_KINDS } from "../../shared/session-record.js";
import { storeFlagsOf } from "./store-flags.js";

export const PROTECT_HELP = `Usage: session-retention protect <id|path>… [options]
       session-retention unprotect <id|path>… [options]
       session-retention protect --list

Pins sessions so that no policy ever removes them (or removes the pin). A session is named by its
id (any unique part of it, at least 8 characters, will do) or by its file's path. Pins are kept by id in
<agentDir>/session-retention/protected.json, so they survive a rename; every change is audited.

Options:
  --list            list the pinned sessions
  --json            print one JSON document ({pins} for --list, else {changed, unchanged})
  --root DIR        look for sessions in this pi store (repeatable)
  --store KIND:DIR  look for sessions in this store (KIND: ${STORE_KINDS.join(", ")}; repeatable)
  --config FILE     use this config file (for its sessionDir)
  -h, --help        this help

Examples:
  session-retention protect 019a3f2e
  session-retention protect ~/.claude/projects/-work-app/019a3f2e-5c1d-7e2a-9b3f-0c4d5e6f7a8b.jsonl
  session-retention protect --list
  session-retention unprotect 019a3f2e`;

export async function runProtect(
  args: string[],
  io: CliIo,
  action: "protect" | "unprotect",
): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: {
      ...CONFIG_FLAGS,
      list: { type: "boolean", default: false },
      json: { type: "boolean", default: false },
      ...STORE_FLAGS,
      help: { type: "boolean", short: "h", default: false },
    },
    allowPositionals: true,
    strict: true,
  });
  if (values.help) {
    io.stdout(PROTECT_HELP);
    return 0;
  }
  const paths = statePaths();
  if (values.list) {
    const pins = readPins(paths.protectedList);
    if (values.json) {
      io.stdout(JSON.stringify({ pins }));
      return 0;
    }
    io.stdout(
      pins.length === 0
        ? "No pinned sessions."
        : pins.map((pin) => `${visible(pin.id)}  ${visible(pin.path)}  (pinned ${pin.pinnedAt})`).join("\n"),
    );
    return 0;
  }
  if (positionals.length === 0) throw new UsageError(`${action} wants at least one session id or path`);

  // Pinning only needs the store root, so it works while the rest of the config is invalid.
  const { stores } = resolveStores(
    { stores: storeFlagsOf(values) },
    process.env,
    configuredRoot(configOptions(values)),
  );
  const { sessions } = await scan(stores, {
    growth: "read-only",
    cacheDir: paths.scanCache,
    metaDir: paths.sessionsMeta,
    topN: 0,
  });
  const pinned = new Map(readPins(paths.protectedList).map((pin) => [pin.id, pin]));
  // Unpinning by exact id works for a session that is gone too: its pin must still be removable.
  const find = sessionFinder(sessions);
  const targets = positionals.map((arg) =>
    action === "unprotect" && pinned.has(arg) ? { id: arg, path: pinned.get(arg)!.path } : find(arg),
  );

  const { changed, unchanged } = setProtection(targets, action === "protect", "cli", paths);
  if (values.json) {
    const pick = (t: { id: string; path: string }) => ({ id: t.id, path: t.path });
    io.stdout(JSON.stringify({ action, changed: changed.map(pick), unchanged: unchanged.map(pick) }));
    return 0;
  }
  for (const t of changed)
    io.stdout(`${action === "protect" ? "protected" : "unprotected"} ${visible(t.id)}  ${visible(t.path)}`);
  for (const t of unchanged)
    io.stdout(
      `${action === "protect" ? "already protected" : "was not protected"}: ${visible(t.id)}  ${visible(t.path)}`,
    );
  return 0;
}
