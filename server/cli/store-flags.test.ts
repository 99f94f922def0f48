// `--store KIND:DIR` is read once, at the CLI's edge, into a structured store; the rest of the
// program never sees the string form.
import { describe, expect, it } from "vitest";
import { UsageError } from "./errors.js";
import { runCli } from "./main.js";
import { parseStoreFlag, parseStoreFlags } from "./store-flags.js";

describe("parseStoreFlag", () => {
  it.each([
    ["agentsh:/home/u/.agentsh/sessions", { kind: "agentsh", root: "/home/u/.agentsh/sessions" }],
    ["workspace:/srv/a:b", { kind: "workspace", root: "/srv/a:b" }], // only the first colon splits
    ["pi:/p", { kind: "pi", root: "/p" }],
    ["claude:", { kind: "claude", root: "" }], // an empty folder is refused later, by resolveStores
  ])("reads %j", (flag, store) => {
    expect(parseStoreFlag(flag)).toEqual(store);
  });

  it.each(["/just/a/dir", "nope:/x", "Claude:/x", ":/x", ""])("refuses %j as a usage error", (flag) => {
    expect(() => parseStoreFlag(flag)).toThrow(UsageError);
    expect(() => parseStoreFlag(flag)).toThrow(/--store wants KIND:DIR with KIND pi, /);
  });

  it("reads every flag given, and none as none", () => {
    expect(parseStoreFlags(["pi:/a", "codex:/b"])).toEqual([
      { kind: "pi", root: "/a" },
      { kind: "codex", root: "/b" },
    ]);
    expect(parseStoreFlags(undefined)).toEqual([]);
  });

  it("a command given a malformed --store stops with the reason (exit 2) before looking at anything", async () => {
    const err: string[] = [];
    const status = await runCli(["scan", "--store", "nope:/x"], {
      stdout: () => {},
      stderr: (t) => err.push(t),
    });
    expect(status).toBe(2);
    expect(err.join("")).toContain(`--store wants KIND:DIR`);
  });
});
