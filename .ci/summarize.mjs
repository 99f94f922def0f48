// Adds up the JSON reports of vitest (unit tests, the real-agent suite) and Playwright into the one line CI reads: "N passed, N failed".
// A failing stage that runs no tests (typecheck, lint, build) counts as one failure.
import { existsSync, readFileSync } from "node:fs";

const status = Number(process.argv[2] ?? 0);
let passed = 0;
let failed = 0;
let skipped = 0;

// The unit tests' report, and the real-agent suite's (npm run test:agents, its own vitest config).
for (const file of ["test-reports/vitest.json", "test-reports/vitest-agents.json"]) {
  if (!existsSync(file)) continue;
  const report = JSON.parse(readFileSync(file, "utf8"));
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += report.numPendingTests + (report.numTodoTests ?? 0);
}
if (existsSync("test-reports/playwright.json")) {
  const { stats } = JSON.parse(readFileSync("test-reports/playwright.json", "utf8"));
  passed += stats.expected;
  failed += stats.unexpected + stats.flaky;
  skipped += stats.skipped;
}
if (status !== 0 && failed === 0) failed = 1;
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
