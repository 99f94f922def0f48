// The trash in a real browser, on a store cleaned twice by the real CLI (once 40 days ago, once
// now): the overview's Trash card and the Trash page agree on what it holds; "Restore this cleanup"
// brings back exactly that cleanup's files; "Empty items older than 30 days" asks for the count to
// be typed and frees exactly the bytes it showed, on disk.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { formatBytes } from "../shared/format.js";
import { setModified, writeSession } from "../test-support/pi-store.js";
import { BIN } from "../test-support/serve-child.js";
import type { Page } from "@playwright/test";
import { agentDirWith, axe, expect, KEEP_NOTHING, test } from "./serve-fixture.js";

const DAY = 86_400_000;

/** axe's violations of any impact, in light and in dark (none: `[]`). */
async function violations(page: Page) {
  const found: string[] = [];
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    const result = await axe(page);
    for (const v of result.violations)
      found.push(`${colorScheme} ${v.impact} ${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  }
  await page.emulateMedia({ colorScheme: "light" });
  return found;
}

/** Five sessions; the CLI cleans two (the old cleanup) and then two more (the recent one). */
function cleanedTwice(home: string) {
  const { agentDir, root } = agentDirWith(home, KEEP_NOTHING);
  const paths = ["/work/a", "/work/a", "/work/b", "/work/b", "/work/c"].map((cwd, i) => {
    const path = writeSession(root, cwd, 2 + i).getSessionFile()!;
    setModified(path, new Date(Date.now() - (60 - i) * DAY));
    return path;
  });
  const size = (list: string[]) => list.reduce((sum, p) => sum + statSync(p).size, 0);
  const old = paths.slice(0, 2);
  const recent = paths.slice(2, 4);
  const bytes = { old: size(old), recent: size(recent) };
  const env = {
    ...process.env,
    HOME: home,
    PI_CODING_AGENT_DIR: agentDir,
    XDG_DATA_HOME: join(home, ".local", "share"),
    PI_CODING_AGENT_SESSION_DIR: "",
    CLAUDE_CONFIG_DIR: "",
    CODEX_HOME: "",
    GEMINI_CLI_HOME: "",
  };
  const ledgers = join(agentDir, "session-retention", "trash");
  const clean = (list: string[]) =>
    execFileSync(process.execPath, [BIN, "clean", "--yes", "--ids", ...list], { env, encoding: "utf8" });
  clean(old);
  // The first cleanup happened 40 days ago: its ledger says so (what `deletedAt` records).
  const [first] = readdirSync(ledgers);
  const ledger = join(ledgers, first!);
  const then = new Date(Date.now() - 40 * DAY).toISOString();
  writeFileSync(
    ledger,
    readFileSync(ledger, "utf8").replace(/"deletedAt":"[^"]+"/g, `"deletedAt":"${then}"`),
  );
  clean(recent);
  return { old, recent, bytes, trashFiles: join(home, ".local", "share", "Trash", "files") };
}

test("the Trash card and page agree; restore a cleanup; empty what is older than 30 days, typed", async ({
  page,
  home,
  serve,
}) => {
  // Two real CLI cleans, three axe runs and a purge: about 25 s on an idle 2-core machine.
  test.slow();
  const { old, recent, bytes, trashFiles } = cleanedTwice(home);
  const server = await serve();
  await page.goto(server.url);

  // The overview's card: everything both cleanups moved, still on disk.
  const card = page.getByTestId("trash-card");
  const total = bytes.old + bytes.recent;
  await expect(card.getByTestId("trash-card-bytes")).toHaveAttribute("data-bytes", String(total));
  await expect(card.getByTestId("trash-card-count")).toHaveAttribute("data-count", "4");
  await expect(card).toContainText(`${formatBytes(total)}4 sessions, still on disk`);
  expect(await violations(page)).toEqual([]);
  await card.getByTestId("trash-card-link").click();

  // The page's totals are the card's numbers.
  const totals = page.getByTestId("trash-totals");
  await expect(totals).toHaveAttribute("data-bytes", String(total));
  await expect(totals).toHaveAttribute("data-count", "4");
  await expect(totals).toContainText("still on disk until emptied");

  // One group per cleanup, newest first, each saying what started it.
  const groups = page.getByTestId("trash-group");
  await expect(groups).toHaveCount(2);
  const [newest, oldest] = [groups.nth(0), groups.nth(1)];
  await expect(newest.getByTestId("trash-row")).toHaveCount(2);
  expect(
    await newest.getByTestId("trash-row").evaluateAll((rows) => rows.map((r) => r.dataset.path)),
  ).toEqual(expect.arrayContaining(recent));
  await expect(newest.getByTestId("trash-group-summary")).toContainText(
    `2 sessions · ${formatBytes(bytes.recent)} · a clean from the CLI`,
  );
  await expect(oldest.getByTestId("trash-group-summary")).toContainText("1mo ago");

  expect(await violations(page)).toEqual([]);

  // Restore the recent cleanup: one click, exactly its two files come back.
  await newest.getByTestId("trash-group-restore").click();
  await expect(page.getByTestId("trash-outcome")).toHaveText("Restored 2 sessions.");
  // The pressed button went with its group: focus is on what happened, not lost.
  await expect(page.getByTestId("trash-outcome")).toBeFocused();
  for (const path of recent) expect(existsSync(path)).toBe(true);
  for (const path of old) expect(existsSync(path)).toBe(false);
  await expect(groups).toHaveCount(1);
  await expect(totals).toHaveAttribute("data-bytes", String(bytes.old));

  // Empty what is older than 30 days: the button says what it frees; the dialog wants the count typed.
  const empty = page.getByTestId("trash-empty-old");
  await expect(empty).toHaveAttribute("data-bytes", String(bytes.old));
  await expect(empty).toContainText(`(frees ${formatBytes(bytes.old)})`);
  expect(readdirSync(trashFiles)).toHaveLength(2);
  await empty.click();
  const dialog = page.getByTestId("purge-dialog");
  await expect(dialog.getByTestId("purge-summary")).toContainText(`2 sessions, ${formatBytes(bytes.old)}`);
  expect(await violations(page)).toEqual([]);
  const confirm = dialog.getByTestId("purge-confirm");
  await expect(confirm).toBeDisabled();
  await dialog.getByTestId("purge-typed").fill("3");
  await expect(confirm).toBeDisabled();
  await dialog.getByTestId("purge-typed").press("Enter"); // a wrong count is not submitted either
  await expect(dialog).toBeVisible();
  await dialog.getByTestId("purge-typed").fill("2");
  await confirm.click();
  await expect(page.getByTestId("trash-outcome")).toHaveText(
    `Purged 2 sessions — freed ${formatBytes(bytes.old)}.`,
  );
  // Gone for good, from the trash on disk too; the restored sessions untouched.
  expect(readdirSync(trashFiles)).toHaveLength(0);
  for (const path of recent) expect(existsSync(path)).toBe(true);
  await expect(totals).toHaveAttribute("data-count", "0");
  await expect(empty).toBeDisabled();

  await page.getByTestId("nav-overview").click();
  await expect(page.getByTestId("trash-card-bytes")).toHaveAttribute("data-bytes", "0");
});
