// Two agents in a real browser, against a real `serve` that finds both stores in a temporary home
// on its own (pi's, and Claude Code's `~/.claude` written by hand): the sessions page's Agent column
// and filter, the overview's line per agent and the treemap's agent level, and Claude Code's own
// cleanup — the warning, Keep them confirmed, the transcript's time refreshed on disk; and a
// restored Claude session that Claude would delete again, kept from the trash page.
import { statSync } from "node:fs";
import type { Page } from "@playwright/test";
import { join } from "node:path";
import { writeClaudeTranscript } from "../test-support/claude-transcript.js";
import { agentDirWith, agentsHome, expect, KEEP_NOTHING, test } from "./serve-fixture.js";

const DAY = 86_400_000;

/** How long ago the file's time is, in days. */
const ageInDays = (path: string) => (Date.now() - statSync(path).mtimeMs) / DAY;

/** Confirms the keep dialog, having checked what it says. */
async function keepThem(page: Page, box: ReturnType<Page["getByTestId"]>, summary: RegExp) {
  await box.getByTestId("keep-them").click();
  const dialog = page.getByTestId("keep-dialog");
  await expect(dialog.getByTestId("keep-summary")).toHaveText(summary);
  await expect(dialog).toContainText("claude --continue");
  await expect(dialog).toContainText("raise cleanupPeriodDays");
  await expect(page.getByTestId("keep-cancel")).toBeFocused();
  await dialog.getByTestId("keep-confirm").click();
  await expect(dialog).toHaveCount(0);
}

test("sessions: an Agent column, sortable, and an Agent filter listing every agent", async ({
  page,
  home,
  serve,
}) => {
  agentsHome(home);
  const server = await serve();
  await page.goto(server.url);
  await page.getByTestId("nav-sessions").click();
  await expect(page.getByTestId("shown-count")).toHaveText("5 of 5");
  await expect(page.getByRole("columnheader", { name: "Agent" })).toBeVisible();

  const filter = page.getByTestId("filter-agent");
  await expect(filter.locator("option")).toHaveText([
    "all",
    "pi",
    "Claude Code",
    "Codex",
    "Gemini CLI",
    "agentsh",
    "workspace",
  ]);
  await filter.selectOption("claude");
  await expect(page.getByTestId("shown-count")).toHaveText("2 of 5");
  await expect(page.getByTestId("session-agent")).toHaveText(["Claude Code", "Claude Code"]);
  await expect(
    page.getByTestId("session-row").filter({ hasText: "Fix the flaky checkout test" }),
  ).toHaveCount(1);
  await filter.selectOption("pi");
  await expect(page.getByTestId("session-agent")).toHaveText(["pi", "pi", "pi"]);
  await filter.selectOption("");

  // Sorted by the name shown: "Claude Code" before "pi", then the other way round.
  await page.getByTestId("sort-store").click();
  await expect(page.getByTestId("session-agent")).toHaveText([
    "Claude Code",
    "Claude Code",
    "pi",
    "pi",
    "pi",
  ]);
  await page.getByTestId("sort-store").click();
  await expect(page.getByTestId("session-agent").first()).toHaveText("pi");

  // The drawer names the agent too.
  await page.getByTestId("open-session").first().click();
  await expect(page.getByTestId("drawer")).toContainText("Agent");
});

test("sessions: an archived Claude Code session says so and 'archived only' finds it; a continued one is titled by its last prompt", async ({
  page,
  home,
  serve,
}) => {
  agentsHome(home);
  writeClaudeTranscript(join(home, ".claude"), {
    id: "6f1c2a4e-0000-4000-8000-000000000003",
    cwd: "/work/app",
    turns: 3,
    modified: new Date(Date.now() - 2 * DAY),
    lastPrompt: "now shorten the release notes",
    archivedAt: new Date(Date.now() - DAY),
  });
  const server = await serve();
  await page.goto(server.url);
  await page.getByTestId("nav-sessions").click();
  await expect(page.getByTestId("shown-count")).toHaveText("6 of 6");
  const row = page.getByTestId("session-row").filter({ hasText: "now shorten the release notes" });
  await expect(row.getByTestId("archived-badge")).toHaveText("archived");
  await expect(page.getByTestId("archived-badge")).toHaveCount(1);

  await page.getByTestId("filter-archived").check();
  await expect(page.getByTestId("shown-count")).toHaveText("1 of 6");
  await expect(page).toHaveURL(/archived=1/);
  await page.screenshot({ path: "test-results/claude-archived-table.png" });

  await row.getByTestId("open-session").click();
  const drawer = page.getByTestId("drawer");
  await expect(page.getByTestId("drawer-title")).toHaveText("now shorten the release notes");
  await expect(drawer.getByTestId("drawer-archived")).toContainText("in Claude Code");
  // The first message is still there, and still found by a search.
  await expect(drawer.getByTestId("drawer-first-message")).toContainText("user turn 0:");
  // Read in detail by Claude Code's adapter, as a pi session is: its lines by type.
  await expect(drawer.locator('dt:text-is("Entry types") + dd')).toHaveText(
    "user 3 · assistant 3 · last-prompt 1",
  );
  await page.screenshot({ path: "test-results/claude-archived-drawer.png" });
  await drawer.getByRole("button", { name: "Close details" }).click();
  await page.getByTestId("filter-archived").uncheck();
  await page.getByTestId("filter-text").fill("user turn 0");
  await expect(page.getByTestId("shown-count")).toHaveText("3 of 6");
});

