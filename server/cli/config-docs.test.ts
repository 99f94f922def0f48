// docs/config.md and docs/cli.md are the reference a user reads instead of the code; these tests
// keep them equal to it: the JSON Schema on the page is the one `config schema` prints, every key of
// it has a row, and every command and option a `--help` names is on the CLI page.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { configJsonSchema } from "../../shared/config.js";
import { runCli } from "./main.js";

const docs = (name: string) =>
  readFileSync(fileURLToPath(new URL(`../../docs/${name}`, import.meta.url)), "utf8");

/** The text under `## title`, up to the next heading of that level. */
function section(page: string, title: string): string {
  const start = page.indexOf(`\n## ${title}\n`);
  expect(start, `a "## ${title}" section`).toBeGreaterThanOrEqual(0);
  const end = page.indexOf("\n## ", start + 1);
  return page.slice(start, end < 0 ? undefined : end);
}

async function cli(argv: string[]): Promise<string> {
  const out: string[] = [];
  const status = await runCli(argv, { stdout: (t) => out.push(t), stderr: (t) => out.push(t) });
  expect(status, argv.join(" ")).toBe(0);
  return out.join("\n");
}

interface SchemaNode {
  properties?: Record<string, SchemaNode>;
  items?: SchemaNode;
  additionalProperties?: SchemaNode | boolean;
  anyOf?: SchemaNode[];
}

/** Every key a config file may hold, as docs/config.md writes it: `a.b`, `list[].c`, `map.<kind>.d`. */
function keyPaths(node: SchemaNode, prefix = ""): string[] {
  const paths: string[] = [];
  for (const [key, child] of Object.entries(node.properties ?? {})) {
    const path = prefix ? `${prefix}.${key}` : key;
    paths.push(path, ...nested(child, path));
  }
  return paths;
}

function nested(node: SchemaNode, path: string): string[] {
  return [
    ...keyPaths(node, path),
    ...(node.items ? keyPaths(node.items, `${path}[]`) : []),
    ...(typeof node.additionalProperties === "object"
      ? keyPaths(node.additionalProperties, `${path}.<kind>`)
      : []),
    ...(node.anyOf ?? []).flatMap((member) => keyPaths(member, path)),
  ];
}

describe("docs/config.md", () => {
  const page = docs("config.md");

  it("shows the JSON Schema exactly as the code makes it and `config schema` prints it", async () => {
    const block = /```json\n([\s\S]*?)\n```/.exec(section(page, "JSON Schema"));
    expect(block, "a json block in the JSON Schema section").not.toBeNull();
    const documented: unknown = JSON.parse(block![1]!);
    expect(documented).toEqual(configJsonSchema());
    expect(documented).toEqual(JSON.parse(await cli(["config", "schema"])));
  });

  it("has a row for every key of the schema, and none for a key the schema does not have", () => {
    const keys = [...new Set(keyPaths(configJsonSchema() as SchemaNode))];
    expect(keys).toContain("retention.neverReopened.activeMinutes");
    expect(keys).toContain("quota.agents.<kind>.maxSessionCount");
    const rows = [...section(page, "Every key").matchAll(/^\| `([^`]+)`\s+\|/gm)].map((m) => m[1]!);
    expect([...rows].sort()).toEqual([...keys].sort());
  });
});

describe("docs/cli.md", () => {
  const page = docs("cli.md");

  /** The section whose heading names the command in backticks (`protect` / `unprotect` is one). */
  function commandSection(command: string): string {
    const heading = new RegExp("^## .*`" + command + "`.*$", "m").exec(page);
    expect(heading, `a section for ${command}`).not.toBeNull();
    const start = heading!.index;
    const end = page.indexOf("\n## ", start + 1);
    return page.slice(start, end < 0 ? undefined : end);
  }

  it("has a section for every command `--help` lists, naming every option of its own `--help`", async () => {
    const overview = await cli(["--help"]);
    // The "Commands:" block only, up to its blank line: a later "Options:" block (--version) is not a command.
    const block = overview.split("Commands:")[1]!.split("\n\n")[0]!;
    const commands = [...block.matchAll(/^ {2}([a-z][a-z-]*)\s/gm)].map((m) => m[1]!);
    expect(commands).toContain("repair-metadata");
    expect(commands.length).toBeGreaterThanOrEqual(17);
    const missing: string[] = [];
    for (const command of [...commands, "unprotect"]) {
      const text = commandSection(command);
      const help = await cli([command, "--help"]);
      // Options are `--word`; node_exporter's own `--collector.textfile.directory` is quoted, not ours.
      const options = new Set([...help.matchAll(/(?<![\w-])--[a-z][a-z-]*(?![.\w])/g)].map((m) => m[0]));
      options.delete("--help");
      for (const option of options) if (!text.includes(option)) missing.push(`${command} ${option}`);
    }
    expect(missing).toEqual([]);
  });
});
