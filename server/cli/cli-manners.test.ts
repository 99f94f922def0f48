// The CLI's manners, as git's: `help <command>`, "did you mean" for a mistyped command or option,
// an example in every command's help, and a bad `--set` named as such by `status`.
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCaptured } from "../../test-support/cli-run.js";
import { statePaths } from "../state/state-dir.js";
import { completionTable } from "./completion-command.js";
import { closest, editDistance } from "./suggest.js";

describe("help <command>", () => {
  it.each(["scan", "plan", "clean", "trash", "completion", "repair-metadata", "unprotect"])(
    "help %s prints what the command's --help prints, exit 0",
    async (command) => {
      const viaHelp = await runCaptured(["help", command]);
      const viaFlag = await runCaptured([command, "--help"]);
      expect(viaHelp).toEqual({ ...viaFlag, status: 0 });
      expect(viaHelp.stdout).toMatch(
        new RegExp(`^Usage: session-retention ${command === "unprotect" ? "protect" : command}\\b`),
      );
    },
  );

  it("help alone, and help help, print the main help", async () => {
    for (const argv of [["help"], ["help", "help"]]) {
      const { status, stdout } = await runCaptured(argv);
      expect(status).toBe(0);
      expect(stdout).toMatch(/^Usage: session-retention <command>/);
    }
  });

  it("help of a mistyped command suggests the command; of two commands is a usage error", async () => {
    expect(await runCaptured(["help", "cleen"])).toMatchObject({
      status: 2,
      stdout: "",
      stderr: 'session-retention: unknown command "cleen" (did you mean clean?)',
    });
    const two = await runCaptured(["help", "scan", "plan"]);
    expect(two.status).toBe(2);
    expect(two.stderr).toContain('help: unexpected "plan"');
  });
});

describe("did you mean", () => {
  it("edit distance counts a swap of two neighbours as one edit", () => {
    expect(editDistance("scna", "scan")).toBe(1);
    expect(editDistance("jsn", "json")).toBe(1);
    expect(editDistance("plan", "plan")).toBe(0);
    expect(editDistance("", "abc")).toBe(3);
    expect(editDistance("kitten", "sitting")).toBe(3);
  });

  it("offers the nearest word, a word begun, and nothing for a tie or a far or tiny word", () => {
    const commands = ["scan", "plan", "status", "clean", "config", "cache", "completion"];
    expect(closest("scna", commands)).toBe("scan");
    expect(closest("stauts", commands)).toBe("status");
    expect(closest("compl", commands)).toBe("completion"); // a prefix, three edits short
    expect(closest("co", commands)).toBeUndefined(); // config and completion both begin so
    expect(closest("x", commands)).toBeUndefined();
    expect(closest("frobnicate", commands)).toBeUndefined();
    expect(closest("--jsn", ["--json", "--help", "--top"])).toBe("--json");
  });

  it.each([
    [["scna"], 'unknown command "scna" (did you mean scan?)'],
    [["satus"], 'unknown command "satus" (did you mean status?)'],
    [["scan", "--jsn"], "scan: unknown option '--jsn' (did you mean --json?)"],
    [["plan", "--lsit-kept"], "plan: unknown option '--lsit-kept' (did you mean --list-kept?)"],
    [["clean", "--dryrun"], "clean: unknown option '--dryrun' (did you mean --dry-run?)"],
  ])("%j: one line with the suggestion, exit 2", async (argv, message) => {
    expect(await runCaptured(argv)).toMatchObject({
      status: 2,
      stdout: "",
      stderr: `session-retention: ${message}`,
    });
  });

  it("with --json the error document carries the suggestion", async () => {
    const { status, stdout } = await runCaptured(["scan", "--jsn", "--json"]);
    expect(status).toBe(2);
    expect(JSON.parse(stdout)).toEqual({
      ok: false,
      exitCode: 2,
      errors: ["session-retention: scan: unknown option '--jsn' (did you mean --json?)"],
    });
  });

  it("status keeps its own exit status for bad arguments (3, unknown), with the suggestion", async () => {
    expect(await runCaptured(["status", "--jsn"])).toMatchObject({
      status: 3,
      stderr: "session-retention: status: unknown option '--jsn' (did you mean --json?)",
    });
  });

  it("nothing near: the command and the option errors stay as they were", async () => {
    expect((await runCaptured(["frobnicate"])).stderr).toBe(
      'session-retention: unknown command "frobnicate" (try --help)',
    );
    const far = await runCaptured(["scan", "--zzzzzz"]);
    expect(far.status).toBe(2);
    expect(far.stderr).toMatch(/^session-retention: Unknown option '--zzzzzz'/);
    expect(far.stderr).not.toContain("did you mean");
  });
});

describe("examples", () => {
  it("every command's help has an Examples section of 2–4 invocations of that command", async () => {
    for (const { name } of await completionTable()) {
      const { status, stdout } = await runCaptured(["help", name]);
      expect(status, name).toBe(0);
      const section = /\nExamples:\n((?: {2}.+\n?)+)/.exec(stdout)?.[1];
      expect(section, name).toBeDefined();
      const lines = section!.trimEnd().split("\n");
      expect(lines.length, name).toBeGreaterThanOrEqual(2);
      expect(lines.length, name).toBeLessThanOrEqual(4);
      // protect and unprotect share one help, with examples of both.
      const self = new RegExp(
        `^ {2}session-retention ${name.endsWith("protect") ? "(un)?protect" : name}\\b`,
      );
      for (const line of lines) expect(line, name).toMatch(self);
    }
  });
});

describe("status --set with a bad value", () => {
  it("names the value and what is wrong with it, not a config file that does not exist", async () => {
    const root = mkdtempSync(join(tmpdir(), "sr-store-"));
    const { configFile } = statePaths();
    const { status, stdout } = await runCaptured(["status", "--root", root, "--set", "mode=bogus"]);
    expect(status).toBe(3);
    expect(stdout).toMatch(/^unknown · invalid value on the command line — --set mode=bogus: mode: /);
    expect(stdout).toContain('"warn-only"');
    expect(stdout).not.toContain("invalid config");
    expect(stdout).toContain(`config file ${configFile} (none yet)`);
    expect(existsSync(configFile)).toBe(false);
  });
});
