// The policy editor and the activity page in a real browser: a draft's live preview agrees with the
// CLI's `plan` for the same policy, rule by rule; rows count their matches in the scan; an invalid
// value is named beside its field and cannot be saved; saving writes only what was edited, survives
// a reload and is audited; axe finds nothing at laptop and phone widths; reports download with the
// plan's sessions.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setModified, writeSession } from "../test-support/pi-store.js";
import { expect, test, violations } from "./serve-fixture.js";

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
function cliPlan(home: string, config: object): { candidates: { path: string; rule: string }[] } {
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
  return JSON.parse(result.stdout) as { candidates: { path: string; rule: string }[] };
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

test("rows without JSON: a namespace quota and a protected pattern count their matches; an invalid value blocks Save with the reason; the preview by rule agrees with `plan`; the save survives a reload", async ({
  page,
  home,
  serve,
}) => {
  setUp(home);
  const server = await serve();
  await page.goto(server.url);
  await page.getByTestId("nav-policy").click();
  await expect(page.getByTestId("preview-count")).toHaveText("0");

  // A namespace quota row: its pattern matches both namespaces of the scan.
  await page.getByTestId("field-quota-namespaces-add").click();
  await page.getByTestId("field-quota-namespaces-0-pattern").fill("/work/*");
  await expect(page.getByTestId("field-quota-namespaces-0-pattern-help")).toHaveText(
    "matches 2 namespaces in the last scan",
  );
  await page.getByTestId("field-quota-namespaces-0-pattern").fill("/work/a");
  await expect(page.getByTestId("field-quota-namespaces-0-pattern-help")).toHaveText(
    "matches 1 namespace in the last scan",
  );
  await page.getByTestId("field-quota-namespaces-0-pattern").fill("/work/b");

  // Not a number: named beside the field and in the summary; Save stays disabled.
  await page.getByTestId("field-quota-namespaces-0-maxSessionCount").fill("two");
  await expect(page.getByTestId("field-quota-namespaces-0-maxSessionCount-problem")).toContainText(
    "must be a whole number of sessions",
  );
  await expect(page.getByTestId("policy-problems")).toContainText("quota.namespaces[0].maxSessionCount");
  await expect(page.getByTestId("policy-save")).toBeDisabled();
  // The summary's path takes the focus to its field.
  await page.getByTestId("field-quota-maxSessionCount").focus();
  await page.getByTestId("problem-go").first().click();
  await expect(page.getByTestId("field-quota-namespaces-0-maxSessionCount")).toBeFocused();
  await page.getByTestId("field-quota-namespaces-0-maxSessionCount").fill("2");
  await expect(page.getByTestId("policy-problems")).toHaveCount(0);

  // A protected pattern row, matched by namespace as the engine does.
  await page.getByTestId("field-protection-protectedPatterns-add").click();
  await page.getByTestId("field-protection-protectedPatterns-0").fill("/work/a");
  await expect(page.getByTestId("field-protection-protectedPatterns-0-help")).toHaveText(
    "matches 2 sessions in the last scan",
  );

  // The never-reopened rule as fields: a wrong value is named, then the rule goes off again.
  await page.getByTestId("field-retention-neverReopened").check();
  await page.getByTestId("field-retention-neverReopened-olderThanDays").fill("0");
  await expect(page.getByTestId("field-retention-neverReopened-olderThanDays-problem")).toContainText(
    "must be greater than 0",
  );
  await expect(page.getByTestId("policy-save")).toBeDisabled();
  await page.getByTestId("field-retention-neverReopened").uncheck();

  await page.getByTestId("field-retention-minKeepRecentCount").fill("0");
  await page.getByTestId("field-retention-keepLastPerNamespace").fill("0");
  const draft = {
    quota: { namespaces: [{ pattern: "/work/b", maxTotalSizeBytes: null, maxSessionCount: 2 }] },
    retention: { minKeepRecentCount: 0, keepLastPerNamespace: 0 },
    protection: { protectedPatterns: ["/work/a"] },
  };
  // By rule, as the CLI plans the same policy: the age rule takes /work/b's 400-day-old session,
  // the namespace quota one more of /work/b; /work/a is protected.
  const byRule = new Map<string, number>();
  for (const c of cliPlan(home, draft).candidates) byRule.set(c.rule, (byRule.get(c.rule) ?? 0) + 1);
  expect(Object.fromEntries(byRule)).toEqual({ maxAgeDays: 1, namespaceQuota: 1 });
  await expect(page.getByTestId("preview-count")).toHaveText("2");
  for (const rule of ["maxAgeDays", "neverReopened", "namespaceQuota", "agentQuota", "maxTotalSizeBytes"])
    await expect(page.getByTestId(`preview-rule-${rule}`)).toHaveAttribute(
      "data-sessions",
      String(byRule.get(rule) ?? 0),
    );

  // A limit the exemptions do not let it meet: the plan's warning is shown.
  await page.getByTestId("field-quota-maxSessionCount").fill("1");
  await expect(page.getByTestId("plan-warnings")).toContainText("quota cannot be met");
  await page.getByTestId("field-quota-maxSessionCount").fill("2000");
  await expect(page.getByTestId("plan-warnings")).toHaveCount(0);
  const saved = { ...draft, quota: { ...draft.quota, maxSessionCount: 2000 } };

  await page.getByTestId("policy-save").click();
  await expect(page.getByTestId("policy-saved")).toContainText("Saved to");
  const file = join(server.agentDir, "session-retention.json");
  expect(JSON.parse(readFileSync(file, "utf8"))).toEqual(saved);

  await page.reload();
  await page.getByTestId("nav-policy").click();
  await expect(page.getByTestId("field-quota-namespaces-0-pattern")).toHaveValue("/work/b");
  await expect(page.getByTestId("field-quota-namespaces-0-maxSessionCount")).toHaveValue("2");
  await expect(page.getByTestId("field-protection-protectedPatterns-0")).toHaveValue("/work/a");
  await expect(page.getByTestId("preview-rule-namespaceQuota")).toHaveAttribute("data-sessions", "1");

  // Removing the row takes the key out of the draft; Discard brings it back.
  await page.getByTestId("field-quota-namespaces-0-remove").click();
  await expect(page.getByTestId("field-quota-namespaces-rows")).toContainText("No namespace quotas.");
  await page.getByRole("button", { name: "Discard" }).click();
  await expect(page.getByTestId("field-quota-namespaces-0-pattern")).toHaveValue("/work/b");
});

test("a size in GiB is written in bytes and shown back in its unit", async ({ page, home, serve }) => {
  setUp(home);
  const server = await serve();
  await page.goto(server.url);
  await page.getByTestId("nav-policy").click();
  await expect(page.getByTestId("field-quota-maxTotalSizeBytes")).toHaveValue("20");
  await page.getByTestId("field-quota-maxTotalSizeBytes").fill("1.5");
  await page.getByTestId("field-quota-namespaces-add").click();
  await page.getByTestId("field-quota-namespaces-0-pattern").fill("/work/b");
  await page.getByTestId("field-quota-namespaces-0-maxTotalSizeBytes").fill("512");
  await page.getByTestId("field-quota-namespaces-0-maxTotalSizeBytes-unit").selectOption("MiB");
  await page.getByTestId("policy-save").click();
  await expect(page.getByTestId("policy-saved")).toBeVisible();
  const written = JSON.parse(readFileSync(join(server.agentDir, "session-retention.json"), "utf8"));
  expect(written.quota).toEqual({
    maxTotalSizeBytes: 1.5 * 1024 ** 3,
    namespaces: [{ pattern: "/work/b", maxTotalSizeBytes: 512 * 1024 ** 2, maxSessionCount: null }],
  });
  await page.reload();
  await page.getByTestId("nav-policy").click();
  await expect(page.getByTestId("field-quota-namespaces-0-maxTotalSizeBytes")).toHaveValue("512");
  await expect(page.getByTestId("field-quota-namespaces-0-maxTotalSizeBytes-unit")).toHaveValue("MiB");
});

test("agent quotas: a limit per agent of the scan, counted by rule as `plan` does; cleared, it leaves the file", async ({
  page,
  home,
  serve,
}) => {
  setUp(home);
  const server = await serve();
  await page.goto(server.url);
  await page.getByTestId("nav-policy").click();
  await expect(page.getByTestId("agent-quota-pi")).toContainText("5 sessions in the last scan");
  await page.getByTestId("field-quota-agents-pi-maxSessionCount").fill("3");
  await page.getByTestId("field-retention-minKeepRecentCount").fill("0");
  await page.getByTestId("field-retention-maxAgeDays").fill("");
  const draft = {
    quota: { agents: { pi: { maxSessionCount: 3 } } },
    retention: { maxAgeDays: null, minKeepRecentCount: 0 },
  };
  const taken = cliPlan(home, draft).candidates.filter((c) => c.rule === "agentQuota").length;
  expect(taken).toBeGreaterThan(0);
  await expect(page.getByTestId("preview-rule-agentQuota")).toHaveAttribute("data-sessions", String(taken));
  await page.getByTestId("policy-save").click();
  await expect(page.getByTestId("policy-saved")).toBeVisible();
  const file = join(server.agentDir, "session-retention.json");
  expect(JSON.parse(readFileSync(file, "utf8"))).toEqual(draft);

  await page.getByTestId("field-quota-agents-pi-maxSessionCount").fill("");
  await page.getByTestId("policy-save").click();
  await expect(page.getByTestId("policy-saved")).toBeVisible();
  expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ retention: draft.retention });
});

