import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: [
      "shared/**/*.test.ts",
      "server/**/*.test.ts",
      "extension/**/*.test.ts",
      "web/**/*.test.ts",
      "test-support/**/*.test.ts",
    ],
    // Two files at a time: CI has two cores (vitest's default is cores - 1), and much of the suite
    // waits on the child processes it starts. Each file runs in its own process with its own HOME and TMPDIR
    // (isolate-home.ts); what files still share — the machine's processes, ports, /tmp — each test
    // takes safely (port 0, mkdtemp, its own ids).
    maxWorkers: 2,
    setupFiles: ["test-support/isolate-home.ts"],
    globalSetup: ["test-support/build-once.ts"],
    // CI adds a JSON report that .ci/summarize.mjs turns into its "N passed, N failed" line.
    reporters: process.env.CI ? ["default", "json"] : ["default"],
    outputFile: { json: "test-reports/vitest.json" },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
