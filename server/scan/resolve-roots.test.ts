// Which stores a command looks at when none is named, and a configured quarantine the gate refuses.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { RefusedPlaceError } from "../safety/place-gate.js";
import { statePaths } from "../state/state-dir.js";
import { resolveStores } from "./resolve-roots.js";
import { piStores } from "../../test-support/pi-stores.js";

const piStore = () => join(process.env.PI_CODING_AGENT_DIR!, "sessions");
beforeAll(() => mkdirSync(piStore(), { recursive: true }));

describe("resolveStores with the stores pi uses (none named)", () => {
  const configured = (quarantineDir?: string) => ({
    configPath: statePaths().configFile,
    sessionDir: undefined,
    ...(quarantineDir !== undefined ? { quarantineDir } : {}),
  });

  it("finds pi's default store", () => {
    expect(resolveStores({ stores: [] }, process.env, configured()).stores).toEqual(piStores(piStore()));
  });

  // The stores were skipped one by one for the quarantine's sake, and the command then said that
  // pi's store "does not exist".
  it.each<[string, () => string, string]>([
    ["/", () => "/", "filesystem-root"],
    ["home", () => process.env.HOME!, "home"],
    ["~/Documents", () => join(process.env.HOME!, "Documents"), "quarantine-in-home"],
    ["inside pi's store", () => join(piStore(), "q"), "quarantine-in-store"],
  ])("stops at a configured quarantine the gate refuses (%s), with its rule", (_, quarantine, rule) => {
    const attempt = () => resolveStores({ stores: [] }, process.env, configured(quarantine()));
    expect(attempt).toThrow(RefusedPlaceError);
    expect(attempt).toThrow(`(rule ${rule})`);
  });
});
