// A watched update at 100,000 sessions, this build beside another (`--before DIR`: a checkout with
// bin/ and dist/ built, the code before a change), measured in one run: each build's real `serve`
// on its own copy of store B, a page following its event stream, and trials taken in turn (A B B A
// …) so that a busy spell of the machine falls on both alike. Per trial: how long an appended line
// takes to show in GET /api/summary (target ≤ 1 s), and the CPU the server spends on one update —
// the scan of what changed, the new look, the page's change of it and the heap tidy after it (an
// append, then 3.5 s of quiet; nothing polls meanwhile). Then the update's own part alone, in this
// process (each build's looks over its copy, in turn): the CPU of the gather of one watched update —
// the scan of what changed and what a look gathers beside the stores, without the page's change of
// it — which a busy machine blurs less than a server's whole update. Medians, with the lowest and
// highest.
// `node dist/bench/watch-bench.js [--quick] [--runs N] [--before DIR]`; run by `npm run bench`
// (this build alone).
import type { ChildProcess } from "node:child_process";
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import {
  benchHome,
  gitState,
  machineLine,
  median,
  snapshotBuild,
  startServe,
  writeResults,
} from "./measure.js";
import { FULL_STORES, generateStore, QUICK_STORES } from "./synthetic-store.js";
import { piStores } from "../test-support/pi-stores.js";

const args = process.argv.slice(2);
const quick = args.includes("--quick");
const option = (name: string) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const spec = (quick ? QUICK_STORES : FULL_STORES).find((s) => s.name === "b")!;
const RUNS = Number(option("--runs") ?? (quick ? 3 : 9));
const before = option("--before");
const repo = resolve(fileURLToPath(new URL("../..", import.meta.url)));

const work = mkdtempSync(join(tmpdir(), "sr-watch-bench-"));
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

interface Server {
  name: string;
  child: ChildProcess;
  base: string;
  headers: Record<string, string>;
  files: readonly string[];
  /** The stores' total as the API should say it once every append is in. */
  expectedBytes: number;
  latencyMs: number[];
  cpuMs: number[];
  stopEvents: () => void;
}

/** `bin`'s `serve`, watching a copy of the store, once its first look is taken and a page follows it. */
async function startServer(
  name: string,
  bin: string,
  store: string,
  files: readonly string[],
): Promise<Server> {
  const home = join(work, `home-${name}`);
  const root = join(work, `store-${name}`);
  mkdirSync(home);
  cpSync(store, root, { recursive: true });
  const { child, base, token } = await startServe(bin, root, benchHome(home), `${name}: server`);
  const headers = { Authorization: `Bearer ${token}` };
  // A page open: it follows the look's events, as the dashboard does.
  const events = await fetch(`${base}/api/events`, { headers });
  const reader = events.body!.getReader();
  void (async () => {
    for (;;) if ((await reader.read().catch(() => ({ done: true }))).done) return;
  })();
  const server: Server = {
    name,
    child,
    base,
    headers,
    files: files.map((file) => join(root, file.slice(store.length))),
    expectedBytes: 0,
    latencyMs: [],
    cpuMs: [],
    stopEvents: () => void reader.cancel().catch(() => {}),
  };
  server.expectedBytes = (await summary(server)).totalBytes; // the first look
  return server;
}

async function summary(server: Server): Promise<{ totalBytes: number }> {
  const response = await fetch(`${server.base}/api/summary`, { headers: server.headers });
  if (!response.ok) throw new Error(`${server.name}: GET /api/summary ${response.status}`);
  return ((await response.json()) as { summary: { totalBytes: number } }).summary;
}

