// `session-retention serve` as a real child process, for tests of what only a real process shows:
// its start-up, its signals and the files it leaves (or removes) when it stops.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { fileURLToPath } from "node:url";

export const BIN = fileURLToPath(new URL("../bin/session-retention.js", import.meta.url));

export interface ServeChild {
  /** The printed address, with the token in its fragment. */
  url: string;
  /** `http://127.0.0.1:PORT` and the token, taken apart from `url`. */
  base: string;
  token: string;
  child: ChildProcess;
  output: () => string;
  /** Sends `signal` (SIGTERM by default) and resolves once the process has exited. */
  stop: (signal?: NodeJS.Signals) => Promise<void>;
}

/**
 * Starts `serve --port 0` plus `args`, and resolves once it prints its address (killed if it never
 * does). `bin` is this checkout's command unless another is given (an installed package's).
 */
export async function startServe(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
  bin = BIN,
  /** Runs it as this user (and group; its other groups dropped), as root may. */
  as?: { uid: number; gid: number },
): Promise<ServeChild> {
  const child = spawn(process.execPath, [bin, "serve", "--port", "0", ...args], {
    env,
    stdio: ["ignore", "pipe", "pipe"],
    ...as,
  });
  let output = "";
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`serve did not start within 20 s:\n${output}`));
    }, 20_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /http:\/\/127\.0\.0\.1:\d+\/#token=\S+/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[0]);
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    // "close", not "exit": its output is all read by then (a second serve prints the first's address and exits).
    child.once("close", () => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${child.exitCode ?? child.signalCode}:\n${output}`));
    });
  });
  const [base, token] = url.split("/#token=") as [string, string];
  return {
    url,
    base,
    token,
    child,
    output: () => output,
    stop: async (signal = "SIGTERM") => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

/**
 * `env` with a PATH whose `xdg-open` and `open` do nothing but write the file they were given to
 * `opened` (so `serve` without --no-open writes its redirect file, and no real browser opens).
 */
export function withStubBrowser(env: NodeJS.ProcessEnv = process.env): {
  env: NodeJS.ProcessEnv;
  opened: string;
} {
  const bin = mkdtempSync(join(tmpdir(), "sr-stub-browser-"));
  const opened = join(bin, "opened");
  for (const name of ["xdg-open", "open"])
    writeFileSync(join(bin, name), `#!/bin/sh\nprintf '%s' "$1" > '${opened}'\n`, { mode: 0o755 });
  return { env: { ...env, PATH: `${bin}${delimiter}${env.PATH ?? ""}` }, opened };
}
