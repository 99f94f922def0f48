// Keyboard only: the detail drawer, the clean wizard and the purge confirmation take focus when they
// open, keep Tab and Shift+Tab inside, close on Escape and on Back (the wizard not on its result) and
// give focus back to what opened them, or to the selection bar — never to <body>. The sessions table
// is one tab stop (arrows, Space, Enter), a skip link reaches the selection bar, the treemap's tiles
// take focus and drill in, and the Sessions page's filters and sort live in the address.
import { join } from "node:path";
import type { Locator, Page } from "@playwright/test";
import { setModified, writeSession } from "../test-support/pi-store.js";
import { snapshotTree, treeChanges } from "../test-support/tree-snapshot.js";
import { agentDirWith, agentsHome, expect, KEEP_NOTHING, networkQuiet, test } from "./serve-fixture.js";

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

/**
 * A dialog closed otherwise than by Back steps back over its history entry itself; that step is
 * asynchronous, and a Back (or a new dialog's entry) that comes before it lands would be the same step.
 */
const dialogEntryGone = (page: Page) =>
  page.waitForFunction(() => !(history.state as Record<string, unknown> | null)?.sessionRetentionDialog);

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
  // "Clean selected…" is disabled now (the selection went with the move): the bar has focus.
  await expect(page.getByTestId("clean-selected")).toBeDisabled();
  await expect(page.getByTestId("selection-bar")).toBeFocused();

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

test("Enter twice on Next, or a double-click on it, never presses Move to trash: the confirm step takes focus and nothing moves", async ({
  page,
  home,
  serve,
}) => {
  // Eight sessions of one size: one of them is a small clean, confirmed by one press (no typing).
  const { root } = agentDirWith(home, KEEP_NOTHING);
  for (let i = 0; i < 8; i++) {
    const path = writeSession(root, "/work/api", 2).getSessionFile()!;
    setModified(path, new Date(Date.UTC(2026, 0, 1 + i)));
  }
  const sandbox = [root, join(home, ".local", "share", "Trash")];
  const before = snapshotTree(sandbox);
  const server = await serve();
  const moves: string[] = [];
  page.on("request", (r) => {
    if (r.url().includes("/api/operations/delete") || r.url().endsWith("/api/delete")) moves.push(r.url());
  });
  await page.goto(server.url);
  await page.getByTestId("nav-sessions").click();
  await expect(page.getByTestId("session-row")).toHaveCount(8);
  await page.getByTestId("session-row").first().getByTestId("row-select").click();
  const wizard = page.getByTestId("wizard");
  const next = wizard.getByTestId("wizard-next");

  /** Opens the wizard on the selection and goes to its review step, the one before Move to trash. */
  const toReview = async () => {
    await page.getByTestId("clean-selected").click();
    await expect(wizard.getByTestId("wizard-usage")).toBeVisible();
    await next.click();
    await next.click();
    await expect(wizard.getByTestId("wizard-review")).toBeVisible();
  };

  // By keyboard: Enter on Next, and Enter again as if Next were still there.
  await toReview();
  await next.focus();
  await page.keyboard.press("Enter");
  await page.keyboard.press("Enter");
  await expect(wizard.getByTestId("wizard-confirm")).toBeVisible();
  await expect(wizard.getByTestId("confirm-small")).toBeVisible(); // one press would move it
  await expect(wizard).toBeFocused(); // the dialog, titled "… — Confirm"; not the button
  await expect(wizard.getByTestId("wizard-execute")).toHaveText("Move to trash");
  await page.keyboard.press("Escape"); // closes: nothing runs
  await expect(wizard).toHaveCount(0);

  // By mouse: the double-click's second click lands where Next was. Here the dialog shrinks on the
  // confirm step and the click would miss; with a footer that stays put (a layout of tomorrow) it
  // lands on Move to trash — pinned for this part.
  await toReview();
  await wizard.locator("footer").evaluate((footer) => {
    Object.assign(footer.style, { position: "fixed", right: "3rem", bottom: "3rem" });
  });
  await next.dblclick();
  await expect(wizard.getByTestId("wizard-confirm")).toBeVisible();
  await expect(wizard).toBeFocused();
  await expect(wizard.getByTestId("wizard-execute")).toHaveText("Move to trash");
  await page.keyboard.press("Escape");
  await expect(wizard).toHaveCount(0);

  await networkQuiet(page);
  expect(moves).toEqual([]);
  expect(treeChanges(before, snapshotTree(sandbox))).toEqual([]);
  await expect(page.getByTestId("selection-count")).toContainText("1 selected");
});

const focusedTestId = (page: Page) =>
  page.evaluate(() => document.activeElement?.getAttribute("data-testid"));