test("overview: a line per agent with its share, and the treemap's agent level above namespaces", async ({
  page,
  home,
  serve,
}) => {
  const { pi, swept, recent } = agentsHome(home);
  const size = (paths: string[]) => paths.reduce((sum, p) => sum + statSync(p).size, 0);
  const server = await serve();
  await page.goto(server.url);

  const claudeRow = page.locator('[data-testid="agent-row"][data-agent="claude"]');
  const piRow = page.locator('[data-testid="agent-row"][data-agent="pi"]');
  // Biggest first.
  await expect(page.getByTestId("agent-row")).toHaveCount(2);
  await expect(page.getByTestId("agent-row").first()).toHaveAttribute("data-agent", "claude");
  await expect(claudeRow.getByRole("rowheader")).toHaveText("Claude Code");
  await expect(claudeRow.getByTestId("agent-sessions")).toHaveText("2");
  await expect(piRow.getByTestId("agent-sessions")).toHaveText("3");
  const claudeBytes = size([swept, recent]);
  const piBytes = size(pi);
  await expect(claudeRow.getByTestId("agent-bytes")).toHaveAttribute("data-bytes", String(claudeBytes));
  await expect(piRow.getByTestId("agent-bytes")).toHaveAttribute("data-bytes", String(piBytes));
  const share = (bytes: number) => `${Math.round((100 * bytes) / (claudeBytes + piBytes))}%`;
  await expect(claudeRow.getByTestId("agent-share")).toHaveText(share(claudeBytes));
  await expect(piRow.getByTestId("agent-share")).toHaveText(share(piBytes));

  // Agents → Claude Code's namespaces → its largest sessions in /work/app, and back.
  const breadcrumb = page.getByTestId("treemap-breadcrumb");
  const map = page.getByTestId("treemap").locator("canvas");
  await expect(breadcrumb).toHaveText("All agents");
  await expect(map).toHaveAttribute("aria-label", "Disk used per agent");
  // The largest agent takes the left of the map.
  const box = (await map.boundingBox())!;
  await map.click({ position: { x: box.width * 0.1, y: box.height * 0.5 } });
  await expect(breadcrumb).toHaveText("All agents › Claude Code");
  await expect(map).toHaveAttribute("aria-label", "Disk used per namespace of Claude Code");
  await map.click({ position: { x: box.width * 0.5, y: box.height * 0.5 } });
  await expect(breadcrumb).toHaveText("All agents › Claude Code › /work/app");
  await expect(map).toHaveAttribute("aria-label", "Largest sessions of /work/app (Claude Code)");
  await page.getByTestId("treemap-agent").click();
  await expect(breadcrumb).toHaveText("All agents › Claude Code");
  await page.getByTestId("treemap-back").click();
  await expect(breadcrumb).toHaveText("All agents");
});

test("an agent's own quota: where it stands on the overview, and the policy's clean removes that agent's oldest", async ({
  page,
  home,
  serve,
}) => {
  const { swept } = agentsHome(home);
  agentDirWith(home, { ...KEEP_NOTHING, quota: { agents: { claude: { maxSessionCount: 2 } } } });
  const server = await serve();
  await page.goto(server.url);

  const claudeQuota = page
    .locator('[data-testid="agent-row"][data-agent="claude"]')
    .getByTestId("agent-quota");
  await expect(claudeQuota).toHaveAttribute("data-level", "critical");
  await expect(claudeQuota).toHaveText("critical · 2 of 2 sessions (100%)");
  await expect(page.locator('[data-testid="agent-row"][data-agent="pi"]')).toContainText("no limit");

  // The policy's only rule that applies: Claude's least recently used session goes, pi's stay.
  await page.getByTestId("clean-policy").click();
  const wizard = page.getByTestId("wizard");
  await wizard.getByTestId("wizard-next").click();
  await expect(wizard.getByTestId("wizard-candidate")).toHaveCount(1);
  await expect(wizard.getByTestId("wizard-candidate")).toContainText("agent quota");
  await expect(wizard.getByTestId("wizard-candidate")).toContainText(
    "the claude sessions must stay below 2 sessions",
  );
  // Named by its first message; its path is the cell's tooltip.
  await expect(wizard.getByTestId("wizard-candidate").locator("td.path")).toHaveAttribute("title", swept);
});

