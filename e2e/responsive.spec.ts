// Every page at laptop, 1024 px, 700 px and phone widths, light and dark: the document never
// scrolls sideways, the Sessions table drops columns by priority but always shows Size whole, the
// page tabs fold behind a Menu button on narrow screens, the drawer and the wizard take the whole
// width of a phone, and axe finds no violation of any impact at the narrow widths.
import type { Page } from "@playwright/test";
import { agentsHome, expect, networkQuiet, test, violations } from "./serve-fixture.js";

const PAGES = ["overview", "sessions", "trash", "policy", "activity"] as const;
const SIZES = [
  { width: 1680, height: 1000 },
  { width: 1400, height: 900 },
  { width: 1024, height: 768 },
  { width: 700, height: 900 },
  { width: 390, height: 844 },
] as const;
/** Below this the page tabs fold behind the Menu button. */
const NARROW = 700;

const overflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

async function openPage(page: Page, name: (typeof PAGES)[number], narrow: boolean) {
  if (narrow) {
    await expect(page.getByTestId(`nav-${name}`)).toBeHidden();
    await page.getByTestId("menu-toggle").click();
    await expect(page.getByTestId("menu-toggle")).toHaveAttribute("aria-expanded", "true");
  }
  await page.getByTestId(`nav-${name}`).click();
  await expect(page.getByTestId(`nav-${name}`)).toHaveAttribute("aria-current", "page");
  // The menu folds again once a page is chosen.
  if (narrow) await expect(page.getByTestId(`nav-${name}`)).toBeHidden();
  await networkQuiet(page);
}

for (const scheme of ["light", "dark"] as const) {
  for (const size of SIZES) {
    test(`every page at ${size.width}×${size.height} (${scheme}): no sideways scroll, Size whole`, async ({
      page,
      home,
      serve,
    }) => {
      agentsHome(home);
      await page.setViewportSize(size);
      await page.emulateMedia({ colorScheme: scheme });
      const server = await serve();
      await page.goto(server.url);
      const narrow = size.width < NARROW;
      await expect(page.getByTestId("menu-toggle")).toBeVisible({ visible: narrow });
      const checkAxe = size.width <= NARROW;
      for (const name of PAGES) {
        await openPage(page, name, narrow);
        expect(await overflow(page), `${name} overflows`).toBeLessThanOrEqual(0);
        if (checkAxe) expect(await violations(page), name).toEqual([]);
      }

      // Sessions: the Size column in full, inside the window, whatever the width.
      await openPage(page, "sessions", narrow);
      const sizeCell = page.getByTestId("session-row").first().locator("td.col-sizeBytes");
      await expect(sizeCell).toBeVisible();
      const cell = (await sizeCell.boundingBox())!;
      expect(cell.x + cell.width).toBeLessThanOrEqual(size.width);
      expect(await sizeCell.evaluate((td) => td.scrollWidth <= td.clientWidth)).toBe(true);
      await expect(page.locator("th.col-createdAt")).toBeVisible({ visible: size.width >= 1600 });
      await expect(page.locator("th.col-namespace")).toBeVisible({ visible: size.width >= 1280 });
      await expect(page.locator("th.col-store")).toBeVisible({ visible: size.width >= 900 });
      await expect(page.locator("th.col-verdict")).toBeVisible({ visible: size.width >= NARROW });
      // The session's own column keeps room for its title whatever else shows (the fixed widths of
      // the others once left it 7 px wide at 1400 px).
      const sessionColumn = (await page.locator("th.col-path").boundingBox())!;
      expect(sessionColumn.width).toBeGreaterThanOrEqual(150);

      // The drawer and the wizard fit the window (the whole of it on a phone).
      await page.getByTestId("open-session").first().click();
      const drawer = page.getByTestId("drawer");
      await expect(drawer.getByTestId("drawer-path")).toBeVisible();
      const box = (await drawer.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(size.width + 0.5);
      if (narrow) expect(box.width).toBeGreaterThanOrEqual(size.width - 0.5);
      expect(await overflow(page)).toBeLessThanOrEqual(0);
      if (checkAxe) expect(await violations(page), "drawer").toEqual([]);
      await page.keyboard.press("Escape");

      await page.getByTestId("filter-agent").selectOption("pi");
      await page.getByTestId("select-all").check();
      await page.getByTestId("clean-selected").click();
      const wizard = page.getByTestId("wizard");
      await expect(wizard.getByTestId("wizard-usage")).toBeVisible();
      const w = (await wizard.boundingBox())!;
      expect(w.x).toBeGreaterThanOrEqual(0);
      expect(w.x + w.width).toBeLessThanOrEqual(size.width + 0.5);
      if (narrow) expect(w.width).toBeGreaterThanOrEqual(size.width - 0.5);
      await expect(wizard.getByTestId("wizard-next")).toBeInViewport();
      expect(await overflow(page)).toBeLessThanOrEqual(0);
      if (checkAxe) expect(await violations(page), "wizard").toEqual([]);
    });
  }
}
