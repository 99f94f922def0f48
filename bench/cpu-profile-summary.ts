// Summarises a V8 `.cpuprofile` (from `node --cpu-prof`): self time per function and per file, and
// total (inclusive) time of the functions named on the command line — enough to see where a scan
// spends its time without opening DevTools.
//
//   node --cpu-prof --cpu-prof-dir=/tmp/prof bin/session-retention.js scan --root DIR --json >/dev/null
//   node dist/bench/cpu-profile-summary.js /tmp/prof/*.cpuprofile [--top 25] [--total walkPiRoot,loadScanCache]
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { top: { type: "string", default: "25" }, total: { type: "string", default: "" } },
});
const top = Number(values.top);
const wanted = values.total ? values.total.split(",") : [];

const shortUrl = (url: string) =>
  url
    .replace(/^file:\/\/.*?\/dist\//, "dist/")
    .replace(/^file:\/\/.*?\/node_modules\//, "node_modules/")
    .replace(/^file:\/\/.*?\/bin\//, "bin/") || "(native / V8)";

for (const file of positionals) {
  const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const selfUs = new Map<number, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i]!;
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  const totalMs = (profile.endTime - profile.startTime) / 1000;
  const label = (n: ProfileNode) =>
    `${n.callFrame.functionName || "(anonymous)"} ${shortUrl(n.callFrame.url)}${n.callFrame.url ? `:${n.callFrame.lineNumber + 1}` : ""}`;

  const selfByFunction = new Map<string, number>();
  const selfByFile = new Map<string, number>();
  const totalByName = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const n = byId.get(id)!;
    selfByFunction.set(label(n), (selfByFunction.get(label(n)) ?? 0) + us);
    const url = shortUrl(n.callFrame.url);
    selfByFile.set(url, (selfByFile.get(url) ?? 0) + us);
    // Inclusive time: count the sample once for every wanted name on its stack.
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const name = byId.get(at)!.callFrame.functionName;
      if (wanted.includes(name) && !seen.has(name)) {
        seen.add(name);
        totalByName.set(name, (totalByName.get(name) ?? 0) + us);
      }
    }
  }
  const rows = (map: Map<string, number>, limit: number) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, limit)
      .map(
        ([name, us]) =>
          `  ${(us / 1000).toFixed(1).padStart(8)} ms  ${((us / 10 / totalMs) | 0).toString().padStart(3)}%  ${name}`,
      )
      .join("\n");
  console.log(`${file}: ${totalMs.toFixed(0)} ms profiled, ${profile.samples.length} samples`);
  console.log(`self time by function (top ${top}):\n${rows(selfByFunction, top)}`);
  console.log(`self time by file:\n${rows(selfByFile, 15)}`);
  if (wanted.length) console.log(`total time of:\n${rows(totalByName, wanted.length)}`);
  console.log("");
}
