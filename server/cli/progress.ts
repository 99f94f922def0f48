// A progress line on stderr while a scan makes someone wait: "Scanning… 12,345 of 20,000 files",
// rewritten in place and erased when the scan is done. Only on a terminal, only after a second
// (a quick scan shows nothing), and never with --json: a script reading stderr gets no noise.
import type { ScanProgress } from "../../shared/scan-report.js";

/** How long a scan runs before the line shows. `SESSION_RETENTION_PROGRESS_DELAY_MS` (tests) overrides it. */
const DELAY_MS = 1000;

export interface ProgressLine {
  onProgress: (progress: ScanProgress) => void;
  /** Erases the line (if it showed); call before anything else is printed. */
  done: () => void;
}

const count = (n: number) => n.toLocaleString("en-US");

export function progressText(progress: ScanProgress): string {
  return progress.phase === "walking" || progress.filesTotal === 0
    ? `Scanning… ${count(progress.filesDone)} files`
    : `Scanning… ${count(progress.filesDone)} of ${count(progress.filesTotal)} files`;
}

/**
 * The line for one command: inert unless `stream` is a TTY and `quiet` (--json) is not set.
 */
export function scanProgressLine(
  options: { quiet?: boolean; stream?: NodeJS.WriteStream; env?: NodeJS.ProcessEnv } = {},
): ProgressLine {
  const stream = options.stream ?? process.stderr;
  const env = options.env ?? process.env;
  if (options.quiet || !stream.isTTY) return { onProgress: () => {}, done: () => {} };
  const delay = Number(env.SESSION_RETENTION_PROGRESS_DELAY_MS ?? DELAY_MS);
  const started = performance.now();
  let shown = false;
  const erase = () => {
    if (shown) stream.write("\r\u001b[K");
    shown = false;
  };
  return {
    onProgress: (progress) => {
      if (progress.phase === "done") return erase();
      if (performance.now() - started < delay) return;
      // \r back to the line's start, the text, then erase what a longer earlier text left.
      stream.write(`\r${progressText(progress)}\u001b[K`);
      shown = true;
    },
    done: erase,
  };
}
