// `session-retention config schema|check|show`: the config file's JSON Schema, its validation, and
// the effective settings with every default filled in.
import { parseArgs } from "node:util";
import { configJsonSchema } from "../../shared/config.js";
import { visible } from "../../shared/visible-text.js";
import { type ConfigStatus, describeInvalidConfig, loadConfig } from "../config/config-file.js";
import type { CliIo } from "./io.js";
import { UsageError } from "./errors.js";

export const CONFIG_HELP = `Usage: session-retention config <schema|check|show> [options]

  schema          print the JSON Schema of the config file (point "$schema" at it for editor help)
  check           validate the config file; exit 0 when valid, 2 when not
  show            print the effective config: the file with every default filled in

Options:
  --config FILE   use this config file instead of <agentDir>/session-retention.json
  --set KEY=VALUE override one setting, e.g. --set quota.maxSessionCount=500 (repeatable)
  -h, --help      this help

Examples:
  session-retention config check
  session-retention config show --set quota.maxSessionCount=500
  session-retention config schema > session-retention.schema.json`;

/** The invalid-config message, with what it quotes from the file made visible: a key may hold any character. */
export function invalidConfigText(status: Extract<ConfigStatus, { ok: false }>): string {
  return describeInvalidConfig({
    ...status,
    path: visible(status.path),
    problems: status.problems.map((p) => ({
      path: visible(p.path),
      message: visible(p.message),
      ...(p.from !== undefined ? { from: visible(p.from) } : {}),
    })),
  });
}

/** Parses the options every policy-reading command shares. */
export function configOptions(values: { config?: string | undefined; set?: string[] | undefined }) {
  return { ...(values.config !== undefined ? { file: values.config } : {}), sets: values.set ?? [] };
}

/** `--config FILE` and `--set KEY=VALUE`, for every command that reads the policy. */
export const CONFIG_FLAGS = {
  config: { type: "string" as const },
  set: { type: "string" as const, multiple: true as const, default: [] as string[] },
};

export { STORE_FLAGS } from "./store-flags.js";

export async function runConfig(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: { ...CONFIG_FLAGS, help: { type: "boolean", short: "h", default: false } },
    allowPositionals: true,
    strict: true,
  });
  const [action, ...extra] = positionals;
  if (values.help || action === undefined) {
    io.stdout(CONFIG_HELP);
    return values.help ? 0 : 2;
  }
  if (extra.length > 0) throw new UsageError(`config ${action}: unexpected "${extra[0]}"`);
  if (action === "schema") {
    io.stdout(JSON.stringify(configJsonSchema(), null, 2));
    return 0;
  }
  if (action !== "check" && action !== "show")
    throw new UsageError(`config: unknown action "${action}" (schema, check or show)`);
  const status = loadConfig(configOptions(values));
  if (!status.ok) {
    io.stderr(invalidConfigText(status));
    return 2;
  }
  if (action === "show") io.stdout(JSON.stringify(status.config, null, 2));
  else
    io.stdout(
      status.source === "defaults"
        ? `no config file at ${visible(status.path)}: the defaults apply (valid)`
        : `${visible(status.path)}: valid`,
    );
  return 0;
}
