// The policy editor and the activity page in a real browser: a draft's live preview agrees with the
// CLI's `plan` for the same policy; an invalid value is named beside its field and cannot be saved;
// saving writes only what was edited and is audited; reports download with the plan's sessions.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setModified, writeSession } from "../test-support/pi-store.js";
import { expect, test } from "./serve-fixture.js";

const DAY = 24 * 3600 * 1000;

function setUp(home: string) {
  const root = join(home, ".pi", "agent", "sessions");
  return [400, 200, 100, 50, 5].map((daysAgo, i) => {
    const path = writeSession(root, i % 2 ? "/work/a" : "/work/b", 1 + i).getSessionFile()!;
    setModified(path, new Date(Date.now() - daysAgo * DAY));
    return path;
  });
}

/** `session-retention plan --json` for a config, in the same home as the server. */
function cliPlan(home: string, config: object): { candidates: { path: string }[] } {
  const file = join(mkdtempSync(join(tmpdir(), "sr-policy-")), "policy.json");
  writeFileSync(file, JSON.stringify(config));
  const result = spawnSync(
    process.execPath,
    ["bin/session-retention.js", "plan", "--json", "--config", file],
    {
      env: {
        ...process.env,
        HOME: home,
        PI_CODING_AGENT_DIR: join(home, ".pi", "agent"),
        XDG_DATA_HOME: join(home, ".local", "share"),
      },
      encoding: "utf8",
    },
  );
  return JSON.parse(result.stdout) as { candidates: { path: string }[] };
}

test("edit → live preview matches `plan` → invalid value named and unsaveable → save writes the edits, audited", async ({
  page,
  home,
  serve,
}) => {
  const paths = setUp(home);
  const server = await serve();
  await page.goto(server.url);
  await page.getByTestId("nav-policy").click();
  // Defaults: 30 most recent sessions kept, so nothing is selected.
  await expect(page.getByTestId("preview-count")).toHaveText("0");

  await page.getByTestId("field-retention-maxAgeDays").fill("150");
  await page.getByTestId("field-retention-minKeepRecentCount").fill("0");
  await page.getByTestId("field-retention-keepLastPerNamespace").fill("0");
  const draft = { retention: { maxAgeDays: 150, minKeepRecentCount: 0, keepLastPerNamespace: 0 } };
  const cli = cliPlan(home, draft);
  expect(cli.candidates.map((c) => c.path).sort()).toEqual([paths[0], paths[1]].sort());
  await expect(page.getByTestId("preview-count")).toHaveText(String(cli.candidates.length));

  await page.getByTestId("field-quota-infoRatio").fill("0.95");
  await expect(page.getByTestId("field-quota-infoRatio-problem")).toContainText("must be below warnRatio");
  await expect(page.getByTestId("policy-save")).toBeDisabled();
  await page.getByTestId("field-quota-infoRatio").fill("");
  await expect(page.getByTestId("preview-count")).toHaveText("2");

  await page.getByTestId("policy-save").click();
  const file = join(server.agentDir, "session-retention.json");
  // The save is under way: until the file is written, there is nothing to read.
  await expect
    .poll(() => (existsSync(file) ? readFileSync(file, "utf8") : ""))
    .toContain('"maxAgeDays": 150');
  expect(JSON.parse(readFileSync(file, "utf8"))).toEqual(draft); // only what was edited

  await page.getByTestId("nav-activity").click();
  await expect(page.getByTestId("audit-row").first()).toHaveAttribute("data-action", "config");
});

test("activity: the plan report downloads as Markdown naming the plan's sessions; a cleanup has its own report", async ({
  page,
  home,
  serve,
}) => {
  const paths = setUp(home);
  writeFileSync(
    join(home, ".pi", "agent", "session-retention.json"),
    JSON.stringify({
      retention: { maxAgeDays: 150, minKeepRecentCount: 0, keepLastPerNamespace: 0 },
      deletion: { target: "quarantine" },
    }),
  );
  const server = await serve();
  await page.goto(server.url);
  await page.getByTestId("nav-activity").click();
  await expect(page.getByTestId("audit-empty")).toBeVisible();
  const [planDownload] = await Promise.all([
    page.waitForEvent("download"),
    page.getByTestId("report-plan-md").click(),
  ]);
  const planText = readFileSync(await planDownload.path(), "utf8");
  const removed = planText.slice(planText.indexOf("## Would be removed"), planText.indexOf("## Kept"));
  for (const path of [paths[0]!, paths[1]!]) expect(removed).toContain(path);
  expect(removed).not.toContain(paths[4]!);
  expect(planText.slice(planText.indexOf("## Kept"))).toContain(paths[4]!);

  // A cleanup by policy, then its own report.
  await page.getByTestId("nav-overview").click();
  await page.getByTestId("clean-policy").click();
  const wizard = page.getByTestId("wizard");
  for (let i = 0; i < 3; i++) await wizard.getByTestId("wizard-next").click();
  // Two small sessions: a small share of the store, one click (shared/confirmation.ts).
  await wizard.getByTestId("wizard-execute").click();
  await expect(wizard.getByTestId("result-moved")).toHaveText("2");
  await wizard.getByTestId("wizard-close").click();

  await page.getByTestId("nav-activity").click();
  await page.getByTestId("audit-action").selectOption("soft-delete");
  await expect(page.getByTestId("audit-row")).toHaveCount(1);
  const [cleanupDownload] = await Promise.all([
    page.waitForEvent("download"),
    page.getByTestId("report-operation-md").click(),
  ]);
  const cleanupText = readFileSync(await cleanupDownload.path(), "utf8");
  for (const path of [paths[0]!, paths[1]!]) expect(cleanupText).toContain(path);
});
