// End-to-end tests in a real Chromium against a real server on temporary stores.
// Debian's /usr/bin/chromium is used when present (Playwright cannot download its own browser on
// machines without general internet); elsewhere `npx playwright install chromium` provides one.
import { existsSync } from "node:fs";
import { defineConfig, devices } from "@playwright/test";

const systemChromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const useSystemChromium = existsSync(systemChromium);

export default defineConfig({
  testDir: "e2e",
  fullyParallel: false,
  workers: 1,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 30_000,
  reporter: process.env.CI
    ? [["list"], ["json", { outputFile: "test-reports/playwright.json" }]]
    : [["list"]],
  use: {
    ...devices["Desktop Chrome"],
    trace: "retain-on-failure",
    launchOptions: {
      ...(useSystemChromium ? { executablePath: systemChromium } : {}),
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
  },
});
