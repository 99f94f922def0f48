// The rules for store roots and the quarantine, on normalized paths.
import { describe, expect, it } from "vitest";
import { configPlaceProblems, emptyPathProblem, placeProblem, type PlaceRule } from "./places.js";

const HOME = "/home/me";
const context = {
  homes: [HOME],
  stores: [{ path: "/home/me/.pi/agent/sessions", label: "sessionDir" }],
  quarantine: { path: "/home/me/.pi/agent/session-trash", configured: false },
  trash: "/home/me/.local/share/Trash",
};

describe("placeProblem for a store root", () => {
  it.each<[string, PlaceRule]>([
    ["/", "filesystem-root"],
    ["/home/me", "home"],
    ["/home", "above-home"],
    ["/etc", "system-folder"],
    ["/usr", "system-folder"],
    ["/usr/local/share/sessions", "system-folder"],
    ["/proc/self", "system-folder"],
    ["/opt", "system-folder"],
    ["/srv", "system-folder"],
    ["/tmp", "system-folder"],
    ["/var", "system-folder"],
    ["/root", "system-folder"],
    ["/home/bob", "users-home"],
    ["/Users/bob", "users-home"],
    ["/home/me/.pi/agent/sessions/--home-me--", "store-in-store"],
    ["/home/me/.pi/agent", "store-in-trash"], // holds the quarantine
    ["/home/me/.pi/agent/sessions", "store-in-store"], // named again, as another kind
    ["/home/me/.pi/agent/session-trash/op", "store-in-trash"],
    ["/home/me/.local/share/Trash/files", "store-in-trash"],
    ["/home/me/.local", "store-in-trash"],
  ])("%s is refused (%s)", (path, rule) => {
    const problem = placeProblem(path, "store", context);
    expect(problem?.rule).toBe(rule);
    expect(problem?.message).toContain(path);
    expect(problem?.message).toContain(`rule ${rule}`);
  });

  it.each(["/home/me/.agentsh/sessions", "/srv/sandbox/workspace", "/tmp/x", "/home/me/code", "/data/pi"])(
    "%s is a fine store root",
    (path) => expect(placeProblem(path, "store", context)).toBeUndefined(),
  );
});

describe("placeProblem for a quarantine", () => {
  it.each<[string, PlaceRule]>([
    ["/", "filesystem-root"],
    ["/home/me", "home"],
    ["/etc/q", "system-folder"],
    ["/home/me/Documents", "quarantine-in-home"],
    ["/home/me/.ssh", "quarantine-in-home"],
    ["/home/me/.pi/agent/sessions/trash", "quarantine-in-store"],
    ["/home/me/.pi", "quarantine-in-store"],
    ["/home/me/.local/share/Trash/q", "quarantine-in-trash"],
  ])("%s is refused (%s)", (path, rule) => {
    expect(placeProblem(path, "quarantine", context)?.rule).toBe(rule);
  });

  it.each(["/home/me/.pi/agent/session-trash", "/home/me/.cache/session-retention/quarantine", "/srv/q"])(
    "%s is a fine quarantine",
    (path) => expect(placeProblem(path, "quarantine", context)).toBeUndefined(),
  );
});

describe("emptyPathProblem", () => {
  it.each(["", " ", ".", "./", "././"])("%j is refused", (raw) => {
    expect(emptyPathProblem(raw, "--root")?.rule).toBe("empty-path");
  });
  // `/` is no empty path: it must reach the filesystem-root rule, which names it for what it is.
  it.each(["./sessions", "..", "/x", "sessions", "/", "//", "/."])("%j is a path", (raw) => {
    expect(emptyPathProblem(raw, "--root")).toBeUndefined();
  });
});

describe("configPlaceProblems", () => {
  const environment = {
    home: HOME,
    homes: [HOME],
    trash: context.trash,
    defaultQuarantine: context.quarantine.path,
  };

  it("judges every folder of a config at its JSON path, together", () => {
    const problems = configPlaceProblems(
      {
        sessionDir: "~/.pi/agent/sessions",
        stores: [
          { kind: "pi", root: "~/.pi/agent/sessions" }, // the same store as sessionDir: fine
          { kind: "agentsh", root: "~/.pi/agent/sessions/--x--" }, // inside it: refused
          { kind: "workspace", root: "/" },
        ],
        deletion: { quarantineDir: "~/.pi/agent/sessions/q" },
      },
      environment,
    );
    expect(problems.map((p) => p.path)).toEqual([
      "stores[1].root",
      "stores[2].root",
      "deletion.quarantineDir",
    ]);
    expect(problems[0]!.message).toContain("is inside the store /home/me/.pi/agent/sessions");
  });

  it("refuses a store that holds the default quarantine, and a quarantine in a default store", () => {
    expect(configPlaceProblems({ sessionDir: "~/.pi/agent" }, environment)).toEqual([
      { path: "sessionDir", message: expect.stringContaining("rule store-in-trash") },
    ]);
    expect(
      configPlaceProblems(
        { deletion: { quarantineDir: "~/.pi/agent/sessions/x" } },
        { ...environment, defaultStores: [{ path: "/home/me/.pi/agent/sessions", label: "pi's store" }] },
      ),
    ).toEqual([{ path: "deletion.quarantineDir", message: expect.stringContaining("quarantine-in-store") }]);
  });

  it.each([
    ["/", "filesystem-root"],
    ["~", "home"],
    ["/home", "above-home"],
  ])("reports a quarantine at %s once, for itself, not every store as inside it", (quarantineDir, rule) => {
    const problems = configPlaceProblems(
      { sessionDir: "~/.pi/agent/sessions", deletion: { quarantineDir } },
      environment,
    );
    expect(problems).toEqual([
      { path: "deletion.quarantineDir", message: expect.stringContaining(`(rule ${rule})`) },
    ]);
  });

  it("names the real path when the written one resolves elsewhere (a symlink)", () => {
    const problems = configPlaceProblems(
      { sessionDir: "~/link" },
      { ...environment, resolve: (p) => (p === "/home/me/link" ? "/home/me" : p) },
    );
    expect(problems).toEqual([
      {
        path: "sessionDir",
        message: '"~/link" resolves to /home/me is the home folder, not a session store (rule home)',
      },
    ]);
  });

  it("asks for an absolute path", () => {
    expect(configPlaceProblems({ stores: [{ kind: "pi", root: "rel" }] }, environment)).toEqual([
      {
        path: "stores[0].root",
        message: 'must be an absolute path or start with ~/, got "rel" (rule relative-path)',
      },
    ]);
  });
});
