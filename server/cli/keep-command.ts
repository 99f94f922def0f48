// `session-retention keep <id|path>… | --swept`: keeps Claude Code sessions from Claude's own sweep
// (`cleanupPeriodDays`), which deletes transcripts for good by their file time. Their time becomes
// now — audited with what it was — so the sweep passes them by; our policy reads "last used" from
// inside the transcript and is not fooled by it.
import { parseArgs } from "node:util";
import { formatBytes } from "../../shared/format.js";
import { visible } from "../../shared/visible-text.js";
import { sessionFinder } from "../plan/find-session.js";
import { externalSweeps, gatherPlanInputs } from "../plan/plan-inputs.js";
import { keepFromClaudeSweep } from "../keep/claude-keep.js";
import { describeInvalidConfig } from "../config/config-file.js";
import { CONFIG_FLAGS, STORE_FLAGS, configOptions } from "./config-command.js";
import { UsageError } from "./errors.js";
import type { CliIo } from "./io.js";
import { storeFlagsOf } from "./store-flags.js";

export const KEEP_HELP = `Usage: session-retention keep <id|path>… [options]
       session-retention keep --swept [options]

Keeps Claude Code sessions from Claude's own cleanup, which deletes transcripts for good (no trash)
once their file time is older than its cleanupPeriodDays (default 30): their file time becomes now,
and the change is audited with the time each had. Our policy reads when a session was last used
from inside its transcript, so this does not make it look recently used.

Options:
  --swept           every session Claude Code would delete the next time it runs (see \`plan\` or \`status\`)
  --root DIR        look in this pi store (repeatable)
  --store KIND:DIR  look in this store, e.g. claude:~/.claude (repeatable)
  --config FILE     use this config file
  --json            print one JSON document: what was kept, with the time each had
  -h, --help        this help

Examples:
  session-retention keep --swept
  session-retention keep 019a3f2e --store claude:~/.claude`;

export async function runKeep(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: {
      ...CONFIG_FLAGS,
      swept: { type: "boolean", default: false },
      json: { type: "boolean", default: false },
      ...STORE_FLAGS,
      help: { type: "boolean", short: "h", default: false },
    },
    allowPositionals: true,
    strict: true,
  });
  if (values.help) {
    io.stdout(KEEP_HELP);
    return 0;
  }
  if (values.swept === positionals.length > 0)
    throw new UsageError("keep wants session ids or paths, or --swept (not both)");
  const config = configOptions(values);
  const inputs = await gatherPlanInputs({
    config,
    flagStores: storeFlagsOf(values),
  });
  // Said here with every problem; the keep itself refuses too, on the file as it is then.
  if (!inputs.config.ok) {
    io.stderr(describeInvalidConfig(inputs.config));
    return 2;
  }
  const sessions = inputs.report.sessions;
  const byId = new Map(sessions.map((s) => [s.id, s]));
  const chosen = values.swept
    ? externalSweeps(inputs, new Set())
        .filter((sweep) => sweep.keepable)
        .flatMap((sweep) => sweep.ids.flatMap((id) => byId.get(id) ?? []))
    : positionals.map(sessionFinder(sessions));
  if (chosen.length === 0) {
    if (values.json) io.stdout(JSON.stringify({ kept: [], bytes: 0 }));
    else io.stdout("Nothing to keep: Claude Code's cleanup would delete no session now.");
    return 0;
  }
  const kept = keepFromClaudeSweep(chosen, { actor: "cli", config });
  const bytes = chosen.reduce((total, s) => total + s.sizeBytes, 0);
  if (values.json) {
    io.stdout(JSON.stringify({ kept, bytes }));
    return 0;
  }
  for (const k of kept) io.stdout(`kept ${visible(k.path)} (its time was ${k.before})`);
  io.stdout(
    `Kept ${kept.length} session${kept.length === 1 ? "" : "s"} (${formatBytes(bytes)}) from Claude Code's cleanup for another cleanupPeriodDays: their file time is now. ` +
      "The most recent of a project is what `claude --continue` picks; to keep sessions for good, raise cleanupPeriodDays in Claude's settings.",
  );
  return 0;
}
