// The pi extension's policy command against hostile places, in pi's real runtime
// (test-support/pi-runtime.ts): `/session-retention policy sessionDir /`, `… stores [...]`,
// `… deletion.quarantineDir ~` — each refused with an error notification that names the rule and
// the real path, the config file byte-identical, nothing in the sandbox changed.
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  byName,
  expectNamed,
  hostileConfigs,
  hostileSandbox,
  unchangedBy,
} from "../../test-support/hostile-home.js";
import { piFolder } from "../../test-support/pi-store.js";
import { type PiUnderTest, scriptedUi, SessionManager, startPi } from "../../test-support/pi-runtime.js";
import { visible } from "../../shared/visible-text.js";
import { statePaths } from "../state/state-dir.js";

const box = hostileSandbox();
const ui = scriptedUi();
let pi: PiUnderTest;

beforeAll(async () => {
  // pi works in a project of its own; `.` in the config is refused as written, whatever the cwd.
  const project = join(box.root, "project");
  mkdirSync(project);
  pi = await startPi({
    cwd: project,
    sessionManager: SessionManager.create(project, join(box.piStore, piFolder(project))),
    ui: ui.ui,
  });
});
afterAll(() => pi.runtime.dispose());

it.each(byName(hostileConfigs(box)))(
  "/session-retention policy: %s → an error naming it; the file unchanged",
  async (_, c) => {
    const file = readFileSync(statePaths().configFile);
    // The value as JSON, as a user would type a string or a list of stores.
    const value = JSON.stringify(c.value);
    await unchangedBy(box, () => pi.runtime.session.prompt(`/session-retention policy ${c.key} ${value}`));
    const note = ui.notes.at(-1)!;
    expect(note.level).toBe("error");
    // As pi shows it: a control character JSON leaves raw (DEL) is made visible there.
    expect(note.text.startsWith(`Not saved — ${c.key}=${visible(value)}:\n`), note.text).toBe(true);
    const line = note.text.split("\n").find((l) => l.trimStart().startsWith(`${c.at}: `));
    expect(line, note.text).toBeDefined();
    expectNamed(line!, c, "config");
    expect(readFileSync(statePaths().configFile)).toEqual(file);
  },
);
