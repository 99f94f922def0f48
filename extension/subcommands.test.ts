import { describe, expect, it } from "vitest";
import { ConfigSchema } from "../shared/config.js";
import { settings } from "./commands.js";
import { completions, POLICY_KEYS } from "./subcommands.js";

describe("completions", () => {
  it("completes sub-commands, then the settings after `policy`", () => {
    expect(completions("pro")).toEqual([{ value: "protect", label: "protect" }]);
    expect(completions("")).toHaveLength(7);
    expect(completions("policy retention.auto")).toEqual([
      { value: "policy retention.autoClean ", label: "retention.autoClean" },
      { value: "policy retention.autoCleanMaxDeletesPerRun ", label: "retention.autoCleanMaxDeletesPerRun" },
    ]);
    expect(completions("policy mode hard")).toBeNull(); // values are not guessed
    expect(completions("x")).toBeNull();
  });

  it("knows every setting of the config schema, and no other", () => {
    const fromSchema = settings(ConfigSchema.parse({})).map(([key]) => key);
    const optionalTopLevel = Object.keys(ConfigSchema.shape).filter(
      (key) => key !== "$schema" && !fromSchema.some((k) => k === key || k.startsWith(`${key}.`)),
    );
    expect([...POLICY_KEYS].sort()).toEqual([...fromSchema, ...optionalTopLevel].sort());
  });
});
