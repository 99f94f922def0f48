// A preview counts only what can move, in a real browser against a real `serve`: with Codex sessions
// the policy would choose and no `codex` binary to delete them with, the overview's headline counts
// only the sessions that will move and says how many more cannot, the wizard lists those under
// their one reason, and the result moves exactly the count it showed.
import { existsSync } from "node:fs";
import { delimiter, join } from "node:path";
import { writeCodexStore } from "../test-support/codex-store.js";
import { setModified, writeSession } from "../test-support/pi-store.js";
import { agentDirWith, expect, KEEP_NOTHING, test } from "./serve-fixture.js";

const DAY = 86_400_000;

test("no codex binary: the headline and the wizard count what moves, and name what is left out once", async ({
  page,
  home,
  serve,
}) => {
  const { root } = agentDirWith(home, {
    ...KEEP_NOTHING,
    retention: { ...KEEP_NOTHING.retention, maxAgeDays: 30 },
    deletion: { target: "quarantine" },
  });
  const pi = ["/work/a", "/work/b", "/work/c"].map((cwd, i) => {
    const path = writeSession(root, cwd, 1 + i).getSessionFile()!;
    setModified(path, new Date(Date.now() - (60 + i) * DAY));
    return path;
  });
  // A recent one stays, so that the clean does not empty the store (which is refused).
  setModified(writeSession(root, "/work/d", 1).getSessionFile()!, new Date(Date.now() - DAY));
  writeCodexStore(join(home, ".codex"));
  // The server inherits this worker's environment: no `codex` on its PATH, none named.
  const saved = { PATH: process.env.PATH, codex: process.env.SESSION_RETENTION_CODEX };
  process.env.PATH = (process.env.PATH ?? "")
    .split(delimiter)
    .filter((dir) => dir && !existsSync(join(dir, "codex")))
    .join(delimiter);
  delete process.env.SESSION_RETENTION_CODEX;
  let server;
  try {
    server = await serve();
  } finally {
    process.env.PATH = saved.PATH;
    if (saved.codex !== undefined) process.env.SESSION_RETENTION_CODEX = saved.codex;
  }
  await page.goto(server.url);
  const headline = page.getByTestId("overview-headline");
  await expect(headline).toContainText(/ 3 of \d+ sessions have not been used for 30 days\./);
  await expect(headline).toContainText(/\d+ more it chose cannot be moved now\./);

  await page.getByTestId("review-cleanup").click();
  const wizard = page.getByTestId("wizard");
  await wizard.getByTestId("wizard-next").click();
  const leftOut = wizard.getByTestId("left-out");
  await expect(leftOut.getByTestId("left-out-group")).toHaveCount(1);
  await expect(leftOut.getByTestId("left-out-reason")).toContainText("no `codex` binary was found");
  await expect(wizard.getByTestId("ticked-total")).toContainText("3 of 3 ticked");
  await wizard.getByTestId("wizard-next").click();
  await expect(wizard.getByTestId("review-count")).toHaveText("3");
  await wizard.getByTestId("wizard-next").click();
  await expect(wizard.getByTestId("wizard-confirm")).toBeVisible();
  // A large share of this small store: typed DELETE (shared/confirmation.ts).
  if ((await wizard.getByTestId("confirm-input").count()) > 0)
    await wizard.getByTestId("confirm-input").fill("DELETE");
  await wizard.getByTestId("wizard-execute").click();
  await expect(wizard.getByTestId("result-moved")).toHaveText("3");
  await expect(wizard.getByTestId("result-skipped")).toHaveCount(0);
  for (const path of pi) expect(existsSync(path), path).toBe(false);
});
