// Completion scripts as the shells see them: bash loads the script and its completion function is
// driven with COMP_WORDS/COMP_CWORD; zsh and fish check its syntax (when installed).
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { completionScript, completionTable } from "./completion-command.js";
import { runCli } from "./main.js";

const has = (shell: string) => spawnSync("sh", ["-c", `command -v ${shell}`]).status === 0;

async function scriptFile(shell: string) {
  const file = join(mkdtempSync(join(tmpdir(), "sr-completion-")), `completion.${shell}`);
  writeFileSync(file, await completionScript(shell));
  return file;
}

/** What bash completes for the words typed so far (the last one being completed). */
function bashCompletes(file: string, words: string[]): string[] {
  const array = words.map((w) => `'${w}'`).join(" ");
  const out = execFileSync(
    "bash",
    [
      "-c",
      `source '${file}'; COMP_WORDS=(${array}); COMP_CWORD=${words.length - 1}; _session_retention; printf '%s\\n' "\${COMPREPLY[@]}"`,
    ],
    { encoding: "utf8", cwd: tmpdir() },
  );
  return out.split("\n").filter(Boolean);
}

describe("completion scripts", () => {
  it("come from the commands' own help texts: every command, its flags and its actions", async () => {
    const table = await completionTable();
    const byName = new Map(table.map((c) => [c.name, c]));
    expect([...byName.keys()]).toEqual(
      expect.arrayContaining([
        "scan",
        "clean",
        "trash",
        "prune",
        "protect",
        "unprotect",
        "cache",
        "completion",
      ]),
    );
    expect(byName.get("clean")!.options).toEqual(
      expect.arrayContaining(["--dry-run", "--ids", "--json", "--yes"]),
    );
    expect(byName.get("trash")!.actions).toEqual(["list", "restore", "purge", "empty"]);
    expect(byName.get("protect")!.actions).toEqual([]); // <id|path> is a placeholder
  });

  it("bash: registered with complete, and completes commands, actions and options", async () => {
    const file = await scriptFile("bash");
    const registered = execFileSync("bash", ["-c", `source '${file}'; complete -p session-retention`], {
      encoding: "utf8",
    });
    expect(registered.trim()).toBe("complete -o filenames -F _session_retention session-retention");
    expect(bashCompletes(file, ["session-retention", "c"]).sort()).toEqual([
      "cache",
      "clean",
      "completion",
      "config",
    ]);
    expect(bashCompletes(file, ["session-retention", "trash", "re"])).toEqual(["restore"]);
    expect(bashCompletes(file, ["session-retention", "clean", "--d"])).toEqual(["--dry-run"]);
    expect(bashCompletes(file, ["session-retention", "clean", "--j"])).toEqual(["--json"]);
    expect(bashCompletes(file, ["session-retention", "prune", "--older-than", "24h", "--"])).toEqual(
      expect.arrayContaining(["--dry-run", "--json", "--store", "--yes"]),
    );
    expect(bashCompletes(file, ["session-retention", "completion", "z"])).toEqual(["zsh"]);
  });

  it.runIf(has("zsh"))("zsh: the script parses (zsh -n)", async () => {
    const result = spawnSync("zsh", ["-n", await scriptFile("zsh")], { encoding: "utf8" });
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
  });

  it.runIf(has("fish"))("fish: the script parses (fish -n)", async () => {
    const result = spawnSync("fish", ["-n", await scriptFile("fish")], { encoding: "utf8" });
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
  });

  it("an unknown shell is a usage error", async () => {
    const err: string[] = [];
    const status = await runCli(["completion", "tcsh"], { stdout: () => {}, stderr: (t) => err.push(t) });
    expect(status).toBe(2);
    expect(err.join("")).toContain('unknown shell "tcsh" (bash, zsh, fish)');
  });
});
