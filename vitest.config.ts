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
    setupFiles: ["test-support/isolate-home.ts"],
    globalSetup: ["test-support/build-once.ts"],
    // CI adds a JSON report that .ci/summarize.mjs turns into its "N passed, N failed" line.
    reporters: process.env.CI ? ["default", "json"] : ["default"],
    outputFile: { json: "test-reports/vitest.json" },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