test("Claude Code's own cleanup: the warning, Keep them confirmed, the transcript's time refreshed on disk", async ({
  page,
  home,
  serve,
}) => {
  const { swept, recent } = agentsHome(home);
  const server = await serve();
  await page.goto(server.url);

  const banner = page.getByTestId("sweep-banner");
  await expect(banner).toHaveCount(1);
  await expect(banner).toContainText("Claude Code will permanently delete 1 session");
  await expect(banner).toContainText("cleanupPeriodDays = 30 (Claude Code's default)");

  // Escape changes nothing.
  await banner.getByTestId("keep-them").click();
  await expect(page.getByTestId("keep-dialog")).toContainText("another 30 days");
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("keep-dialog")).toHaveCount(0);
  expect(ageInDays(swept)).toBeGreaterThan(59);

  await keepThem(page, banner, /^1 session, [\d.]+ KiB$/);
  await expect(page.getByTestId("keep-outcome")).toHaveText(
    "Kept 1 session from Claude Code's cleanup: it leaves it alone for another 30 days.",
  );
  await expect(banner).toHaveCount(0);
  expect(ageInDays(swept)).toBeLessThan(0.01);
  expect(ageInDays(recent)).toBeGreaterThan(0.9); // only the swept one was touched

  await page.reload();
  await expect(page.getByTestId("agent-row")).toHaveCount(2);
  await expect(banner).toHaveCount(0);
  await page.getByTestId("nav-activity").click();
  const audit = page.locator('[data-testid="audit-row"][data-action="keep"]');
  await expect(audit).toContainText("dashboard");
  await expect(audit).toContainText("transcript time refreshed");
});

/** Cleans the old Claude session (the least recently used Claude row) through the wizard. */
async function cleanSweptSession(page: Page) {
  await page.getByTestId("nav-sessions").click();
  await page.getByTestId("filter-agent").selectOption("claude");
  await page.getByTestId("session-row").first().getByTestId("row-select").click();
  await page.getByTestId("clean-selected").click();
  const wizard = page.getByTestId("wizard");
  for (let i = 0; i < 3; i++) await wizard.getByTestId("wizard-next").click();
  // The largest session of the store, most of its bytes: typed (shared/confirmation.ts).
  await wizard.getByTestId("confirm-input").fill("DELETE");
  await wizard.getByTestId("wizard-execute").click();
  await expect(wizard.getByTestId("result-moved")).toHaveText("1");
  await wizard.getByTestId("wizard-close").click();
}

/** Restores the trash row of `path`; checks the warning it gives and keeps the session from there. */
async function restoreAndKeep(page: Page, path: string) {
  await page.getByTestId("nav-trash").click();
  await page.locator(`[data-testid="trash-row"][data-path="${path}"]`).getByRole("checkbox").check();
  await page.getByTestId("trash-restore").click();
  const box = page.getByTestId("swept-again");
  await expect(box).toContainText("Claude Code will delete 1 of the restored sessions again");
  await expect(box.getByTestId("swept-again-item")).toHaveAttribute("data-path", path);
  expect(ageInDays(path)).toBeGreaterThan(59);

  await keepThem(page, box, /^1 session, [\d.]+ KiB$/);
  await expect(box).toHaveCount(0);
  await expect(page.getByTestId("trash-outcome")).toContainText("Kept 1 session from Claude Code's cleanup");
  expect(ageInDays(path)).toBeLessThan(0.01);
  await page.getByTestId("nav-overview").click();
  await expect(page.getByTestId("agent-row")).toHaveCount(2);
  await expect(page.getByTestId("sweep-banner")).toHaveCount(0);
}

test("trash: a restored Claude session Claude would delete again is named, and kept from there: clean, restore, keep", async ({
  page,
  home,
  serve,
}) => {
  const { swept } = agentsHome(home);
  const server = await serve();
  await page.goto(server.url);
  await cleanSweptSession(page);
  await restoreAndKeep(page, swept);
});
