// A real pi left running without our extension, seen on the dashboard: pi's CLI interactive in a
// tmux terminal in the test's home, talking to a mock model on 127.0.0.1, one exchange done. The
// overview says which pi, where, what is kept and how to load the extension; its session's row is
// kept as in use, by pi's pid, and cannot be selected.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { startMockModel } from "../test-support/mock-model/index.js";
import { piFolder } from "../test-support/pi-store.js";
import { MOCK_MODEL, startPiInTmux, until, useMockModel } from "../test-support/pi-tmux.js";
import { agentDirWith, expect, KEEP_NOTHING, networkQuiet, test, violations } from "./serve-fixture.js";

test("a pi running without the extension: the overview says so, and its session is kept by its pid", async ({
  page,
  home,
  serve,
}) => {
  const { agentDir, root } = agentDirWith(home, KEEP_NOTHING);
  const project = realpathSync(mkdtempSync(join(home, "project-")));
  const model = await startMockModel();
  mkdirSync(join(home, "tmp"), { recursive: true });
  const pi = await startPiInTmux({
    cwd: project,
    args: useMockModel(agentDir, model.url),
    env: {
      ...process.env,
      HOME: home,
      PI_CODING_AGENT_DIR: agentDir,
      PI_CODING_AGENT_SESSION_DIR: "",
      TMPDIR: join(home, "tmp"),
    },
    readyText: MOCK_MODEL,
  });
  try {
    await pi.type("hello from the dashboard test");
    await model.answered(1);
    const folder = join(root, piFolder(project));
    await until(
      () =>
        readdirSync(folder, { withFileTypes: true }).some((entry) =>
          readFileSync(join(folder, entry.name), "utf8").includes("reply 1: hello from the dashboard test"),
        ),
      () => `pi never wrote its reply into ${folder}`,
    );

    const server = await serve();
    await page.goto(server.url);
    const notice = page.getByTestId("pi-without-extension");
    await expect(notice).toContainText(
      `pi process ${pi.pid} runs in ${project} without session-retention's extension`,
    );
    await expect(notice).toContainText("pi install npm:session-retention");
    await networkQuiet(page);
    expect(await violations(page)).toEqual([]);

    await page.getByTestId("nav-sessions").click();
    const row = page.getByTestId("session-row").filter({ hasText: "hello from the dashboard test" });
    await expect(row.getByTestId("kept-badge")).toHaveText("active");
    await expect(row.getByTestId("row-select")).toBeDisabled();
    await row.getByTestId("open-session").click();
    await expect(page.getByTestId("drawer-kept")).toContainText(
      `written since pi process ${pi.pid} started in ${project}`,
    );
  } finally {
    await pi.stop();
    await model.close();
  }
});
