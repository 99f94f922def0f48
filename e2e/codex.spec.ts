// Codex in a real browser, against a real `serve` that finds `~/.codex` in a temporary home on its
// own (written by test-support/codex-store.ts) and deletes through the real `codex` binary (the
// real-agent suite's pinned @openai/codex, test-support/test-agents.ts): a family — a thread, the fork made from it and a fork of that fork — is shown in
// the detail drawer, selected as one, cleaned through the wizard (forks first), and is gone from disk.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { writeCodexStore } from "../test-support/codex-store.js";
import { agentBin } from "../test-support/test-agents.js";
import { agentDirWith, expect, KEEP_NOTHING, test } from "./serve-fixture.js";

// The server deletes Codex sessions through this binary (it inherits the environment).
process.env.SESSION_RETENTION_CODEX = agentBin("codex");

test("a Codex family: shown in the drawer, selected as one, cleaned forks first", async ({
  page,
  home,
  serve,
}) => {
  agentDirWith(home, { ...KEEP_NOTHING, activity: { graceMinutes: 1 } });
  const store = writeCodexStore(join(home, ".codex"));
  const [root] = store.threads;
  const family = store.threads.filter((t) => {
    for (let at = t; ;) {
      const up = at.options.spawnedBy ?? at.options.forkOf;
      if (!up) return at === root;
      at = up;
    }
  });
  const server = await serve();
  await page.goto(server.url);
  await page.getByTestId("nav-sessions").click();
  const filter = page.getByTestId("filter-agent");
  await expect(filter.locator("option")).toContainText(["Codex"]);
  await filter.selectOption("codex");
  // The root is kept while its fork reads from it: it cannot be chosen alone.
  const rootRow = page.locator(`[data-testid="session-row"][data-id="codex:${root!.id}"]`);
  await expect(rootRow.getByTestId("row-select")).toBeDisabled();

  // The fork of the fork, opened: its family, and the button that selects all of it.
  const fork2 = store.threads.find((t) => t.options.forkOf?.options.forkOf)!;
  await page
    .locator(`[data-testid="session-row"][data-id="codex:${fork2.id}"]`)
    .getByTestId("open-session")
    .click();
  const drawer = page.getByTestId("drawer");
  await expect(drawer.getByTestId("drawer-family")).toContainText("3 sessions");
  await expect(drawer.getByTestId("drawer-select-family")).toHaveText("Select the family (3 of 3)");
  await page.screenshot({ path: "test-results/codex-family-drawer.png" });
  await drawer.getByTestId("drawer-select-family").click();
  await page.getByRole("button", { name: "Close details" }).click();
  await expect(page.getByTestId("selection-count")).toContainText("3 selected");
  await expect(rootRow.getByTestId("row-select")).toBeChecked();
  await expect(rootRow.getByTestId("row-select")).toBeEnabled();

  await page.getByTestId("clean-selected").click();
  const wizard = page.getByTestId("wizard");
  for (let i = 0; i < 3; i++) await wizard.getByTestId("wizard-next").click();
  // A small share of the store: one click (shared/confirmation.ts).
  await wizard.getByTestId("wizard-execute").click();
  await expect(wizard.getByTestId("result-moved")).toHaveText("3");
  for (const t of family) expect(existsSync(t.path), t.path).toBe(false);
});