test("a file with a key the form has no field for: named, Save disabled, removable by name; the rest kept", async ({
  page,
  home,
  serve,
}) => {
  setUp(home);
  const file = join(home, ".pi", "agent", "session-retention.json");
  writeFileSync(file, JSON.stringify({ quota: { maxSessionCount: 500 }, retension: { maxAgeDays: 3 } }));
  const server = await serve();
  await page.goto(server.url);
  await page.getByTestId("nav-policy").click();
  await expect(page.getByTestId("policy-file-invalid")).toContainText("retension: unknown key");
  await expect(page.getByTestId("policy-problems")).toContainText('did you mean "retention"?');
  await expect(page.getByTestId("policy-save")).toBeDisabled();
  await expect(page.getByTestId("field-quota-maxSessionCount")).toHaveValue("500");
  await page.getByRole("button", { name: "Remove retension" }).click();
  await expect(page.getByTestId("policy-problems")).toHaveCount(0);
  await page.getByTestId("policy-save").click();
  await expect(page.getByTestId("policy-saved")).toBeVisible();
  expect(JSON.parse(readFileSync(join(server.agentDir, "session-retention.json"), "utf8"))).toEqual({
    quota: { maxSessionCount: 500 },
  });
});

test("a save the server refuses (a folder that is a store on disk) says so, names the field and writes nothing", async ({
  page,
  home,
  serve,
}) => {
  setUp(home);
  const server = await serve();
  await page.goto(server.url);
  await page.getByTestId("nav-policy").click();
  await page.getByTestId("field-deletion-target").selectOption("quarantine");
  const previewed = page.waitForResponse(
    (r) =>
      r.url().endsWith("/api/plan/preview") && r.request().postData()?.includes("looks-harmless") === true,
  );
  await page.getByTestId("field-deletion-quarantineDir").fill("~/.local/share/looks-harmless");
  expect((await previewed).ok()).toBe(true);
  // By its text the folder is fine, and the preview found nothing; now, on disk, it becomes the pi
  // store itself — which only the server sees, when it checks again on Save.
  mkdirSync(join(home, ".local", "share"), { recursive: true });
  symlinkSync(join(home, ".pi", "agent", "sessions"), join(home, ".local", "share", "looks-harmless"));
  await expect(page.getByTestId("policy-save")).toBeEnabled();
  await page.getByTestId("policy-save").click();
  await expect(page.getByTestId("policy-rejected")).toContainText("Not saved: the server refused");
  await expect(page.getByTestId("field-deletion-quarantineDir-problem")).toBeVisible();
  await expect(page.getByTestId("policy-saved")).toHaveCount(0);
  await expect(page.getByTestId("policy-save")).toBeDisabled();
  expect(existsSync(join(server.agentDir, "session-retention.json"))).toBe(false);
});

