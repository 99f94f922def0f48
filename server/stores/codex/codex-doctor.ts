// Codex's own look at its store after we deleted from it or restored into it: `codex doctor --json`
// (Codex 0.169 and later) compares its rollout files with its state database's thread inventory —
// rows pointing at missing files, archive flags against where a rollout lies, duplicate thread ids —
// and checks its databases' integrity. Of its report we judge only those checks (categories "state"
// and "threads"); the others (sign-in, network, terminal, updates) say nothing about the store.
//
// Run as it is, doctor would also probe OpenAI's endpoints over the network (and ask DNS for them):
// a cleanup must not phone anyone. So, for this run only (nothing is written to its config), its
// model provider is one at a closed port on this machine and its proxies point there too: traced
// on 0.169, it then connects nowhere else and sends no DNS query; the store checks' verdicts are
// the same. It is not strictly read-only: opening Codex's SQLite databases creates a missing
// `-wal`/`-shm` pair and rewrites the `-shm` shared-memory index of the others; the databases
// themselves and every other file are left as they were. A verdict that is not "ok" is said
// loudly, never undone: our copy is already taken.
//
// After a restore, doctor always warns that the restored rollouts have no row in Codex's state
// database: a restore never writes Codex's databases, and Codex adds the rows when it next starts
// and reads its rollouts (measured on the pinned Codex: its next `exec` or `app-server` lists the
// threads again, and doctor is then "ok"). That warning, and only that one — every row it misses is
// of a rollout the restore put back — is said plainly as what it is, not as a warning.
import { spawnSync } from "node:child_process";

export type DoctorStatus = "ok" | "warning" | "fail" | "unavailable";

export interface DoctorVerdict {
  status: DoctorStatus;
  /** In a sentence: the verdict and what its checks said. */
  message: string;
}

/** Where doctor's network probes go instead of the network: a port nothing listens on. */
const NOWHERE = "127.0.0.1:9";
const PROXIES = ["HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"];
const OFFLINE = "session-retention-offline";

/** How doctor is run for the store at `root`: its arguments and environment (no probe leaves the machine). */
export function doctorCommand(root: string, env: NodeJS.ProcessEnv) {
  return {
    args: [
      "doctor",
      "--json",
      "-c",
      `model_provider="${OFFLINE}"`,
      "-c",
      `model_providers.${OFFLINE}={name="offline",base_url="http://${NOWHERE}/v1",wire_api="responses"}`,
    ],
    env: {
      ...env,
      CODEX_HOME: root,
      ...Object.fromEntries(PROXIES.map((name) => [name, `http://${NOWHERE}`])),
      NO_PROXY: "",
      no_proxy: "",
    },
  };
}

/** The checks about the store itself. */
const STORE_CATEGORIES = new Set(["state", "threads"]);
const RANK: Record<string, number> = { ok: 0, warning: 1, fail: 2 };

interface Check {
  id?: unknown;
  category?: unknown;
  status?: unknown;
  summary?: unknown;
  details?: Record<string, unknown>;
  issues?: Array<{ cause?: unknown; measured?: unknown }>;
}

/** Doctor's cause for rollout files without a row in its state database (0.169 and later). */
const MISSING_ROWS = "rollout files are missing from the state DB";

/**
 * How many rows `check` says are missing, when that is all it says and every path it names is one
 * of `restored`; undefined otherwise (another finding, more missing rows than rollouts restored, a
 * path we did not put back, or a report shaped otherwise).
 */
function missingRestoredRows(check: Check, restored: ReadonlySet<string>): number | undefined {
  const issues = check.issues ?? [];
  if (check.id !== "state.rollout_db_parity" || issues.length === 0) return undefined;
  if (issues.some((i) => i.cause !== MISSING_ROWS)) return undefined;
  const details = check.details ?? {};
  const missing =
    Number(details["rollout DB missing active rows"]) + Number(details["rollout DB missing archived rows"]);
  if (!Number.isInteger(missing) || missing < 1 || missing > restored.size) return undefined;
  // The paths it samples (one is given as a string, several as a list): each one we put back.
  const named = Object.entries(details)
    .filter(([key]) => /missing .*sample/.test(key))
    .flatMap(([, value]) => (Array.isArray(value) ? value : [value]));
  return named.every((path) => typeof path === "string" && restored.has(path)) ? missing : undefined;
}

