// Gemini CLI in a real browser, against a real `serve` that finds its store (`~/.gemini`, written
// from Gemini's formats by test-support/gemini-store.ts) in a temporary home on its own, beside
// pi's: Gemini on the overview and the sessions page, its own cleanup as a warning that names the
// project and offers no Keep, a restored chat Gemini would delete again named, with why, and a
// chat only a resume's empty copy dooms saved by removing the copy; axe on those screens.
import { existsSync, statSync } from "node:fs";
import { GeminiStoreBuilder } from "../test-support/gemini-store.js";
import { insideAny, snapshotTree, treeChanges, without } from "../test-support/tree-snapshot.js";
import { setModified, writeSession } from "../test-support/pi-store.js";
import { agentDirWith, expect, KEEP_NOTHING, test, violations } from "./serve-fixture.js";

const DAY = 86_400_000;

/** pi's store with one session, and Gemini's with a chat of 45 days and one of yesterday in /work/shop. */
function geminiHome(home: string) {
  const { root } = agentDirWith(home, KEEP_NOTHING);
  setModified(writeSession(root, "/work/a", 1).getSessionFile()!, new Date(Date.now() - 3 * DAY));
  const b = new GeminiStoreBuilder(home, Date.now());
  const shop = b.project("/work/shop");
  const old = b.save(b.chat(shop, 45).conversationOf(3).summarize("Fix the checkout total"), shop).path;
  const recent = b.save(b.chat(shop, 1).conversationOf(1), shop).path;
  b.finish();
  return { old, recent };
}

test("Gemini CLI: its line on the overview, its own cleanup per project without Keep, and a restored chat it would delete again", async ({
  page,
  home,
  serve,
}) => {
  const { old } = geminiHome(home);
  const server = await serve();
  await page.goto(server.url);

  const row = page.locator('[data-testid="agent-row"][data-agent="gemini"]');
  await expect(row.getByRole("rowheader")).toHaveText("Gemini CLI");
  await expect(row.getByTestId("agent-sessions")).toHaveText("2");
  const banner = page.getByTestId("sweep-banner");
  await expect(banner).toHaveCount(1);
  await expect(banner).toContainText("Gemini CLI will permanently delete 1 session");
  await expect(banner).toContainText("the next time it starts in their projects — /work/shop (1)");
  await expect(banner).toContainText("general.sessionRetention maxAge = 30d (Gemini CLI's default)");
  await expect(banner).toContainText("It prunes only the project it is started in");
  await expect(banner.getByTestId("keep-them")).toHaveCount(0);
  expect(await violations(page), "overview").toEqual([]);

  // The old chat, cleaned through the wizard from the sessions page's Gemini rows.
  await page.getByTestId("nav-sessions").click();
  await page.getByTestId("filter-agent").selectOption("gemini");
  await expect(page.getByTestId("shown-count")).toHaveText("2 of 3");
  await expect(page.getByTestId("session-agent")).toHaveText(["Gemini CLI", "Gemini CLI"]);
  const oldRow = page.getByTestId("session-row").filter({ hasText: "Fix the checkout total" });
  await oldRow.getByTestId("row-select").click();
  await page.getByTestId("clean-selected").click();
  const wizard = page.getByTestId("wizard");
  for (let i = 0; i < 3; i++) await wizard.getByTestId("wizard-next").click();
  // One of three sessions, over a quarter of the store's bytes: typed (shared/confirmation.ts).
  await wizard.getByTestId("confirm-input").fill("DELETE");
  await wizard.getByTestId("wizard-execute").click();
  await expect(wizard.getByTestId("result-moved")).toHaveText("1");
  await wizard.getByTestId("wizard-close").click();

  // Restored, it keeps the time inside it: Gemini would delete it again, and nothing here can keep it.
  await page.getByTestId("nav-trash").click();
  await page.locator(`[data-testid="trash-row"][data-path="${old}"]`).getByRole("checkbox").check();
  await page.getByTestId("trash-restore").click();
  const box = page.getByTestId("deleted-again");
  await expect(box).toContainText(
    "1 of the restored sessions will be deleted again by their agent's own cleanup",
  );
  await expect(box.getByTestId("deleted-again-item")).toHaveAttribute("data-path", old);
  await expect(box).toContainText("Gemini CLI will delete it again the next time it starts in /work/shop");
  await expect(box).toContainText("last updated 44 days ago");
  await expect(box.getByTestId("keep-them")).toHaveCount(0);
  await expect(page.getByTestId("swept-again")).toHaveCount(0);
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    expect(await violations(page), `trash (${scheme})`).toEqual([]);
  }
  expect(statSync(old).size).toBeGreaterThan(0);
});

test("Gemini CLI: a chat only a resume's empty copy dooms is named on the overview, and one confirmed click removes the copy alone", async ({
  page,
  home,
  serve,
}) => {
  const { root } = agentDirWith(home, KEEP_NOTHING);
  setModified(writeSession(root, "/work/a", 1).getSessionFile()!, new Date(Date.now() - 3 * DAY));
  const b = new GeminiStoreBuilder(home, Date.now());
  const shop = b.project("/work/shop");
  const chat = b.chat(shop, 3).conversationOf(2).summarize("Fix the cart totals");
  chat.resume(DAY);
  const resumedAt = chat.lastMs;
  chat.conversationOf(1);
  const real = b.save(chat, shop);
  const twin = b.resumeTwin(real, resumedAt);
  b.save(b.chat(shop, 1).conversationOf(1), shop);
  b.finish();
  const before = snapshotTree([b.root]);
  const server = await serve();
  await page.goto(server.url);

  // The copy is a part of the chat's session: Gemini's two chats, one of them doomed.
  const row = page.locator('[data-testid="agent-row"][data-agent="gemini"]');
  await expect(row.getByTestId("agent-sessions")).toHaveText("2");
  const banner = page.getByTestId("sweep-banner");
  await expect(banner).toContainText("Gemini CLI will permanently delete 1 session");
  await expect(banner).toContainText(
    "One of them goes only because of an empty copy a resume left beside it",
  );
  const rescue = banner.getByTestId("sweep-rescue");
  await expect(rescue).toHaveCount(1);
  await expect(rescue).toContainText(
    "an empty copy left by a resume; remove it to keep “Fix the cart totals”",
  );
  await rescue.getByTestId("rescue-remove").click();
  const dialog = page.getByTestId("rescue-dialog");
  await expect(dialog).toContainText(twin);
  await expect(page.getByTestId("rescue-cancel")).toBeFocused();
  expect(await violations(page), "rescue dialog").toEqual([]);
  await dialog.getByTestId("rescue-confirm").click();

  await expect(page.getByTestId("keep-outcome")).toHaveText(
    "Moved the empty copy to the trash: Gemini CLI keeps “Fix the cart totals”. It can be restored from the Trash page.",
  );
  await expect(banner).toHaveCount(0);
  expect(existsSync(twin)).toBe(false);
  // Nothing else of Gemini's folder changed: the chat and the other chat are as they were.
  const moved = insideAny([twin]);
  expect(treeChanges(without(before, moved), snapshotTree([b.root], moved))).toEqual([]);
  await expect(row.getByTestId("agent-sessions")).toHaveText("2");

  // In the trash as an item of its own, restorable.
  await page.getByTestId("nav-trash").click();
  await expect(page.locator(`[data-testid="trash-row"][data-path="${twin}"]`)).toHaveCount(1);
});