/** The server's CPU time so far (user + system), in ms. */
function cpuMs(server: Server): number {
  const stat = readFileSync(`/proc/${server.child.pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) / 100) * 1000;
}

let appended = 0;
const line = () =>
  `${JSON.stringify({
    type: "message",
    id: (0x30000000 + appended).toString(16),
    parentId: null,
    timestamp: new Date().toISOString(),
    message: {
      role: "user",
      content: `appended while the dashboard watches, ${appended++}`,
      timestamp: Date.now(),
    },
  })}\n`;
const fileFor = (server: Server, trial: number) =>
  server.files[(trial * 7919 + appended) % server.files.length]!;

/** Polls the API every 20 ms until the look holds every byte appended so far; the time it took. */
async function shown(server: Server) {
  const started = performance.now();
  while ((await summary(server)).totalBytes !== server.expectedBytes) {
    if (performance.now() - started > 30_000) throw new Error(`${server.name}: an append never showed`);
    await sleep(20);
  }
  return performance.now() - started;
}

/** Appends a line to one of the server's sessions, as an agent does. */
function append(server: Server, n: number) {
  const text = line();
  appendFileSync(fileFor(server, n), text);
  server.expectedBytes += Buffer.byteLength(text);
}

/** One trial: an append shown in the API (polled), then one update's CPU with nobody asking. */
async function trial(server: Server, n: number) {
  await shown(server); // the last trial's update is in (not timed)
  const started = performance.now();
  append(server, n);
  await shown(server);
  server.latencyMs.push(performance.now() - started);
  await sleep(3500); // its update, the page's change and the heap tidy after 2 s of quiet are done
  const cpu = cpuMs(server);
  append(server, n);
  await sleep(3500);
  server.cpuMs.push(cpuMs(server) - cpu);
}

console.log(`generating ${spec.sessions.toLocaleString("en")} sessions…`);
const store = join(work, "store");
mkdirSync(store);
const generated = await generateStore(spec, store);
// Each build runs from a copy of its own: a rebuild of a checkout while this runs changes nothing.
const builds: Array<[string, string]> = [["this build", snapshotBuild(repo, join(work, "build-this"))]];
if (before) builds.unshift(["before", snapshotBuild(resolve(before), join(work, "build-before"))]);
const servers: Server[] = [];
try {
  for (const [name, bin] of builds) {
    console.log(`starting ${name}…`);
    servers.push(await startServer(name, bin, store, generated.files));
  }
  await sleep(3000); // the first looks' collections settle
  for (let i = 0; i < RUNS; i++) {
    // A B, then B A: neither build always goes first.
    const order = i % 2 === 0 ? servers : [...servers].reverse();
    for (const server of order) await trial(server, i);
    console.log(
      `trial ${i + 1}/${RUNS}: ${servers.map((s) => `${s.name} ${s.latencyMs.at(-1)!.toFixed(0)} ms shown, ${s.cpuMs.at(-1)!.toFixed(0)} ms CPU`).join("; ")}`,
    );
  }
} finally {
  for (const server of servers) {
    server.stopEvents();
    server.child.kill("SIGTERM");
  }
}

interface InProcess {
  name: string;
  files: readonly string[];
  /** CPU ms of each watched update's gather. */
  cpuMs: number[];
  done: () => number;
  close: () => void;
}

/** `dir`'s looks over its server's copy of the store, in this process, watched; no page follows. */
async function lookInProcess(name: string, dir: string, server: Server): Promise<InProcess> {
  const module = (path: string) => import(pathToFileURL(join(dir, "dist", "server", path)).href);
  const { createLooks } = (await module("http/looks.js")) as typeof import("../server/http/looks.js");
  const { gatherPlanInputs } = (await module(
    "plan/plan-inputs.js",
  )) as typeof import("../server/plan/plan-inputs.js");
  const home = join(work, `home-${name}`);
  const env = { ...process.env, HOME: home, PI_CODING_AGENT_DIR: join(home, ".pi", "agent") };
  const root = join(work, `store-${name}`);
  const cpuMs: number[] = [];
  let updates = 0;
  const looks = createLooks({
    gather: async (options) => {
      const started = process.cpuUsage();
      const inputs = await gatherPlanInputs({ flagStores: piStores(root), env, ...options });
      if (options.growth === "read-only") {
        const used = process.cpuUsage(started);
        cpuMs.push((used.user + used.system) / 1000);
        updates += 1;
      }
      return inputs;
    },
    watch: {
      stores: [{ kind: "pi", root }],
      metaDir: join(home, ".pi", "agent", "sessions-meta"),
      config: { env },
    },
    freshMs: 3_600_000,
    reconcileMs: 3_600_000,
    followers: () => 0,
    onLook: () => {},
    onWatch: () => {},
  });
  await looks.gather();
  return { name, files: server.files, cpuMs, done: () => updates, close: () => looks.close() };
}

const inProcess: InProcess[] = [];
try {
  for (const [index, [name]] of builds.entries())
    inProcess.push(await lookInProcess(name, name === "before" ? before! : repo, servers[index]!));
  await sleep(3000); // the state folders seen, their looks taken
  for (let i = 0; i < RUNS * 2; i++) {
    const order = i % 2 === 0 ? inProcess : [...inProcess].reverse();
    for (const one of order) {
      const was = one.done();
      appendFileSync(one.files[(i * 104_729 + 17) % one.files.length]!, line());
      const started = performance.now();
      while (one.done() === was) {
        if (performance.now() - started > 30_000) throw new Error(`${one.name}: no update in this process`);
        await sleep(10);
      }
      await sleep(300); // the next build's update does not meet this one's garbage
    }
  }
} finally {
  for (const one of inProcess) one.close();
}
const machine = machineLine(
  "node dist/bench/watch-bench.js",
  work,
  `${gitState(repo)}${before ? `, against ${before}` : ""}`,
);
rmSync(work, { recursive: true, force: true });

const spread = (values: readonly number[]) =>
  `${median(values).toFixed(0)} ms (${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)})`;
const rows = [
  ...inProcess.map(
    (one) =>
      `| ${one.name} | CPU of one watched update's gather (the scan of what changed, and what is gathered beside it), in this process | ${spread(one.cpuMs)} | — |`,
  ),
  ...servers.flatMap((server) => [
    `| ${server.name} | CPU of one watched update, a page open | ${spread(server.cpuMs)} | — |`,
    `| ${server.name} | an append shows in GET /api/summary, a page open | ${spread(server.latencyMs)} | ≤ 1,000 ms: ${Math.max(...server.latencyMs) <= 1000 ? "pass" : "FAIL"} (slowest) |`,
  ]),
];
const report = `# Watched-update benchmark

${machine}

${spec.sessions.toLocaleString("en")} sessions (store B), each build's real \`serve\` on its own copy, a page following the event stream; ${RUNS} trials each, taken in turn (A B, B A, …); then ${RUNS * 2} updates of each build's looks in this process, in turn. Median (lowest–highest).

| build | measurement | median (range) | target |
| --- | --- | --- | --- |
${rows.join("\n")}
`;
if (!quick) await writeResults(join(repo, "bench", "watch-results.md"), report);
console.log(report);
