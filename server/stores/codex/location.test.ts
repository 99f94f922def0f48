// Where Codex's databases are: what a delete checks for rows left behind.
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { mkfifo, neverBlockedBy } from "../../../test-support/fifo.js";
import { stateDatabases } from "./codex-delete.js";
import { codexDefaultRoot, codexSqliteHome } from "./location.js";

const newHome = () => realpathSync(mkdtempSync(join(tmpdir(), "sr-codex-loc-")));

describe("Codex's locations", () => {
  it("its home: $CODEX_HOME, else ~/.codex", () => {
    expect(codexDefaultRoot({ HOME: "/home/me" })).toBe("/home/me/.codex");
    expect(codexDefaultRoot({ HOME: "/home/me", CODEX_HOME: "/srv/codex" })).toBe("/srv/codex");
    expect(codexDefaultRoot({ HOME: "/home/me", CODEX_HOME: "" })).toBe("/home/me/.codex");
  });

  it("its SQLite home: $CODEX_SQLITE_HOME, else a top-level sqlite_home in config.toml, else the home", () => {
    const root = newHome();
    expect(codexSqliteHome(root, {})).toBe(root);
    writeFileSync(
      join(root, "config.toml"),
      'model = "gpt-5"\nsqlite_home = "~/db" # comment\n[profiles.x]\nsqlite_home = "/not/this"\n',
    );
    expect(codexSqliteHome(root, { HOME: "/home/me" })).toBe("/home/me/db");
    writeFileSync(join(root, "config.toml"), '[tui]\nsqlite_home = "/not/top-level"\n');
    expect(codexSqliteHome(root, {})).toBe(root);
    writeFileSync(join(root, "config.toml"), 'sqlite_home = "state"\n');
    expect(codexSqliteHome(root, {})).toBe(join(root, "state"));
    expect(codexSqliteHome(root, { CODEX_SQLITE_HOME: "/env" })).toBe("/env");
  });

  it("a config.toml that is a FIFO is no config, never a wait", () => {
    const root = newHome();
    const fifo = mkfifo(join(root, "config.toml"));
    expect(neverBlockedBy(fifo, () => codexSqliteHome(root, {}))).toBe(root);
  });

  it("every state database, the SQLite home's first, each folder's newest version first", () => {
    const root = newHome();
    const db = join(root, "db");
    mkdirSync(db);
    for (const name of ["state_5.sqlite", "state_5.sqlite-wal", "logs_2.sqlite"])
      writeFileSync(join(db, name), "");
    for (const name of ["state_4.sqlite", "state.sqlite", "state_10.sqlite"])
      writeFileSync(join(root, name), "");
    expect(stateDatabases(root, { CODEX_SQLITE_HOME: db })).toEqual([
      join(db, "state_5.sqlite"),
      join(root, "state_10.sqlite"),
      join(root, "state_4.sqlite"),
      join(root, "state.sqlite"),
    ]);
  });
});
