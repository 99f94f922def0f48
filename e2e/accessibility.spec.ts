// Every page, the growth chart by namespace, and the clean wizard and drawer, checked with axe in light and dark: no violation of any
// impact. With two agents: the overview's agent lines, treemap level and Claude Code's
// cleanup warning, the keep confirmation, and the sessions page's Agent column and filter.
import { setModified, writeSession } from "../test-support/pi-store.js";
import {
  agentDirWith,
  agentsHome,
  expect,
  KEEP_NOTHING,
  networkQuiet,
  test,
  violations,
} from "./serve-fixture.js";

const PAGES = ["overview", "sessions", "trash", "policy", "activity"] as const;

for (const scheme of ["light", "dark"] as const) {
  test(`no accessibility violations on any page (${scheme})`, async ({ page, home, serve }) => {
    const { root } = agentDirWith(home, KEEP_NOTHING);
    for (const [i, cwd] of ["/work/a", "/work/a", "/work/b"].entries()) {
      const path = writeSession(root, cwd, 1 + i, i === 1 ? { name: "Named session" } : {}).getSessionFile()!;
      setModified(path, new Date(Date.UTC(2026, 0, 1 + i)));
    }
    await page.emulateMedia({ colorScheme: scheme });
    const server = await serve();
    await page.goto(server.url);
    for (const name of PAGES) {
      await page.getByTestId(`nav-${name}`).click();
      await expect(page.getByTestId(`nav-${name}`)).toHaveAttribute("aria-current", "page");
      await networkQuiet(page);
      expect(await violations(page), name).toEqual([]);
    }
    // Growth stacked by namespace, with its legend and data table open.
    await page.getByTestId("nav-overview").click();
    await page.getByTestId("growth-view-namespace").click();
    await page.getByText("The numbers as a table").click();
    await expect(page.getByTestId("growth-table")).toBeVisible();
    expect(await violations(page), "growth by namespace").toEqual([]);
    // The drawer and the wizard over the sessions page.
    await page.getByTestId("nav-sessions").click();
    await page.getByTestId("open-session").first().click();
    await expect(page.getByTestId("drawer-entries")).toBeVisible();
    expect(await violations(page), "drawer").toEqual([]);
    await page.keyboard.press("Escape");
    await page.getByTestId("row-select").first().click();
    await page.getByTestId("clean-selected").click();
    await expect(page.getByTestId("wizard-usage")).toBeVisible();
    expect(await violations(page), "wizard").toEqual([]);
  });
  test(`no accessibility violations with two agents (${scheme})`, async ({ page, home, serve }) => {
    agentsHome(home);
    await page.emulateMedia({ colorScheme: scheme });
    const server = await serve();
    await page.goto(server.url);
    await expect(page.getByTestId("sweep-banner")).toBeVisible();
    await expect(page.getByTestId("agent-table")).toBeVisible();
    await expect(page.getByTestId("treemap-breadcrumb")).toHaveText("All agents");
    await networkQuiet(page);
    expect(await violations(page), "overview with agents").toEqual([]);
    await page.getByTestId("keep-them").click();
    await expect(page.getByTestId("keep-dialog")).toBeVisible();
    expect(await violations(page), "keep dialog").toEqual([]);
    await page.keyboard.press("Escape");
    await page.getByTestId("nav-sessions").click();
    await page.getByTestId("filter-agent").selectOption("claude");
    await expect(page.getByTestId("shown-count")).toHaveText("2 of 5");
    expect(await violations(page), "sessions with agents").toEqual([]);
  });
}
