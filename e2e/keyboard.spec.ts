// Dialogs with the keyboard only: the detail drawer, the clean wizard and the purge confirmation
// take focus when they open, keep Tab and Shift+Tab inside, close on Escape (the wizard not on its
// result) and give focus back to what opened them.
import type { Locator, Page } from "@playwright/test";
import { setModified, writeSession } from "../test-support/pi-store.js";
import { agentDirWith, expect, KEEP_NOTHING, test } from "./serve-fixture.js";

function setUp(home: string) {
  const { root } = agentDirWith(home, KEEP_NOTHING);
  for (const [i, cwd] of ["/work/api", "/work/api", "/work/web"].entries()) {
    const path = writeSession(root, cwd, 2 + i).getSessionFile()!;
    setModified(path, new Date(Date.UTC(2026, 0, 1 + i)));
  }
}

const focusIsIn = (dialog: Locator) => dialog.evaluate((el) => el.contains(document.activeElement));

/** Tab (or Shift+Tab) `times` times; focus never leaves `dialog`. */
async function tabsStayInside(page: Page, dialog: Locator, times: number) {
  for (let i = 0; i < times; i++) {
    await page.keyboard.press(i % 3 === 2 ? "Shift+Tab" : "Tab");
    expect(await focusIsIn(dialog), `after ${i + 1} presses`).toBe(true);
  }
}

test("drawer, wizard and purge dialog: focus in, Tab trapped, Escape closes, focus back", async ({
  page,
  home,
  serve,
}) => {
  setUp(home);
  const server = await serve();
  await page.goto(server.url);
  await page.getByTestId("nav-sessions").click();
  const row = page.getByTestId("session-row").first();
  const id = await row.getAttribute("data-id");

  // The drawer: Enter on the session's name.
  await row.getByTestId("open-session").focus();
  await page.keyboard.press("Enter");
  const drawer = page.getByTestId("drawer");
  await expect(drawer.getByTestId("drawer-path")).toBeVisible();
  expect(await focusIsIn(drawer)).toBe(true);
  await tabsStayInside(page, drawer, 12);
  await page.keyboard.press("Escape");
  await expect(drawer).toHaveCount(0);
  await expect(
    page.locator(`[data-testid="session-row"][data-id="${id}"]`).getByTestId("open-session"),
  ).toBeFocused();

  // The wizard: Space selects the row, Enter on "Clean selected…" opens it.
  await row.getByTestId("row-select").focus();
  await page.keyboard.press("Space");
  await expect(page.getByTestId("selection-count")).toContainText("1 selected");
  await page.getByTestId("clean-selected").focus();
  await page.keyboard.press("Enter");
  const wizard = page.getByTestId("wizard");
  await expect(wizard.getByTestId("wizard-usage")).toBeVisible();
  expect(await focusIsIn(wizard)).toBe(true);
  await tabsStayInside(page, wizard, 8);
  await page.keyboard.press("Escape");
  await expect(wizard).toHaveCount(0);
  await expect(page.getByTestId("clean-selected")).toBeFocused();

  // Through to the result by keyboard: there Escape does not close it (the result must be seen).
  await page.keyboard.press("Enter");
  await expect(wizard.getByTestId("wizard-usage")).toBeVisible();
  for (const step of ["wizard-candidates", "wizard-review", "wizard-confirm"]) {
    await wizard.getByTestId("wizard-next").focus();
    await page.keyboard.press("Enter");
    await expect(wizard.getByTestId(step)).toBeVisible();
  }
  await wizard.getByTestId("wizard-execute").focus();
  await page.keyboard.press("Enter");
  await expect(wizard.getByTestId("result-moved")).toHaveText("1");
  await page.keyboard.press("Escape");
  await expect(wizard).toBeVisible();
  await tabsStayInside(page, wizard, 4);
  await wizard.getByTestId("wizard-close").focus();
  await page.keyboard.press("Enter");
  await expect(wizard).toHaveCount(0);

  // The purge confirmation: focus on the safe choice, Tab trapped, Escape keeps them.
  await page.getByTestId("nav-trash").click();
  await page.getByTestId("trash-row").first().getByRole("checkbox").focus();
  await page.keyboard.press("Space");
  await page.getByTestId("trash-purge").focus();
  await page.keyboard.press("Enter");
  const purge = page.getByTestId("purge-dialog");
  await expect(purge.getByTestId("purge-cancel")).toBeFocused();
  await tabsStayInside(page, purge, 5);
  await page.keyboard.press("Escape");
  await expect(purge).toHaveCount(0);
  await expect(page.getByTestId("trash-purge")).toBeFocused();
  await expect(page.getByTestId("trash-row")).toHaveCount(1); // nothing purged
});
