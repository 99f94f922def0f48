// The real-agent suite (`npm run test:agents`): the real agent CLIs pinned in test-agents/ (installed
// by the suite's first run) write their sessions against a mock model on 127.0.0.1, and our scan,
// plan, clean and trash restore are checked against what each agent itself lists. One file per
// agent, one at a time (each runs several agent processes; the machine may have two cores), with
// timeouts for real programs starting.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test-agents/*.test.ts"],
    setupFiles: ["test-support/isolate-home.ts"],
    // Our CLI runs in the test's process (from source): only the agents need installing first.
    globalSetup: ["test-support/agents/install-once.ts"],
    fileParallelism: false,
    reporters: process.env.CI ? ["default", "json"] : ["default"],
    outputFile: { json: "test-reports/vitest-agents.json" },
    testTimeout: 180_000,
    hookTimeout: 600_000,
  },
});
