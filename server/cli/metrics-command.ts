// `session-retention metrics [--textfile FILE]`: the Prometheus metrics of `GET /metrics` without a
// server — printed, or written atomically for node_exporter's textfile collector (e.g. from cron).
import { parseArgs } from "node:util";
import { collectMetrics } from "../report/metrics.js";
import { resolveStores } from "../scan/resolve-roots.js";
import { writeOutputFile } from "../report/output-file.js";
import { loadConfig, rootOf } from "../config/config-file.js";
import { CONFIG_FLAGS, STORE_FLAGS, configOptions } from "./config-command.js";
import type { CliIo } from "./io.js";
import { storeFlagsOf } from "./store-flags.js";

export const METRICS_HELP = `Usage: session-retention metrics [--textfile FILE] [--config FILE] [--root DIR]… [--store KIND:DIR]…

Prints the stores' metrics in Prometheus text format, or writes them atomically to FILE (a .prom
file in node_exporter's --collector.textfile.directory: a temporary file in the same folder, renamed
over it), so a team can watch many machines. FILE's folder must exist; FILE must not be a folder.

Examples:
  session-retention metrics
  session-retention metrics --textfile /var/lib/node_exporter/session-retention.prom`;

export async function runMetrics(args: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      ...CONFIG_FLAGS,
      textfile: { type: "string" },
      ...STORE_FLAGS,
      help: { type: "boolean", short: "h", default: false },
    },
    strict: true,
  });
  if (values.help) {
    io.stdout(METRICS_HELP);
    return 0;
  }
  const config = configOptions(values);
  const configured = rootOf(loadConfig(config));
  const { stores } = resolveStores({ stores: storeFlagsOf(values) }, process.env, configured);
  const text = await collectMetrics({ stores, config });
  if (values.textfile)
    writeOutputFile(values.textfile, text, {
      what: "--textfile",
      stores: stores.map((s) => ({ path: s.root, label: `${s.kind} store` })),
      ...(configured.quarantineDir !== undefined ? { quarantine: configured.quarantineDir } : {}),
    });
  else io.stdout(text.trimEnd());
  return 0;
}
