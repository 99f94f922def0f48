// A wizard-sized delete through the dashboard's API in a 100,000-session store: the real `serve`
// process, 1,500 sessions chosen by hand (`POST /api/plan/selection`: the review step), deleted with
// the preview's id (`POST /api/delete`) and restored (`POST /api/trash/restore`), to the desktop
// trash and to the quarantine in turn, for five cycles on one running server — each time beside
// `trash-put` and `mv` of copies of the same files (delete-baselines.ts), so a busy spell of the
// shared machine falls on both alike. Targets (issue 29): desktop trash ≤ 1.5× `trash-put`,
// quarantine ≤ 3× `mv`, restore the same; the review step as fast on the fifth cycle as on the first.
// `node dist/bench/api-delete-bench.js [--quick] [--cycles N] [--profile DIR]` (`--profile`: the
// server runs with `--cpu-prof` into DIR); run by `npm run bench`; results in
// bench/api-delete-results.md.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { decodeSessionRows, SessionsResponseSchema } from "../shared/api.js";
import { PlanSchema } from "../shared/plan.js";
import { SoftDeleteResultSchema, TrashActionResultSchema } from "../shared/trash.js";
import { baselines, load, spread, verdict } from "./delete-baselines.js";
import { median, startServe, writeResults } from "./measure.js";
import { FULL_STORES, generateStore, QUICK_STORES } from "./synthetic-store.js";

const args = process.argv.slice(2);
const quick = args.includes("--quick");
const option = (name: string) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const spec = (quick ? QUICK_STORES : FULL_STORES).find((s) => s.name === "b")!;
const SELECTED = quick ? 300 : 1500;
const CYCLES = Number(option("--cycles") ?? 5);
const profile = option("--profile");
const repo = resolve(fileURLToPath(new URL("../..", import.meta.url)));

const work = mkdtempSync(join(tmpdir(), "sr-api-delete-bench-"));
const home = join(work, "home");
const agentDir = join(home, ".pi", "agent");
const store = join(work, "store");
mkdirSync(agentDir, { recursive: true });
mkdirSync(store);
console.log(`generating ${spec.sessions.toLocaleString("en")} sessions…`);
await generateStore(spec, store);
const loadBefore = load();

type Target = "trash" | "quarantine";
/** The config file the engine reads at each delete: hand selections may take any session. */
const configure = (target: Target) =>
  writeFileSync(
    join(agentDir, "session-retention.json"),
    JSON.stringify({
      retention: { minKeepRecentCount: 0, keepLastPerNamespace: 0, allowEmptyStore: true },
      activity: { graceMinutes: 0 },
      deletion: { target },
    }),
  );
configure("trash");

const { child, base, token } = await startServe(
  join(repo, "bin", "session-retention.js"),
  store,
  { HOME: home, PI_CODING_AGENT_DIR: agentDir, XDG_DATA_HOME: join(home, ".local", "share") },
  "server",
  // `--profile DIR`: the server's CPU profile, to see where a delete's time goes.
  profile ? ["--cpu-prof", `--cpu-prof-dir=${profile}`] : [],
);

/**
 * One API call on a connection of its own: between calls the baselines run for seconds, longer
 * than the server keeps an idle connection, and a reused one can be closed under the request.
 */
function call(path: string, body?: unknown): Promise<unknown> {
  const data = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((done, fail) => {
    const req = request(
      `${base}${path}`,
      {
        method: data === undefined ? "GET" : "POST",
        agent: false,
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          const text = Buffer.concat(chunks).toString();
          if (response.statusCode !== 200)
            fail(new Error(`${path}: ${response.statusCode} ${text.slice(0, 300)}`));
          else done(JSON.parse(text));
        });
      },
    );
    req.on("error", fail);
    req.end(data);
  });
}

/** The least recently used sessions in the store, as the table lists them (restored ones again). */
async function nextSelection() {
  const table = decodeSessionRows(SessionsResponseSchema.parse(await call("/api/sessions")));
  return table.slice(0, SELECTED).map((row) => ({ id: row.id, path: row.path }));
}

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const result = await work();
  return [result, (performance.now() - started) / 1000];
}

/** Per target, each cycle's seconds: the baselines, the review, the delete and the restore. */
const trials = { trash: [] as Trial[], quarantine: [] as Trial[] };
interface Trial {
  trashPut: number;
  mv: number;
  review: number;
  delete: number;
  restore: number;
}