/**
 * Doctor's verdict on the store, from its `--json` report (pure: recorded reports are tested as they
 * are). `restored`: the rollouts a restore just put back, whose missing rows are expected (see the
 * top of this file): a warning of nothing else is "ok", said plainly.
 */
export function doctorVerdict(stdout: string, restored: readonly string[] = []): DoctorVerdict {
  let report: { codexVersion?: unknown; checks?: Record<string, Check> };
  try {
    // Warnings may come before the document; the document is the rest from its first `{`.
    report = JSON.parse(stdout.slice(Math.max(0, stdout.indexOf("{"))));
  } catch {
    return { status: "unavailable", message: "codex doctor gave no report it could be judged by" };
  }
  const checks = Object.values(report.checks ?? {}).filter(
    (c) => typeof c.category === "string" && STORE_CATEGORIES.has(c.category),
  );
  const version = typeof report.codexVersion === "string" ? ` ${report.codexVersion}` : "";
  if (checks.length === 0)
    return { status: "unavailable", message: `codex doctor${version} has no check of the store's state` };
  const rank = (c: Check) => RANK[String(c.status)] ?? RANK.fail!;
  const worst = Math.max(...checks.map(rank));
  const back = new Set(restored);
  const flagged = checks.filter((c) => rank(c) > 0);
  const expected = flagged.map((c) => missingRestoredRows(c, back));
  if (worst === RANK.warning && expected.every((n) => n !== undefined)) {
    const missing = expected.reduce((sum, n) => sum + n, 0);
    const threads = missing === 1 ? "1 restored thread is" : `${missing} restored threads are`;
    const them = missing === 1 ? "it" : "them";
    return {
      status: "ok",
      message: `codex doctor${version}: as expected after a restore — ${threads} not in Codex's state database yet (doctor warns: ${MISSING_ROWS}); Codex lists ${them} again at its next start, when it reads its rollouts`,
    };
  }
  const status = (Object.keys(RANK).find((k) => RANK[k] === worst) ?? "fail") as DoctorStatus;
  const said = (status === "ok" ? checks : checks.filter((c) => rank(c) === worst)).map((c) => {
    const issues = (c.issues ?? [])
      .map((i) => [i.cause, i.measured].filter((x) => typeof x === "string").join(": "))
      .filter((x) => x !== "");
    return `${String(c.summary ?? c.id)}${issues.length > 0 ? ` (${issues.join("; ")})` : ""}`;
  });
  return { status, message: `codex doctor${version}: ${status} — ${said.join("; ")}` };
}

/**
 * Runs `codex doctor --json` for the store at `root` with the `codex` binary `codex`, its network
 * probes kept on this machine. A Codex without `doctor`, or one that cannot run, is "unavailable".
 */
export function codexDoctor(
  codex: string,
  root: string,
  env: NodeJS.ProcessEnv,
  /** After a restore: the rollouts it put back (see `doctorVerdict`). */
  restored: readonly string[] = [],
): DoctorVerdict {
  const command = doctorCommand(root, env);
  const run = spawnSync(codex, command.args, {
    env: command.env,
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
    encoding: "utf8",
    timeout: 120_000,
  });
  if (run.error)
    return { status: "unavailable", message: `codex doctor could not run (${run.error.message})` };
  // Doctor exits 1 whenever any check fails (sign-in, network…): its report decides, not its status.
  if (!run.stdout.includes("{")) {
    const said = `${run.stderr}`.split("\n").find((line) => line.trim() !== "") ?? `exit ${run.status}`;
    return {
      status: "unavailable",
      message: /unrecognized subcommand/.test(run.stderr)
        ? "this Codex has no `codex doctor` (0.169 and later have it)"
        : `codex doctor gave no report (${said.trim()})`,
    };
  }
  return doctorVerdict(run.stdout, restored);
}
