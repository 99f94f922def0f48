// A delete of 1,500 sessions in a 100,000-session store through the real CLI (`clean --ids … --yes`,
// then `trash restore OPERATION`), whole processes (start-up, the scan the engine makes under its
// lock, journal, audit included), to the desktop trash and to the quarantine in turn for five
// cycles — each time beside `trash-put` and `mv` of copies of the same files (delete-baselines.ts),
// so a busy spell of the shared machine falls on both alike. Targets (issue 29): desktop trash
// ≤ 1.5× `trash-put`, quarantine ≤ 3× `mv`, restore the same. The facts store is warm (one `scan`
// before), as it is for anyone who ran the CLI before.
// `node dist/bench/delete-bench.js [--quick] [--cycles N]`; run by `npm run bench`; results in
// bench/delete-results.md (`--quick`: 5,000 sessions and 300 chosen, on stdout only).
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { SoftDeleteResultSchema, TrashActionResultSchema } from "../shared/trash.js";
import { baselines, load, spread, verdict } from "./delete-baselines.js";
import { writeResults } from "./measure.js";
import { FULL_STORES, generateStore, QUICK_STORES } from "./synthetic-store.js";

const args = process.argv.slice(2);
const quick = args.includes("--quick");
const at = args.indexOf("--cycles");
const CYCLES = at >= 0 ? Number(args[at + 1]) : 5;
const spec = (quick ? QUICK_STORES : FULL_STORES).find((s) => s.name === "b")!;
const SELECTED = quick ? 300 : 1500;
const repo = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const cli = join(repo, "bin", "session-retention.js");

const work = mkdtempSync(join(tmpdir(), "sr-delete-bench-"));
const home = join(work, "home");
const agentDir = join(home, ".pi", "agent");
const store = join(work, "store");
const config = join(work, "config.json");
mkdirSync(agentDir, { recursive: true });
const env = {
  ...process.env,
  HOME: home,
  PI_CODING_AGENT_DIR: agentDir,
  XDG_DATA_HOME: join(home, ".local", "share"),
};
console.log(`generating ${spec.sessions.toLocaleString("en")} sessions…`);
const { files } = await generateStore(spec, store);
// Every 60th session, spread over the store's folders; a restore brings the same ones back.
const chosen = files.filter((_, i) => i % Math.floor(files.length / SELECTED) === 0).slice(0, SELECTED);
const loadBefore = load();

type Target = "trash" | "quarantine";
const configure = (target: Target) =>
  writeFileSync(
    config,
    JSON.stringify({
      retention: { minKeepRecentCount: 0, keepLastPerNamespace: 0, allowEmptyStore: true },
      activity: { graceMinutes: 0 },
      deletion: { target },
    }),
  );

/** Runs the CLI; its JSON output and the seconds it took. */
function run(argv: string[]): [unknown, number] {
  const started = performance.now();
  const out = spawnSync(process.execPath, [cli, ...argv], { env, encoding: "utf8", maxBuffer: 1 << 28 });
  const seconds = (performance.now() - started) / 1000;
  if (out.status !== 0) throw new Error(`${argv[0]}: exit ${out.status}: ${out.stderr.slice(0, 500)}`);
  return [JSON.parse(out.stdout), seconds];
}

interface Trial {
  trashPut: number;
  mv: number;
  delete: number;
  restore: number;
}
const trials = { trash: [] as Trial[], quarantine: [] as Trial[] };

configure("quarantine");
run(["scan", "--root", store, "--config", config, "--json"]); // the facts store, warm
for (let round = 1; round <= CYCLES; round++) {
  const order: Target[] = round % 2 ? ["trash", "quarantine"] : ["quarantine", "trash"];
  for (const target of order) {
    configure(target);
    const { trashPut, mv } = baselines(chosen, work);
    const [cleaned, deleted] = run([
      "clean",
      "--ids",
      ...chosen,
      "--yes",
      "--json",
      "--root",
      store,
      "--config",
      config,
    ]);
    const result = SoftDeleteResultSchema.parse((cleaned as { result: unknown }).result);
    if (result.moved.length !== SELECTED || !result.operationId)
      throw new Error(`${target}: moved ${result.moved.length} of ${SELECTED}`);
    const [restored, restore] = run(["trash", "restore", result.operationId, "--json"]);
    const back = TrashActionResultSchema.parse(restored);
    if (back.done.length !== SELECTED)
      throw new Error(`${target}: restored ${back.done.length} of ${SELECTED}`);
    trials[target].push({ trashPut, mv, delete: deleted, restore });
    console.log(
      `cycle ${round} ${target}: trash-put ${trashPut.toFixed(2)} s, mv ${mv.toFixed(2)} s, clean ${deleted.toFixed(2)} s, restore ${restore.toFixed(2)} s`,
    );
  }
}
rmSync(work, { recursive: true, force: true });

const of = (target: Target, key: keyof Trial) => trials[target].map((t) => t[key]);
const row = (label: string, target: Target, key: "delete" | "restore") => {
  const [baseline, limit] = target === "trash" ? (["trashPut", 1.5] as const) : (["mv", 3] as const);
  return `| ${label} | ${spread(of(target, key))} | ${spread(of(target, baseline))} | ${verdict(of(target, key), of(target, baseline), limit)} |`;
};
const table = [
  `| ${SELECTED.toLocaleString("en")} sessions through the CLI | median (lowest–highest) | baseline: median (lowest–highest) | ratio | target | result |`,
  "| --- | --: | --: | --: | --- | --- |",
  row("`clean --ids … --yes` → desktop trash (baseline: `trash-put`)", "trash", "delete"),
  row("`trash restore OPERATION` from the desktop trash (baseline: `trash-put`)", "trash", "restore"),
  row("`clean --ids … --yes` → quarantine (baseline: `mv`)", "quarantine", "delete"),
  row("`trash restore OPERATION` from the quarantine (baseline: `mv`)", "quarantine", "restore"),
];
const report = `# Delete benchmark (CLI)

${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${spec.sessions.toLocaleString("en")} sessions (store B of the scan benchmark), ${SELECTED.toLocaleString("en")} of them (every ${Math.floor(files.length / SELECTED)}th) deleted with \`clean --ids PATH… --yes --json\` and restored with \`trash restore OPERATION --json\`, whole processes, the facts store warm; ${CYCLES} cycles, each to the desktop trash and to the quarantine (alternating which goes first), beside \`trash-put\` and \`mv\` (xargs, one process each) of copies of the same files on the same file system. Trash restore has no one-shot command in trash-cli, so a restore is set beside the move into the same place. Load average (1/5/15 min) ${loadBefore} before, ${load()} after (two cores, shared).

${table.join("\n")}
`;
if (!quick) await writeResults(join(repo, "bench", "delete-results.md"), report);
console.log(report);
