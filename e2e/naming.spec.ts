// Sessions named as pi's picker names them, in a real browser against the real server: an unnamed
// session shows its first message (and the text search finds it by it), a named one its name; the
// drawer, the clean wizard, the Trash and the Activity page name it the same way.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { SessionManager } from "@mariozechner/pi-coding-agent";
import {
  assistantMessage,
  piFolder,
  setModified,
  userMessage,
  writeSession,
} from "../test-support/pi-store.js";
import { oneLine } from "../shared/session-title.js";
import { agentDirWith, expect, KEEP_NOTHING, test } from "./serve-fixture.js";

const PROMPT = "Why is the invoice total rounded wrong?";
const MESSAGE = `\n  ${PROMPT}\n\nHere is the log:\n${"line\n".repeat(50)}`;
/** As every page shows it: one line, cut with an ellipsis. */
const TITLE = oneLine(MESSAGE)!;

function setUp(home: string) {
  const { root } = agentDirWith(home, KEEP_NOTHING);
  const folder = join(root, piFolder("/work/billing"));
  mkdirSync(folder, { recursive: true });
  const unnamed = SessionManager.create("/work/billing", folder);
  unnamed.appendMessage(userMessage(MESSAGE));
  unnamed.appendMessage(assistantMessage("Because of the float sum."));
  const path = unnamed.getSessionFile()!;
  setModified(path, new Date(Date.UTC(2026, 0, 1)));
  const named = writeSession(root, "/work/shop", 2, { name: "Checkout layout" }).getSessionFile()!;
  setModified(named, new Date(Date.UTC(2026, 0, 2)));
  // A fork of it, renamed: its drawer links back to "Checkout layout" by name.
  const forkFolder = join(root, piFolder("/work/shop-v2"));
  mkdirSync(forkFolder, { recursive: true });
  const fork = SessionManager.forkFrom(named, "/work/shop-v2", forkFolder);
  fork.appendSessionInfo("Checkout, second try");
  return { path, named };
}

test.beforeAll(() => {
  expect(TITLE.startsWith(`${PROMPT} Here is the log: line line`)).toBe(true);
  expect(TITLE.endsWith("…")).toBe(true);
});

test("an unnamed session shows its first message everywhere, and search finds it by it", async ({
  page,
  home,
  serve,
}) => {
  const { path } = setUp(home);
  const file = path.slice(path.lastIndexOf("/") + 1);
  const server = await serve();
  await page.goto(server.url);
  await page.getByTestId("nav-sessions").click();
  const rows = page.getByTestId("session-row");
  await expect(rows).toHaveCount(3);

  // The table: the first message (one line), the name in bold, the file name after each.
  const unnamedRow = rows.filter({ hasText: PROMPT });
  await expect(unnamedRow.getByTestId("session-title")).toHaveText(TITLE);
  await expect(unnamedRow.getByTestId("session-title")).toHaveAttribute("data-source", "message");
  await expect(unnamedRow.getByTestId("open-session")).toContainText(file);
  const namedRow = rows.filter({ hasText: "Checkout layout" });
  await expect(namedRow.getByTestId("session-title")).toHaveAttribute("data-source", "name");

  // A fork's drawer names the session it came from.
  await rows.filter({ hasText: "Checkout, second try" }).getByTestId("open-session").click();
  await expect(page.getByTestId("drawer-title")).toHaveText("Checkout, second try");
  await expect(page.getByTestId("drawer-lineage")).toContainText("forked from Checkout layout");
  await page.getByRole("button", { name: "Close details" }).click();

  // Search: a word of the first message only (not in the path, the name or the namespace).
  await page.getByTestId("filter-text").fill("invoice TOTAL");
  await expect(rows).toHaveCount(1);
  await expect(rows.getByTestId("session-title")).toHaveText(TITLE);

  // The drawer's header.
  await rows.getByTestId("open-session").click();
  await expect(page.getByTestId("drawer-title")).toHaveText(TITLE);
  await page.getByRole("button", { name: "Close details" }).click();

  // The wizard names the candidate; one session needs no typed confirmation.
  await rows.getByTestId("row-select").click();
  await page.getByTestId("clean-selected").click();
  const wizard = page.getByTestId("wizard");
  await wizard.getByTestId("wizard-next").click();
  await expect(wizard.getByTestId("wizard-candidate").getByTestId("session-title")).toHaveText(TITLE);
  await wizard.getByTestId("wizard-next").click();
  await wizard.getByTestId("wizard-next").click();
  await wizard.getByTestId("wizard-execute").click();
  await expect(wizard.getByTestId("result-moved")).toHaveText("1");
  await wizard.getByTestId("wizard-close").click();

  // Trash: the title recorded at delete time, the namespace's folder and the file name after it.
  await page.getByTestId("nav-trash").click();
  const trashName = page.locator(`[data-testid="trash-row"][data-path="${path}"]`).getByTestId("trash-name");
  await expect(trashName.getByTestId("session-title")).toHaveText(TITLE);
  await expect(trashName).toContainText("billing");
  await expect(trashName).toContainText(file);

  // Activity: the cleanup names the session it moved.
  await page.getByTestId("nav-activity").click();
  const cleanup = page.locator('[data-testid="audit-row"][data-action="soft-delete"]');
  await expect(cleanup.getByTestId("audit-items")).toHaveText(TITLE);
});
