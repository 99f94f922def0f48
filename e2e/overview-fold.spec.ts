// The overview of a fresh home with every agent (pi, Claude Code, Codex, Gemini CLI, agentsh: 119
// sessions, strays in three stores, two agents' own cleanups pending) answers in five seconds, in a
// real browser against a real `serve`: at 1440×900 and 390×844, light and dark, the headline and
// the whole growth chart are in the window, each agent's cleanup is one line in sight, the notes are
// one line that opens from the keyboard, and axe finds nothing serious. Advice in proportion: far
// from full the headline says what is old and the cleanup is a quiet button; past the warn level it
// urges, with the primary button. Each size leaves its screenshots in test-results/.
import type { Locator, Page } from "@playwright/test";
import { writeClaudeStore } from "../test-support/claude-store.js";
import { agentBin } from "../test-support/test-agents.js";
import { fourAgentsHome } from "./four-agents-home.js";
import { agentDirWith, axe, expect, networkQuiet, test } from "./serve-fixture.js";

// Codex's sessions are deleted through its own binary: with it, the policy can move them too.
process.env.SESSION_RETENTION_CODEX = agentBin("codex");

const SIZES = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
] as const;

/** Whether the whole of `locator` lies inside the window, as it is first shown (no scrolling). */
async function insideWindow(page: Page, locator: Locator) {
  const box = (await locator.boundingBox())!;
  const { height, width } = page.viewportSize()!;
  return box.y >= 0 && box.x >= 0 && box.y + box.height <= height && box.x + box.width <= width;
}

/** The overview as first shown, its plan and growth in (the headline's last parts). */
async function openOverview(page: Page, url: string) {
  await page.goto(url);
  await expect(page.getByTestId("review-cleanup")).toBeVisible();
  await expect(page.getByTestId("growth-rate")).toBeVisible();
  await expect(page.locator('section[aria-labelledby="growth-title"] canvas')).toBeVisible();
  await networkQuiet(page);
}

for (const size of SIZES) {
  test(`four agents at ${size.width}×${size.height}: headline and growth above the fold, cleanups in a line each, notes folded`, async ({
    page,
    home,
    serve,
  }) => {
    fourAgentsHome(home);
    const server = await serve();
    await page.setViewportSize(size);
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await openOverview(page, server.url);

      const headline = page.getByTestId("overview-headline");
      expect(await insideWindow(page, headline), `${scheme}: headline in the window`).toBe(true);
      expect(
        await insideWindow(page, page.locator('section[aria-labelledby="growth-title"] canvas')),
        `${scheme}: chart`,
      ).toBe(true);
      // Each agent's own cleanup predicts a loss: its line is in sight, its reasons one Enter away.
      const sweeps = page.getByTestId("sweep-line");
      await expect(sweeps).toHaveCount(2);
      for (const line of await sweeps.all()) expect(await insideWindow(page, line)).toBe(true);
      await expect(sweeps.first()).toHaveText(
        /^Claude Code will permanently delete \d+ sessions \([\d.]+ KiB\) the next time it runs\.$/,
      );

      // The store is at <1% of its quota: what is old is said, not urged (and never "0%").
      await expect(headline).toContainText("<1% of the 20.0 GiB quota used");
      await expect(headline).toContainText(/\d+ of 119 sessions have not been used for 180 days\./);
      await expect(headline).toContainText("nothing has to go before the quota reaches 90%");
      await expect(headline).toHaveAttribute("data-urgent", "false");
      await expect(page.getByTestId("review-cleanup")).not.toHaveClass(/primary/);
      await expect(page.getByTestId("clean-policy")).not.toHaveClass(/primary/);

      const { violations } = await axe(page);
      const serious = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
      expect(
        serious.map(
          (v) => `${scheme} ${v.impact} ${v.id} ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`,
        ),
      ).toEqual([]);
      await page.screenshot({ path: `test-results/overview-four-agents-${size.width}-${scheme}.png` });
    }

    // The notes: one closed line, reached by Tab and opened by Enter, each store's note in full.
    const notes = page.getByTestId("notices");
    await expect(page.getByTestId("notices-summary")).toContainText(
      "3 notes: 10 items in 3 stores are not sessions, left alone",
    );
    const strays = notes.getByTestId("not-sessions");
    await expect(strays).toHaveCount(3);
    await expect(strays.first()).toBeHidden();
    await page.getByTestId("review-cleanup").focus();
    for (let presses = 0; presses < 12; presses++) {
      if (await page.getByTestId("notices-summary").evaluate((el) => el === document.activeElement)) break;
      await page.keyboard.press("Tab");
    }
    await expect(page.getByTestId("notices-summary")).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(notes).toHaveAttribute("open", "");
    for (const stray of await strays.all()) await expect(stray).toBeVisible();
    await expect(
      strays.filter({ hasText: "of this Claude Code store: left alone, never cleaned." }),
    ).toHaveCount(1);
    // …and a sweep's reasons the same way: its setting in words.
    const why = page.getByTestId("sweep-why").first();
    await why.locator("summary").focus();
    await page.keyboard.press("Enter");
    await expect(why).toContainText("cleanupPeriodDays");
    await expect(why.locator("p")).toBeVisible();
  });
}

test("advice in proportion: past the warn level the headline urges the cleanup, with the primary button", async ({
  page,
  home,
  serve,
}) => {
  fourAgentsHome(home);
  const server = await serve();
  await page.setViewportSize(SIZES[0]);
  await openOverview(page, server.url);
  await expect(page.getByTestId("overview-headline")).toHaveAttribute("data-urgent", "false");
  const total = Number(await page.getByTestId("total-bytes").getAttribute("data-bytes"));

  // The same store against a quota it fills to 95%: the warn level.
  agentDirWith(home, { quota: { maxTotalSizeBytes: Math.ceil(total / 0.95) } });
  await page.reload();
  await expect(page.getByTestId("review-cleanup")).toBeVisible();
  const headline = page.getByTestId("overview-headline");
  await expect(page.getByTestId("quota-card")).toHaveAttribute("data-level", "warn");
  await expect(headline).toHaveAttribute("data-urgent", "true");
  await expect(headline).toContainText("95% of the");
  await expect(headline).toContainText(
    /The policy would move \d+ sessions \([\d.]+ [KM]iB\) to the trash now\./,
  );
  await expect(page.getByTestId("review-cleanup")).toHaveClass(/primary/);
  await expect(page.getByTestId("clean-policy")).toHaveClass(/primary/);
});

test("texts name the stores found: without pi's store the quota card says its mode is pi's; the Policy page names every agent", async ({
  page,
  home,
  serve,
}) => {
  writeClaudeStore(home);
  const server = await serve();
  await page.goto(server.url);
  const card = page.getByTestId("quota-card");
  await expect(card).toContainText("mode warn-only (for pi, whose store is not here)");
  await expect(card).not.toContainText("pi warns");
  await page.getByTestId("nav-policy").click();
  await expect(page.getByTestId("stores-help")).toContainText(
    "each agent's own store where it exists — pi's (or the folder above), Claude Code's, Codex's, Gemini CLI's, agentsh's.",
  );
});
