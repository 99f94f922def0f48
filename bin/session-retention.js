#!/usr/bin/env node
// Entry point of the `session-retention` command. The TypeScript sources are compiled to dist/ by
// `npm run build` (a checkout) or before publishing (the package).
import { existsSync } from "node:fs";

const main = new URL("../dist/server/cli/main.js", import.meta.url);
if (!existsSync(main)) {
  console.error("session-retention: not built yet — run `npm run build` in the package folder first.");
  process.exit(2);
}
const { runCli } = await import(main.href);
process.exitCode = await runCli(process.argv.slice(2));