async function cycle(target: Target, round: number) {
  configure(target);
  const chosen = await nextSelection();
  const { trashPut, mv } = baselines(
    chosen.map((c) => c.path),
    work,
  );
  const [plan, review] = await timed(async () =>
    PlanSchema.parse(await call("/api/plan/selection", { ids: chosen.map((c) => c.id) })),
  );
  if (plan.candidates.length !== SELECTED) throw new Error(`${target}: ${plan.candidates.length} candidates`);
  const [result, deleted] = await timed(async () =>
    SoftDeleteResultSchema.parse(await call("/api/delete", { previewId: plan.previewId })),
  );
  if (result.moved.length !== SELECTED || !result.operationId)
    throw new Error(`${target}: moved ${result.moved.length} of ${SELECTED}`);
  const [back, restore] = await timed(async () =>
    TrashActionResultSchema.parse(await call("/api/trash/restore", { refs: [result.operationId] })),
  );
  if (back.done.length !== SELECTED)
    throw new Error(`${target}: restored ${back.done.length} of ${SELECTED}`);
  trials[target].push({ trashPut, mv, review, delete: deleted, restore });
  console.log(
    `cycle ${round} ${target}: trash-put ${trashPut.toFixed(2)} s, mv ${mv.toFixed(2)} s, review ${review.toFixed(2)} s, delete ${deleted.toFixed(2)} s, restore ${restore.toFixed(2)} s`,
  );
}

await call("/api/summary"); // the first look is done; warm
for (let round = 1; round <= CYCLES; round++) {
  // Alternated, so neither target always follows the other.
  const order: Target[] = round % 2 ? ["trash", "quarantine"] : ["quarantine", "trash"];
  for (const target of order) await cycle(target, round);
}
child.kill("SIGTERM");
await new Promise((done) => child.once("exit", done));
rmSync(work, { recursive: true, force: true });

const of = (target: Target, key: keyof Trial) => trials[target].map((t) => t[key]);
const row = (label: string, target: Target, key: "delete" | "restore") => {
  const [baseline, limit] = target === "trash" ? (["trashPut", 1.5] as const) : (["mv", 3] as const);
  return `| ${label} | ${spread(of(target, key))} | ${spread(of(target, baseline))} | ${verdict(of(target, key), of(target, baseline), limit)} |`;
};
const reviews = [...of("trash", "review"), ...of("quarantine", "review")];
// The review step of the first cycle (both targets) beside that of the last.
const first = [trials.trash[0]!.review, trials.quarantine[0]!.review];
const last = [trials.trash.at(-1)!.review, trials.quarantine.at(-1)!.review];
const growth = median(last) / median(first);
const table = [
  `| ${SELECTED.toLocaleString("en")} sessions through the API | median (lowest–highest) | baseline: median (lowest–highest) | ratio | target | result |`,
  "| --- | --: | --: | --: | --- | --- |",
  row("delete → desktop trash (baseline: `trash-put`)", "trash", "delete"),
  row("restore from the desktop trash (baseline: `trash-put`)", "trash", "restore"),
  row("delete → quarantine (baseline: `mv`)", "quarantine", "delete"),
  row("restore from the quarantine (baseline: `mv`)", "quarantine", "restore"),
  `| review (\`POST /api/plan/selection\`), cycle ${CYCLES} beside cycle 1 | ${median(last).toFixed(2)} s | ${median(first).toFixed(2)} s | ${growth.toFixed(2)}× | ≤ 1.25× | ${growth <= 1.25 ? "PASS" : "FAIL"} |`,
];
const cycles = [
  "| cycle | review (trash, quarantine) |",
  "| --: | --- |",
  ...trials.trash.map(
    (t, i) => `| ${i + 1} | ${t.review.toFixed(2)} s, ${trials.quarantine[i]!.review.toFixed(2)} s |`,
  ),
];
const report = `# API delete benchmark

${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${spec.sessions.toLocaleString("en")} sessions (store B of the scan benchmark), the real \`serve\` process over HTTP on 127.0.0.1, a page not open. ${CYCLES} cycles on one running server, each: ${SELECTED.toLocaleString("en")} least recently used sessions chosen by hand, reviewed, deleted with the preview's id and restored, to the desktop trash and to the quarantine (alternating which goes first); beside each, \`trash-put\` and \`mv\` (xargs, one process each) of copies of the same files on the same file system. Trash restore has no one-shot command in trash-cli (\`trash-restore\` asks which file), so a restore is set beside the move into the same place. Load average (1/5/15 min) ${loadBefore} before, ${load()} after (two cores, shared).

${table.join("\n")}

Review step per cycle: all ${reviews.length} between ${Math.min(...reviews).toFixed(2)} s and ${Math.max(...reviews).toFixed(2)} s.

${cycles.join("\n")}
`;
if (!quick) await writeResults(join(repo, "bench", "api-delete-results.md"), report);
console.log(report);