test("sessions by keyboard: a skip link to the bar, the rows one tab stop, arrows, Space and Enter", async ({
  page,
  home,
  serve,
}) => {
  setUp(home);
  const server = await serve();
  await page.goto(server.url.replace("#", "#/sessions&"));
  await expect(page.getByTestId("session-row")).toHaveCount(3);
  const rows = page.getByTestId("session-row");
  // One tab stop for all the rows.
  await expect(page.locator('[data-testid="open-session"][tabindex="0"]')).toHaveCount(1);
  await expect(page.locator('[data-testid="row-select"]:not([tabindex="-1"])')).toHaveCount(0);

  // From the top: Tab shows the skip link, Enter goes to the bar, Shift+Tab is the table.
  let presses = 0;
  const press = async (key: string) => {
    presses += 1;
    await page.keyboard.press(key);
  };
  await press("Tab");
  await expect(page.getByTestId("skip-to-selection")).toBeFocused();
  await expect(page.getByTestId("skip-to-selection")).toBeInViewport();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("selection-bar")).toBeFocused();
  expect(page.url()).toContain("#/sessions");
  await press("Shift+Tab");
  await expect(rows.nth(0).getByTestId("open-session")).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(rows.nth(1).getByTestId("open-session")).toBeFocused();
  await page.keyboard.press("Space");
  await expect(page.getByTestId("selection-count")).toContainText("1 selected");
  await expect(rows.nth(1).getByTestId("row-select")).toBeChecked();
  await press("Tab"); // Clear
  await press("Tab");
  await expect(page.getByTestId("clean-selected")).toBeFocused();
  expect(presses).toBeLessThanOrEqual(10);

  // Back in the table the tab stop is where it was; End and Home; Enter opens that row.
  await page.keyboard.press("Shift+Tab");
  await page.keyboard.press("Shift+Tab");
  await expect(rows.nth(1).getByTestId("open-session")).toBeFocused();
  await page.keyboard.press("End");
  await expect(rows.nth(2).getByTestId("open-session")).toBeFocused();
  await page.keyboard.press("Home");
  await expect(rows.nth(0).getByTestId("open-session")).toBeFocused();
  await page.keyboard.press("Space");
  await expect(page.getByTestId("selection-count")).toContainText("2 selected");
  await page.keyboard.press("Space");
  await expect(page.getByTestId("selection-count")).toContainText("1 selected");
  const id = await rows.nth(0).getAttribute("data-id");
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("drawer-path")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(
    page.locator(`[data-testid="session-row"][data-id="${id}"]`).getByTestId("open-session"),
  ).toBeFocused();

  // Undo in the wizard keeps focus inside it; Done leaves it on the bar.
  await page.getByTestId("clean-selected").focus();
  await page.keyboard.press("Enter");
  const wizard = page.getByTestId("wizard");
  await expect(wizard.getByTestId("wizard-usage")).toBeVisible();
  for (const step of ["wizard-candidates", "wizard-review", "wizard-confirm"]) {
    await wizard.getByTestId("wizard-next").focus();
    await page.keyboard.press("Enter");
    await expect(wizard.getByTestId(step)).toBeVisible();
  }
  // One session of three is a third of the store: a large clean, typed (shared/confirmation.ts).
  await wizard.getByTestId("confirm-input").fill("DELETE");
  await wizard.getByTestId("wizard-execute").focus();
  await page.keyboard.press("Enter");
  await wizard.getByTestId("undo").focus();
  await page.keyboard.press("Enter");
  await expect(wizard.getByTestId("undo-result")).toContainText("Restored 1 session");
  expect(await focusIsIn(wizard)).toBe(true);
  // Tab stays inside the wizard and reaches Done (after the result's list of what moved).
  for (let i = 0; i < 4 && (await focusedTestId(page)) !== "wizard-close"; i++) {
    await page.keyboard.press("Tab");
    expect(await focusIsIn(wizard)).toBe(true);
  }
  expect(await focusedTestId(page)).toBe("wizard-close");
  await page.keyboard.press("Enter");
  await expect(wizard).toHaveCount(0);
  await expect(page.getByTestId("selection-bar")).toBeFocused();
});

test("Back closes the drawer and the wizard; closing them otherwise leaves history as it was", async ({
  page,
  home,
  serve,
}) => {
  setUp(home);
  const server = await serve();
  await page.goto(server.url);
  await page.getByTestId("nav-sessions").click();
  await expect(page.getByTestId("session-row")).toHaveCount(3);

  await page.getByTestId("open-session").first().click();
  await expect(page.getByTestId("drawer")).toBeVisible();
  await page.goBack();
  await expect(page.getByTestId("drawer")).toHaveCount(0);
  await expect(page.getByTestId("nav-sessions")).toHaveAttribute("aria-current", "page");

  await page.getByTestId("row-select").first().click();
  await page.getByTestId("clean-selected").click();
  await expect(page.getByTestId("wizard-usage")).toBeVisible();
  await page.goBack();
  await expect(page.getByTestId("wizard")).toHaveCount(0);
  await expect(page.getByTestId("nav-sessions")).toHaveAttribute("aria-current", "page");
  await expect(page.getByTestId("selection-count")).toContainText("1 selected"); // nothing moved

  // Closed by Escape: its entry went too, so Back now leaves the page for the overview.
  await page.getByTestId("open-session").first().click();
  await expect(page.getByTestId("drawer")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("drawer")).toHaveCount(0);
  await dialogEntryGone(page);
  await page.goBack();
  await expect(page.getByTestId("nav-overview")).toHaveAttribute("aria-current", "page");
});

