// Preloaded (`node --import`) into a measured Node process when /usr/bin/time is missing: writes the
// process's own peak RSS in KiB to $BENCH_RSS_FILE as it exits, so the number is the child's, not
// the benchmark's.
import { writeFileSync } from "node:fs";

const file = process.env.BENCH_RSS_FILE;
if (file) {
  process.on("exit", () => {
    writeFileSync(file, `${process.resourceUsage().maxRSS}\n`);
  });
}
