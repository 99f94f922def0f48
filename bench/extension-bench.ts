// What the pi extension costs pi's start-up on a 20,000-session store (store A of the scan bench):
// pi's real runtime started with and without the extension (loaded from this package's "pi"
// manifest), the time until the first look at the stores is in, and how long pi's own thread is
// held up meanwhile (the largest event-loop delay while the worker scans). Target: a session start
// is never blocked for more than ~100 ms. `node dist/bench/extension-bench.js [--quick]`.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { median, writeResults } from "./measure.js";
import { FULL_STORES, generateStore, QUICK_STORES } from "./synthetic-store.js";

const quick = process.argv.includes("--quick");
const spec = (quick ? QUICK_STORES : FULL_STORES).find((s) => s.name === "a")!;
const RUNS = quick ? 2 : 5;
const repo = resolve(fileURLToPath(new URL("../..", import.meta.url)));

const work = mkdtempSync(join(tmpdir(), "sr-extension-bench-"));
const home = join(work, "home");
const agentDir = join(home, ".pi", "agent");
const project = join(home, "project");
mkdirSync(project, { recursive: true });
// Set before pi is imported: it reads the agent dir from the environment.
process.env.HOME = home;
process.env.PI_CODING_AGENT_DIR = agentDir;
process.env.XDG_DATA_HOME = join(home, ".local", "share");
console.log(`generating ${spec.sessions.toLocaleString("en")} sessions…`);
await generateStore(spec, join(agentDir, "sessions"));
// A quota the store is over, so the look has a plan with candidates to make.
writeFileSync(
  join(agentDir, "session-retention.json"),
  JSON.stringify({ quota: { maxSessionCount: spec.sessions / 2 } }),
);

const pi = await import("@mariozechner/pi-coding-agent");

interface Run {
  /** From creating pi's runtime to its session start being handled (extensions loaded and bound). */
  startMs: number;
  /** From the session start until the extension's first look is in. */
  lookMs?: number;
  /** The largest event-loop delay on pi's thread from the start until the look is in. */
  maxBlockMs: number;
}

async function startPi(withExtension: boolean): Promise<Run> {
  const eventBus = pi.createEventBus();
  const looked = new Promise<number>((done) =>
    eventBus.on("session-retention:looked", () => done(performance.now())),
  );
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const started = performance.now();
  const createRuntime: Parameters<typeof pi.createAgentSessionRuntime>[0] = async ({
    cwd,
    sessionManager,
    sessionStartEvent,
  }) => {
    const services = await pi.createAgentSessionServices({
      cwd,
      agentDir,
      resourceLoaderOptions: {
        eventBus,
        additionalExtensionPaths: withExtension ? [repo] : [],
        noSkills: true,
        noPromptTemplates: true,
        noThemes: true,
        noContextFiles: true,
      },
    });
    return {
      ...(await pi.createAgentSessionFromServices({
        services,
        sessionManager,
        ...(sessionStartEvent ? { sessionStartEvent } : {}),
      })),
      services,
      diagnostics: services.diagnostics,
    };
  };
  const runtime = await pi.createAgentSessionRuntime(createRuntime, {
    cwd: project,
    agentDir,
    sessionManager: pi.SessionManager.create(project),
  });
  await runtime.session.bindExtensions({});
  const bound = performance.now();
  const lookedAt = withExtension ? await looked : undefined;
  delay.disable();
  await runtime.dispose();
  return {
    startMs: bound - started,
    ...(lookedAt !== undefined ? { lookMs: lookedAt - bound } : {}),
    maxBlockMs: delay.max / 1e6,
  };
}

// The first start with the extension scans with an empty cache (a cold look); then warm ones.
const cold = await startPi(true);
const without: Run[] = [];
const withExt: Run[] = [];
for (let i = 0; i < RUNS; i++) {
  without.push(await startPi(false));
  withExt.push(await startPi(true));
}
rmSync(work, { recursive: true, force: true });

const piVersion = JSON.parse(
  readFileSync(join(repo, "node_modules", "@mariozechner", "pi-coding-agent", "package.json"), "utf8"),
).version;
const ms = (v: number) => `${v.toFixed(0)} ms`;
const verdict = (ok: boolean) => (ok ? "pass" : "FAIL");
const startCost = median(withExt.map((r) => r.startMs)) - median(without.map((r) => r.startMs));
const worstBlock = Math.max(cold.maxBlockMs, ...withExt.map((r) => r.maxBlockMs));
const rows = [
  `| pi start-up without the extension (median of ${RUNS}) | ${ms(median(without.map((r) => r.startMs)))} | | baseline |`,
  `| pi start-up with the extension (median of ${RUNS}) | ${ms(median(withExt.map((r) => r.startMs)))} | | info |`,
  `| first pi start-up with the extension in a fresh process (its modules loaded) | ${ms(cold.startMs)} | ≤ 100 ms | ${verdict(cold.startMs <= 100)} |`,
  `| **what the extension adds to a session start** | ${ms(startCost)} | ≤ 100 ms | **${verdict(startCost <= 100)}** |`,
  `| **longest hold-up of pi's thread** while the first look runs (event-loop delay, worst run) | ${ms(worstBlock)} | ≤ 100 ms | **${verdict(worstBlock <= 100)}** |`,
  `| first look in, cold (empty scan cache, in the background) | ${ms(cold.lookMs!)} | | info |`,
  `| first look in, warm (median of ${RUNS}, in the background) | ${ms(median(withExt.map((r) => r.lookMs!)))} | | info |`,
];
const report = `# Extension benchmark\n\n${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${spec.sessions.toLocaleString("en")} sessions (store A of the scan benchmark) in pi's default store, pi ${piVersion}'s real runtime in this process (no model call).\n\n| measurement | result | target | |\n| --- | --- | --- | --- |\n${rows.join("\n")}\n`;
if (!quick) await writeResults(join(repo, "bench", "extension-results.md"), report);
console.log(report);
