// Timing whole processes: spawn, start-up included, wall time measured around `spawnSync`, output to
// /dev/null. Peak RSS is the child's own: `/usr/bin/time -f %M` when present (it waits for the child
// and reports its getrusage), else a preload module in the child that writes its
// `process.resourceUsage().maxRSS` when it exits (Node children only).
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import {
  closeSync,
  cpSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { cpus, freemem, release, totalmem } from "node:os";
import { join } from "node:path";

export interface Command {
  /** Label in the tables. */
  label: string;
  argv: string[];
  /** A Node process (the RSS fallback can only measure those). */
  node?: boolean;
  /** Run untimed before each trial (e.g. append to 1% of the files). */
  before?: () => void;
}

export interface Measurement {
  label: string;
  command: string;
  seconds: number[];
  /** Peak RSS of each trial in KiB, where known. */
  rssKiB: number[];
}

const TIME = "/usr/bin/time";
export const haveTime = existsSync(TIME);

export interface RunnerOptions {
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Where the RSS reports go (a scratch folder). */
  scratch: string;
  /** Absolute path of the compiled preload module (fallback RSS). */
  rssPreload: string;
}

export class Runner {
  private readonly devNull = openSync("/dev/null", "w");

  constructor(private readonly options: RunnerOptions) {}

  close() {
    closeSync(this.devNull);
  }

  /**
   * One run: wall seconds, peak RSS (KiB) and, with /usr/bin/time, CPU seconds (user + system) of
   * the measured process — on a loaded machine its wall time is mostly waiting; throws if it fails.
   */
  once(command: Command): { seconds: number; rssKiB?: number; cpuSeconds?: number } {
    const rssFile = join(this.options.scratch, "rss.txt");
    rmSync(rssFile, { force: true });
    let argv = command.argv;
    const env = { ...this.options.env };
    if (haveTime) argv = [TIME, "-f", "%U %S %M", "-o", rssFile, ...argv];
    else if (command.node) {
      argv = [argv[0]!, "--import", this.options.rssPreload, ...argv.slice(1)];
      env.BENCH_RSS_FILE = rssFile;
    }
    const started = performance.now();
    const result = spawnSync(argv[0]!, argv.slice(1), {
      cwd: this.options.cwd,
      env,
      stdio: ["ignore", this.devNull, "pipe"],
      maxBuffer: 64 * 1024 * 1024,
    });
    const seconds = (performance.now() - started) / 1000;
    if (result.error) throw result.error;
    if (result.status !== 0) {
      throw new Error(
        `${command.label}: exit ${result.status ?? result.signal}: ${result.stderr.toString().slice(0, 2000)}`,
      );
    }
    let rssKiB: number | undefined;
    let cpuSeconds: number | undefined;
    if (existsSync(rssFile)) {
      const fields = readFileSync(rssFile, "utf8").trim().split("\n").at(-1)!.split(" ").map(Number);
      const value = fields.at(-1)!;
      if (Number.isFinite(value) && value > 0) rssKiB = value;
      if (fields.length === 3 && fields[0]! + fields[1]! >= 0) cpuSeconds = fields[0]! + fields[1]!;
    }
    return {
      seconds,
      ...(rssKiB === undefined ? {} : { rssKiB }),
      ...(cpuSeconds === undefined ? {} : { cpuSeconds }),
    };
  }

  /** One untimed pass (warms the page cache and the code paths), then `runs` timed ones. */
  measure(command: Command, runs: number): Measurement {
    command.before?.();
    this.once(command);
    const seconds: number[] = [];
    const rssKiB: number[] = [];
    for (let i = 0; i < runs; i++) {
      command.before?.();
      const trial = this.once(command);
      seconds.push(trial.seconds);
      if (trial.rssKiB !== undefined) rssKiB.push(trial.rssKiB);
    }
    return { label: command.label, command: command.argv.join(" "), seconds, rssKiB };
  }
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * Writes a results file as Prettier would (the repository's lint checks every Markdown file), so a
 * benchmark run leaves the tree as clean as it found it.
 */
export async function writeResults(file: string, markdown: string): Promise<void> {
  const prettier = await import("prettier");
  const options = (await prettier.resolveConfig(file)) ?? {};
  writeFileSync(file, await prettier.format(markdown, { ...options, filepath: file }));
}

/**
 * Copies bin/ and dist/{server,shared} of `repo` into `into` and returns the copy's CLI: a rebuild
 * of dist/ while a benchmark runs (others work in the same checkout) cannot change what is measured.
 */
export function snapshotBuild(repo: string, into: string): string {
  mkdirSync(join(into, "dist"), { recursive: true });
  cpSync(join(repo, "bin"), join(into, "bin"), { recursive: true });
  for (const part of ["server", "shared"])
    cpSync(join(repo, "dist", part), join(into, "dist", part), { recursive: true });
  cpSync(join(repo, "package.json"), join(into, "package.json"));
  symlinkSync(join(repo, "node_modules"), join(into, "node_modules"));
  return join(into, "bin", "session-retention.js");
}

/** The commit measured, and whether the sources differed from it. */
export function gitState(repo: string): string {
  const head = spawnSync("git", ["rev-parse", "--short", "HEAD"], {
    cwd: repo,
    encoding: "utf8",
  }).stdout?.trim();
  if (!head) return "unknown commit";
  const dirty = spawnSync("git", ["status", "--porcelain", "--", "server", "shared", "bin"], {
    cwd: repo,
    encoding: "utf8",
  }).stdout?.trim();
  return dirty ? `commit ${head} + uncommitted changes in server/shared/bin` : `commit ${head}`;
}

/**
 * Where and when a benchmark ran, in one line for its results file: the command, the time, Node,
 * the CPUs, memory, the kernel, the file system the store is on (of `dir`) and what was measured.
 */
export function machineLine(command: string, dir: string, measured: string): string {
  const cpu = cpus();
  const fsType =
    spawnSync("df", ["--output=fstype", dir], { encoding: "utf8" }).stdout?.trim().split("\n").at(-1) ?? "?";
  const when = new Date().toISOString().slice(0, 16).replace("T", " ");
  return `${command} on ${when} UTC · Node ${process.version} · ${cpu.length} CPU${cpu.length === 1 ? "" : "s"} (${cpu[0]?.model.trim() ?? "?"}) · ${(totalmem() / 2 ** 30).toFixed(0)} GiB RAM (${(freemem() / 2 ** 30).toFixed(0)} free) · Linux ${release()} · ${fsType} · ${measured}.`;
}

/** A `serve` started for a benchmark: its process, its address and the token its API wants. */
export interface BenchServer {
  child: ChildProcess;
  base: string;
  token: string;
}

/** A home of its own for a benchmark's server: pi's agent folder and the XDG data folder in it. */
export const benchHome = (home: string) => ({
  HOME: home,
  PI_CODING_AGENT_DIR: join(home, ".pi", "agent"),
  XDG_DATA_HOME: join(home, "share"),
});

/**
 * Starts `<bin> serve --port 0 --no-open --root <root>` with `env` over this process's and waits
 * for the address it prints — once its first look is done — or fails when it exits first
 * (`name` says which server, where a benchmark runs several).
 */
export async function startServe(
  bin: string,
  root: string,
  env: NodeJS.ProcessEnv,
  name = "server",
  nodeArgs: readonly string[] = [],
): Promise<BenchServer> {
  const child = spawn(
    process.execPath,
    [...nodeArgs, bin, "serve", "--port", "0", "--no-open", "--root", root],
    {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const url = await new Promise<string>((done, fail) => {
    let output = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const match = /http:\/\/127\.0\.0\.1:\d+\/#token=\S+/.exec(output);
      if (match) done(match[0]);
    });
    child.once("exit", (code) => fail(new Error(`${name} exited with ${code}`)));
  });
  const [base, token] = url.split("/#token=") as [string, string];
  return { child, base, token };
}
