// Where a scan's time goes, phase by phase, in one process: module loading, the walk (readdir +
// lstat), loading the cache, reading (raw, then with the parser, at several chunk sizes), building
// records, summaries, sorting, JSON output, saving the cache — each timed on its own, with the RSS
// after it. It drives the scanner's exported pieces the way `scanStores` does; the total of a real
// `scanStores` call is printed last for comparison.
//
//   node dist/bench/scan-phases.js --root DIR [--cache FILE] [--chunks 65536,131072,1048576]
//
// Run it with HOME / PI_CODING_AGENT_DIR pointing at temporary folders, like the benchmark. Without
// --cache the "warm" phases use a cache built in a temporary file first.
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { piStores } from "../test-support/pi-stores.js";

const { values } = parseArgs({
  options: {
    root: { type: "string" },
    cache: { type: "string" },
    chunks: { type: "string", default: "65536,131072,1048576" },
  },
});
if (!values.root) throw new Error("--root DIR is required");
const root = values.root;
const chunks = values.chunks.split(",").map(Number);

const rows: Array<[string, number, number]> = [];
const mib = () => process.memoryUsage().rss / 2 ** 20;
function phase<T>(name: string, run: () => T): T {
  const started = performance.now();
  const result = run();
  rows.push([name, performance.now() - started, mib()]);
  return result;
}
async function phaseAsync<T>(name: string, run: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await run();
  rows.push([name, performance.now() - started, mib()]);
  return result;
}

// Module loading: everything `scan` needs, in the order the CLI loads it.
const bootMs = performance.now(); // process start → here: Node's own start-up
const loaded = await phaseAsync("load modules (scanner, cache, parser, record, summary, sort)", async () => ({
  scanner: await import("../server/scan/scanner.js"),
  walker: await import("../server/stores/pi/walker.js"),
  piFacts: await import("../server/stores/pi/pi-facts.js"),
  factsStore: await import("../server/state/facts-store.js"),
  identity: await import("../server/fs/file-identity.js"),
  reader: await import("../server/stores/pi/read-session-file.js"),
  record: await import("../server/stores/pi/pi-record.js"),
  summary: await import("../shared/scan-summary.js"),
  sort: await import("../shared/sort.js"),
}));
const { scanner, walker, piFacts, factsStore, identity, reader, record, summary, sort } = loaded;

const walked = await phaseAsync("walk (readdir + lstat)", () => walker.walkPiRoot(root));
const files = [...walked.files];
const totalBytes = walked.files.totalBytes;

for (const size of chunks) {
  const buffer = Buffer.allocUnsafe(size);
  phase(`read only, ${size / 1024} KiB chunks (open + readSync + close)`, () => {
    for (const file of files) {
      const fd = openSync(file.fsPath, "r");
      let position = 0;
      for (;;) {
        const read = readSync(fd, buffer, 0, size, position);
        if (read === 0) break;
        position += read;
      }
      closeSync(fd);
    }
  });
}

type Facts = ReturnType<typeof reader.readSessionFile>;
let facts: Facts[] = [];
for (const size of chunks) {
  const buffer = Buffer.allocUnsafe(size);
  facts = phase(`read + parse (readSessionFile), ${size / 1024} KiB chunks`, () =>
    files.map((file) => reader.readSessionFile(file.fsPath, buffer)),
  );
}

const records = phase("build records (buildPiRecord)", () =>
  files.map((file, i) =>
    record.buildPiRecord({
      root,
      path: file.path,
      folder: file.folder,
      birthtimeMs: file.birthtimeMs,
      nonUtf8Name: file.nonUtf8Name,
      precise: false,
      identity: facts[i]!.identity,
      facts: facts[i]!.facts,
    }),
  ),
);
const summaries = phase("summaries (summarizeSessions + summarizeNamespaces)", () => ({
  summary: summary.summarizeSessions(records, walked.problems, 20),
  namespaces: summary.summarizeNamespaces(records),
}));
phase("sort (lru)", () => records.sort(sort.compareSessions("lru")));
const out = openSync("/dev/null", "w");
phase("JSON output, one JSON.stringify per session, written to /dev/null", () => {
  const lines: string[] = [];
  for (let i = 0; i < records.length; i++) {
    lines.push(JSON.stringify(records[i]));
    if (lines.length === 1000 || i === records.length - 1) {
      writeSync(out, `${lines.join(",\n")}\n`);
      lines.length = 0;
    }
  }
});
phase("JSON output, one pretty JSON.stringify of the whole report", () => {
  writeSync(out, JSON.stringify({ ...summaries, sessions: records }, null, 2));
});
closeSync(out);

const scratch = mkdtempSync(join(tmpdir(), "scan-phases-"));
try {
  const cacheFile = values.cache ?? join(scratch, "facts.db");
  if (!values.cache) {
    phase("cold scanStores (fills the cache)", () => undefined);
    const started = performance.now();
    await scanner.scanStores({ stores: piStores(root), cacheFile });
    rows[rows.length - 1]![1] = performance.now() - started;
    rows[rows.length - 1]![2] = mib();
  }
  const store = factsStore.FactsStore.open(cacheFile)!;
  phase("look up every file's facts, a folder at a time, and compare identities (cache hits)", () => {
    const shelf = new factsStore.FolderShelf(store, piFacts.PI_FACTS, root);
    let hits = 0;
    for (const file of files) {
      const kept = typeof file.fsPath === "string" ? shelf.get(file.fsPath) : undefined;
      if (kept && identity.sameIdentity(kept.identity, file.identity)) hits += 1;
    }
    return hits;
  });
  phase("decode every file's facts (JSON)", () => {
    const shelf = new factsStore.FolderShelf(store, piFacts.PI_FACTS, root);
    for (const file of files) if (typeof file.fsPath === "string") piFacts.entryOf(shelf.get(file.fsPath));
  });
  store.close();
  const started = performance.now();
  const report = await scanner.scanStores({ stores: piStores(root), cacheFile });
  rows.push([
    `warm scanStores total (${report.stats.cacheHits} hits, ${report.stats.filesRead} read)`,
    performance.now() - started,
    mib(),
  ]);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

const width = Math.max(...rows.map((r) => r[0].length));
process.stdout.write(
  `${files.length} files, ${(totalBytes / 1e9).toFixed(2)} GB under ${root}; Node start-up before this script ran: ${bootMs.toFixed(0)} ms\n`,
);
for (const [name, ms, rss] of rows) {
  process.stdout.write(
    `${name.padEnd(width)}  ${ms.toFixed(0).padStart(7)} ms   RSS ${rss.toFixed(0).padStart(5)} MiB\n`,
  );
}
