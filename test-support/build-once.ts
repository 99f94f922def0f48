// Vitest global setup: compile once (incrementally) before the tests, because some tests run the
// real CLI or the deletion engine in child processes — a crash harness has to kill a real process.
import { execFileSync } from "node:child_process";

export default function setup() {
  execFileSync(process.execPath, ["node_modules/typescript/bin/tsc", "-b"], { stdio: "inherit" });
}
