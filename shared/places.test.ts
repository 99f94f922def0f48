// The rules for store roots and the quarantine, on normalized paths.
import { describe, expect, it } from "vitest";
import {
  configPlaceProblems,
  controlCharacterProblem,
  emptyPathProblem,
  outputFolderProblem,
  placeProblem,
  type PlaceRule,
} from "./places.js";

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

describe("placeProblem for a session we write into", () => {
  it.each<[string, PlaceRule]>([
    ["/", "filesystem-root"],
    ["/home/me", "home"],
    ["/home", "above-home"],
    ["/etc", "system-folder"],
    ["/usr/lib/x", "system-folder"],
    ["/home/bob", "users-home"],
  ])("%s is refused (%s), as a session", (path, rule) => {
    expect(placeProblem(path, "session", context)?.message).toBe(
      placeProblem(path, "store", context)!.message.replace("a session store", "a session to write to"),
    );
    expect(placeProblem(path, "session", context)?.rule).toBe(rule);
  });

  // Its store's root is judged as a store (place-gate.ts): a session is where its store keeps it.
  it.each(["/home/me/.pi/agent/sessions/--x--", "/home/me/.local/share/Trash/files/x", "/srv/ws/abc"])(
    "%s is judged on its own rules only",
    (path) => expect(placeProblem(path, "session", context)).toBeUndefined(),
  );
});

describe("controlCharacterProblem", () => {
  it.each([
    ["\u0000", "0000"],
    ["\t", "0009"],
    ["\n", "000A"],
    ["\r", "000D"],
    ["\u001b", "001B"],
    ["\u001f", "001F"],
    ["\u007f", "007F"],
  ])("refuses %j, naming it and where it is", (char, code) => {
    const problem = controlCharacterProblem(`/srv/a${char}b`, "sessionDir");
    expect(problem?.rule).toBe("control-character");
    expect(problem?.message).toMatch(new RegExp(`^sessionDir "/srv/a\\\\u${code.toLowerCase()}b" holds`));
    expect(problem?.message).toContain(`U+${code} (at character 7)`);
  });

  // Only C0 and DEL: other characters a name may hold are a path's business.
  it.each(["/srv/a b", "/srv/é", "/srv/\u0080", "/srv/\u202e", "/srv/\ufffd", ""])(
    "lets %j through",
    (path) => expect(controlCharacterProblem(path, "x")).toBeUndefined(),
  );

  it("is reported at the key of every folder of a config", () => {
    const nul = "/srv/a\u0000b";
    expect(
      configPlaceProblems(
        { sessionDir: nul, stores: [{ kind: "pi", root: nul }], deletion: { quarantineDir: nul } },
        { home: HOME, homes: [HOME] },
      ).map((p) => [p.path, p.message.endsWith("(rule control-character)")]),
    ).toEqual([
      ["sessionDir", true],
      ["stores[0].root", true],
      ["deletion.quarantineDir", true],
    ]);
  });
});

describe("outputFolderProblem", () => {
  const places = { stores: context.stores, trash: context.trash, quarantine: context.quarantine.path };
  it.each<[string, PlaceRule]>([
    ["/", "filesystem-root"],
    ["/etc", "system-folder"],
    ["/etc/cron.d", "system-folder"],
    ["/usr/local/bin", "system-folder"],
    ["/proc/self", "system-folder"],
    ["/home/me/.pi/agent/sessions/--x--", "output-in-store"],
    ["/home/me/.pi/agent/session-trash", "output-in-store"],
    ["/home/me/.local/share/Trash/files", "output-in-store"],
  ])("%s is refused (%s)", (folder, rule) => {
    expect(outputFolderProblem(folder, places)?.rule).toBe(rule);
  });

  // Wherever else a user keeps files: home itself, /tmp, node_exporter's folder, the runtime dir.
  it.each([
    "/home/me",
    "/tmp",
    "/tmp/reports",
    "/var/lib/prometheus/node-exporter",
    "/run/user/1000",
    "/srv",
  ])("%s is a fine folder for a report or a textfile", (folder) =>
    expect(outputFolderProblem(folder, places)).toBeUndefined(),
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