test("a key pressed the moment the drawer appears is not lost: Escape closes it, Back too", async ({
  page,
  home,
  serve,
}) => {
  setUp(home);
  const server = await serve();
  await page.goto(server.url);
  await page.getByTestId("nav-sessions").click();
  await expect(page.getByTestId("session-row")).toHaveCount(3);
  for (let i = 0; i < 5; i++) {
    // No wait between: the drawer must answer from its first frame.
    await page.getByTestId("open-session").first().click();
    await page.keyboard.press("Escape");
    await expect(page.getByTestId("drawer"), `Escape, try ${i + 1}`).toHaveCount(0);
    await dialogEntryGone(page);
    await page.getByTestId("open-session").first().click();
    await page.goBack();
    await expect(page.getByTestId("drawer"), `Back, try ${i + 1}`).toHaveCount(0);
    await expect(page.getByTestId("nav-sessions")).toHaveAttribute("aria-current", "page");
  }
});

test("filters and sort are in the address: restored on reload and from a shared link", async ({
  page,
  home,
  serve,
}) => {
  agentsHome(home);
  const server = await serve();
  await page.goto(server.url);
  await page.getByTestId("nav-sessions").click();
  await expect(page.getByTestId("shown-count")).toHaveText("5 of 5");
  await page.getByTestId("filter-agent").selectOption("claude");
  await page.getByTestId("sort-sizeBytes").click();
  await page.getByTestId("sort-sizeBytes").click();
  await expect(page.locator("th.col-sizeBytes")).toHaveAttribute("aria-sort", "ascending");
  await expect.poll(() => new URL(page.url()).hash).toBe("#/sessions?agent=claude&sort=sizeBytes");

  await page.reload();
  await expect(page.getByTestId("shown-count")).toHaveText("2 of 5");
  await expect(page.getByTestId("filter-agent")).toHaveValue("claude");
  await expect(page.locator("th.col-sizeBytes")).toHaveAttribute("aria-sort", "ascending");
  const sizes = await page
    .getByTestId("session-row")
    .locator("td.col-sizeBytes")
    .evaluateAll((cells) => cells.map((c) => Number(c.getAttribute("data-bytes"))));
  expect(sizes).toEqual([...sizes].sort((a, b) => a - b));

  // A link with a search and a descending sort, opened in this tab (which holds the access token).
  await page.goto(`${new URL(server.url).origin}/#/sessions?q=checkout&sort=-sizeBytes`);
  await page.reload();
  await expect(page.getByTestId("filter-text")).toHaveValue("checkout");
  await expect(page.getByTestId("shown-count")).toHaveText("1 of 5");
  await expect(page.getByTestId("filter-agent")).toHaveValue("");
  await expect(page.locator("th.col-sizeBytes")).toHaveAttribute("aria-sort", "descending");
});

test("treemap tiles take focus, arrows move between them and Enter drills in", async ({
  page,
  home,
  serve,
}) => {
  agentsHome(home);
  const server = await serve();
  await page.goto(server.url);
  const breadcrumb = page.getByTestId("treemap-breadcrumb");
  await expect(breadcrumb).toHaveText("All agents");
  const tiles = page.getByTestId("treemap-tile");
  await expect(tiles).toHaveCount(2);
  await expect(page.locator('[data-testid="treemap-tile"][tabindex="0"]')).toHaveCount(1);
  await expect(tiles.nth(0)).toHaveAttribute("aria-label", /^Claude Code: .* in 2 sessions$/);
  // Each button lies over its tile, inside the picture.
  const map = (await page.getByTestId("treemap").boundingBox())!;
  for (const box of await tiles.evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON()))) {
    expect(box.width * box.height).toBeGreaterThan(0);
    expect(box.x).toBeGreaterThanOrEqual(map.x - 1);
    expect(box.x + box.width).toBeLessThanOrEqual(map.x + map.width + 1);
  }
  await tiles.nth(0).focus();
  await page.keyboard.press("ArrowRight");
  await expect(tiles.nth(1)).toBeFocused();
  await expect(tiles.nth(1)).toHaveAttribute("aria-label", /^pi: /);
  await page.keyboard.press("Enter");
  await expect(breadcrumb).toContainText("pi");
  // The next level's first tile has focus, not <body>.
  await expect(tiles.first()).toBeFocused();
  await expect(tiles).toHaveCount(2); // pi's namespaces /work/a and /work/b
  await page.keyboard.press("Enter");
  await expect(breadcrumb).toContainText("/work/");
});
