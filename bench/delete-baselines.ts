// What a delete benchmark compares against, measured in the same run on the same files: `trash-put`
// (trash-cli) and a plain `mv` of copies of the sessions a delete takes, on the same file system,
// into the same home. Shared by delete-bench.ts (the CLI) and api-delete-bench.ts (the API).
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, rmSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { median } from "./measure.js";

/** Seconds a whole command takes, its input given on stdin (NUL-separated paths for xargs). */
function timedCommand(argv: string[], input: string, env: NodeJS.ProcessEnv): number {
  const started = performance.now();
  const run = spawnSync(argv[0]!, argv.slice(1), { input, env, stdio: ["pipe", "ignore", "pipe"] });
  const seconds = (performance.now() - started) / 1000;
  if (run.status !== 0) throw new Error(`${argv.join(" ")}: ${run.stderr?.toString() || run.status}`);
  return seconds;
}

/**
 * Copies `files` to a fresh folder under `work` (same file system as the store), then times
 * `trash-put` of the copies (into a home trash of their own) and `mv` of them to another folder: the two
 * baselines, one trial each. The copies are removed after.
 */
export function baselines(files: readonly string[], work: string) {
  // A home trash of its own, so that removing what trash-put put there touches nothing else.
  const env = { ...process.env, XDG_DATA_HOME: join(work, "baseline-data") };
  const from = join(work, "baseline");
  const to = join(work, "baseline-moved");
  const reset = () => {
    rmSync(from, { recursive: true, force: true });
    rmSync(to, { recursive: true, force: true });
    mkdirSync(from, { recursive: true });
    mkdirSync(to);
    return files.map((file, i) => {
      const copy = join(from, `${i}-${file.slice(file.lastIndexOf("/") + 1)}`);
      copyFileSync(file, copy);
      return copy;
    });
  };
  const list = (paths: string[]) => paths.join("\0");
  const trashPut = timedCommand(["xargs", "-0", "trash-put", "--"], list(reset()), env);
  const mv = timedCommand(["xargs", "-0", "mv", "-t", to, "--"], list(reset()), env);
  rmSync(from, { recursive: true, force: true });
  rmSync(to, { recursive: true, force: true });
  rmSync(join(env.XDG_DATA_HOME!, "Trash"), { recursive: true, force: true });
  return { trashPut, mv };
}

/** The median, lowest and highest of a row's trials, as a table shows them. */
export function spread(values: readonly number[]): string {
  return `${median(values).toFixed(2)} s (${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)})`;
}

/** A ratio of medians against its limit, as a table row ends. */
export function verdict(values: readonly number[], baseline: readonly number[], limit: number): string {
  const ratio = median(values) / median(baseline);
  return `${ratio.toFixed(2)}× | ≤ ${limit}× | ${ratio <= limit ? "PASS" : "FAIL"}`;
}

/** The machine's load averages (1, 5, 15 minutes), as a results file states them. */
export const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" / ");
