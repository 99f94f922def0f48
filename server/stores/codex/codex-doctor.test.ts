// `codex doctor`'s verdict on a store: judged from a report the real Codex 0.169 wrote (recorded,
// trimmed to four of its checks, paths renamed: test-support/codex-doctor-0.169.json) — only its
// state and thread checks count, the worst of them is the verdict, their issues are said — and run
// for real: the installed Codex's report on a store, its network probes kept on this machine, and
// a binary that gives no report; strace shows it sends nothing off this machine. The installed
// Codex (0.169) has `doctor`, so "this Codex has no doctor" is not run here: a binary that prints
// nothing stands for every such case.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { codexDoctor, doctorCommand, doctorVerdict } from "./codex-doctor.js";
import { agentBin } from "../../../test-support/test-agents.js";

const recorded = readFileSync(resolve("test-support/codex-doctor-0.169.json"), "utf8");
const report = () => JSON.parse(recorded) as { checks: Record<string, Record<string, unknown>> };

describe("doctorVerdict: a recorded report of Codex 0.169", () => {
  it("judges the store's checks only: a warning with its issue, whatever sign-in and network say", () => {
    expect(doctorVerdict(recorded)).toEqual({
      status: "warning",
      message:
        "codex doctor 0.169.0: warning — rollout files and state DB thread inventory differ (rollout scan was incomplete or found bad files: 1 scan errors, 0 malformed names, scan cap reached: false)",
    });
  });

  it("ok when every store check is ok, each summary said; fail when one fails", () => {
    const ok = report();
    ok.checks["state.rollout_db_parity"]!.status = "ok";
    delete ok.checks["state.rollout_db_parity"]!.issues;
    expect(doctorVerdict(JSON.stringify(ok))).toEqual({
      status: "ok",
      message:
        "codex doctor 0.169.0: ok — state paths and databases are inspectable; rollout files and state DB thread inventory differ",
    });
    const failed = report();
    failed.checks["state.paths"]!.status = "fail";
    expect(doctorVerdict(JSON.stringify(failed)).status).toBe("fail");
    expect(doctorVerdict(JSON.stringify(failed)).message).toBe(
      "codex doctor 0.169.0: fail — state paths and databases are inspectable",
    );
  });

  it("a warning line before the document is passed over; no document or no store check is 'unavailable'", () => {
    expect(doctorVerdict(`WARNING: proceeding\n${recorded}`).status).toBe("warning");
    expect(doctorVerdict("Usage: codex [OPTIONS]")).toEqual({
      status: "unavailable",
      message: "codex doctor gave no report it could be judged by",
    });
    const none = report();
    delete none.checks["state.paths"];
    delete none.checks["state.rollout_db_parity"];
    expect(doctorVerdict(JSON.stringify(none))).toEqual({
      status: "unavailable",
      message: "codex doctor 0.169.0 has no check of the store's state",
    });
  });
});

describe("codexDoctor: the real binary", () => {
  const CODEX = agentBin("codex");
  const home = () => {
    const root = join(realpathSync(mkdtempSync(join(tmpdir(), "sr-codex-doctor-"))), ".codex");
    mkdirSync(join(root, "sessions"), { recursive: true });
    return root;
  };

  it("the installed Codex reports on the store; its probes go to a closed port here, never out", () => {
    const root = home();
    const verdict = codexDoctor(CODEX, root, process.env);
    const version = spawnSync(CODEX, ["--version"], { encoding: "utf8" }).stdout.trim().split(" ").at(-1);
    expect(verdict.status).toBe("ok");
    expect(verdict.message).toMatch(new RegExp(`^codex doctor ${version!.replace(/\./g, "\\.")}: ok — `));
    // Traced: it connects only to the closed port here and sends nothing (no DNS query) elsewhere.
    const { args, env } = doctorCommand(root, process.env);
    const trace = join(root, "..", "strace.txt");
    spawnSync("strace", ["-f", "-e", "trace=connect,sendto", "-o", trace, CODEX, ...args], {
      env,
      cwd: root,
    });
    const inet = readFileSync(trace, "utf8")
      .split("\n")
      .filter((l) => l.includes("AF_INET"));
    expect(inet.length).toBeGreaterThan(0);
    expect(inet.filter((l) => !l.includes('htons(9), sin_addr=inet_addr("127.0.0.1")'))).toEqual([]);
  });

  it("a binary that gives no report is 'unavailable', said with what it said", () => {
    expect(codexDoctor("/bin/false", home(), process.env)).toEqual({
      status: "unavailable",
      message: "codex doctor gave no report (exit 1)",
    });
    expect(codexDoctor("/nonexistent/codex", home(), process.env).message).toMatch(
      /^codex doctor could not run \(spawnSync \/nonexistent\/codex ENOENT\)$/,
    );
  });
});
