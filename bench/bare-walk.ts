// The floor a warm scan is measured against: a bare Node walk of a tree — a synchronous `readdir`
// and an `lstat` of every entry, folders walked into, nothing else — run as its own `node` process
// by bench/scan-bench.ts, so Node's start-up is in it as it is in a scan.
//
//   node dist/bench/bare-walk.js DIR
import { lstatSync, readdirSync } from "node:fs";

let files = 0;
let bytes = 0;
function walk(dir: string) {
  for (const name of readdirSync(dir)) {
    const path = `${dir}/${name}`;
    const stat = lstatSync(path);
    if (stat.isDirectory()) walk(path);
    else {
      files += 1;
      bytes += stat.size;
    }
  }
}

const root = process.argv[2];
if (!root) throw new Error("usage: node dist/bench/bare-walk.js DIR");
walk(root);
process.stdout.write(`${files} files, ${bytes} bytes\n`);