test("keyboard: Add puts the focus in the new row; Remove puts it back on Add", async ({
  page,
  home,
  serve,
}) => {
  setUp(home);
  const server = await serve();
  await page.goto(server.url);
  await page.getByTestId("nav-policy").click();
  await page.getByTestId("field-quota-namespaces-add").focus();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("field-quota-namespaces-0-pattern")).toBeFocused();
  await page.keyboard.type("/work/a");
  await expect(page.getByTestId("field-quota-namespaces-0-pattern-help")).toHaveText(
    "matches 1 namespace in the last scan",
  );
  await page.getByTestId("field-protection-protectedPatterns-add").focus();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("field-protection-protectedPatterns-0")).toBeFocused();
  await page.getByTestId("field-quota-namespaces-0-remove").focus();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("field-quota-namespaces-add")).toBeFocused();
});

for (const [width, height] of [
  [1400, 900],
  [390, 844],
] as const)
  for (const scheme of ["light", "dark"] as const)
    test(`axe finds nothing on the policy page with rows, problems and warnings (${width}×${height}, ${scheme})`, async ({
      page,
      home,
      serve,
    }) => {
      setUp(home);
      await page.setViewportSize({ width, height });
      await page.emulateMedia({ colorScheme: scheme });
      const server = await serve();
      await page.goto(server.url);
      // On a phone the page tabs are behind the Menu button.
      if (width < 700) await page.getByTestId("menu-toggle").click();
      await page.getByTestId("nav-policy").click();
      await expect(page.getByTestId("preview-count")).toHaveText("0");
      expect(await violations(page), "as it opens").toEqual([]);
      await page.getByTestId("field-quota-namespaces-add").click();
      await page.getByTestId("field-quota-namespaces-0-pattern").fill("/work/*");
      await page.getByTestId("field-protection-protectedPatterns-add").click();
      await page.getByTestId("field-protection-protectedPatterns-0").fill("*b*");
      await page.getByTestId("field-stores-add").click();
      await page.getByTestId("field-stores-0-root").fill("~/.pi/agent/sessions");
      await page.getByTestId("field-retention-neverReopened").check();
      await page.getByTestId("field-quota-maxSessionCount").fill("1");
      await expect(page.getByTestId("plan-warnings")).toBeVisible();
      expect(await violations(page), "with rows and a warning").toEqual([]);
      await page.getByTestId("field-quota-namespaces-0-maxSessionCount").fill("x");
      await expect(page.getByTestId("policy-problems")).toBeVisible();
      expect(await violations(page), "with a problem").toEqual([]);
    });
