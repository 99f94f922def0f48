// A wizard-sized delete through the dashboard's API in a 100,000-session store: the real `serve`
// process, 1,500 sessions chosen by hand (`POST /api/plan/selection`), then executed. Target: the
// delete ≤ 3 s. Measured three ways on the same server, each on its own 1,500 sessions:
//   - one request with the preview's id, to the desktop trash (what the wizard sends now);
//   - the same to the quarantine (the config file is edited between runs: the engine reads it);
//   - ids and fingerprints in requests of 300, as the wizard sent them before previews were kept
//     (each request a fresh scan of the whole store): the cost that previews remove.
// `node dist/bench/api-delete-bench.js [--quick]`; run by `npm run bench`; results in
// bench/api-delete-results.md.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { decodeSessionRows, SessionsResponseSchema } from "../shared/api.js";
import { PlanSchema } from "../shared/plan.js";
import { SoftDeleteResultSchema } from "../shared/trash.js";
import { startServe, writeResults } from "./measure.js";
import { FULL_STORES, generateStore, QUICK_STORES } from "./synthetic-store.js";

const quick = process.argv.includes("--quick");
const spec = (quick ? QUICK_STORES : FULL_STORES).find((s) => s.name === "b")!;
const SELECTED = 1500;
const TARGET_SECONDS = 3;
const repo = resolve(fileURLToPath(new URL("../..", import.meta.url)));

const work = mkdtempSync(join(tmpdir(), "sr-api-delete-bench-"));
const home = join(work, "home");
const agentDir = join(home, ".pi", "agent");
const store = join(work, "store");
mkdirSync(agentDir, { recursive: true });
mkdirSync(store);
console.log(`generating ${spec.sessions.toLocaleString("en")} sessions…`);
await generateStore(spec, store);

/** The config file the engine reads at each delete: hand selections may take any session. */
const configure = (target: "trash" | "quarantine") =>
  writeFileSync(
    join(agentDir, "session-retention.json"),
    JSON.stringify({
      retention: { minKeepRecentCount: 0, keepLastPerNamespace: 0, allowEmptyStore: true },
      activity: { graceMinutes: 0 },
      deletion: { target },
    }),
  );
configure("trash");

const { child, base, token } = await startServe(join(repo, "bin", "session-retention.js"), store, {
  HOME: home,
  PI_CODING_AGENT_DIR: agentDir,
  XDG_DATA_HOME: join(home, ".local", "share"),
});

async function call(path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${base}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${path}: ${response.status} ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

/** The least recently used sessions still in the store, as the table lists them. */
async function nextSelection(): Promise<string[]> {
  const table = decodeSessionRows(SessionsResponseSchema.parse(await call("/api/sessions")));
  return table.slice(0, SELECTED).map((row) => row.id);
}

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const result = await work();
  return [result, (performance.now() - started) / 1000];
}

interface Row {
  label: string;
  reviewSeconds: number;
  deleteSeconds: number;
  moved: number;
  target: boolean;
}
const rows: Row[] = [];

async function run(label: string, target: "trash" | "quarantine", batched: boolean) {
  configure(target);
  const ids = await nextSelection();
  const [plan, reviewSeconds] = await timed(async () =>
    PlanSchema.parse(await call("/api/plan/selection", { ids })),
  );
  if (plan.candidates.length !== SELECTED) throw new Error(`${label}: ${plan.candidates.length} candidates`);
  const [moved, deleteSeconds] = await timed(async () => {
    const requests = batched
      ? Array.from({ length: Math.ceil(SELECTED / 300) }, (_, i) => ({
          items: plan.candidates
            .slice(i * 300, (i + 1) * 300)
            .map((c) => ({ id: c.id, fingerprint: c.fingerprint })),
        }))
      : [{ previewId: plan.previewId }];
    let count = 0;
    for (const request of requests)
      count += SoftDeleteResultSchema.parse(await call("/api/delete", request)).moved.length;
    return count;
  });
  if (moved !== SELECTED) throw new Error(`${label}: moved ${moved} of ${SELECTED}`);
  rows.push({ label, reviewSeconds, deleteSeconds, moved, target: !batched });
  console.log(`${label}: review ${reviewSeconds.toFixed(2)} s, delete ${deleteSeconds.toFixed(2)} s`);
}

await call("/api/summary"); // the first look is done; warm
await run("one request with the preview's id → desktop trash", "trash", false);
await run("one request with the preview's id → quarantine", "quarantine", false);
await run("ids + fingerprints in requests of 300 (before previews) → quarantine", "quarantine", true);
child.kill("SIGTERM");
rmSync(work, { recursive: true, force: true });

const verdict = (row: Row) =>
  row.target ? (row.deleteSeconds <= TARGET_SECONDS ? "pass" : "FAIL") : "(old way)";
const table = [
  "| delete of 1,500 sessions through the API | review (plan/selection) | delete | target | |",
  "| --- | --: | --: | --- | --- |",
  ...rows.map(
    (r) =>
      `| ${r.label} | ${r.reviewSeconds.toFixed(2)} s | ${r.deleteSeconds.toFixed(2)} s | ${r.target ? `≤ ${TARGET_SECONDS} s` : ""} | ${verdict(r)} |`,
  ),
];
const report = `# API delete benchmark\n\n${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${spec.sessions.toLocaleString("en")} sessions (store B of the scan benchmark), the real \`serve\` process over HTTP on 127.0.0.1. Each delete takes its own fresh scan of the store under the deletion lock (reusing the server's last look for files unchanged since) and reads the config file anew.\n\n${table.join("\n")}\n`;
if (!quick) await writeResults(join(repo, "bench", "api-delete-results.md"), report);
console.log(report);
