// A progress line on stderr while a scan or a move makes someone wait ("Scanning… 12,345 of 20,000
// files", "Moving to the trash… 812 of 1,435"), rewritten in place and erased when it is done. Only
// on a terminal, only after a second (a quick one shows nothing), and never with --json: a script
// reading stderr gets no noise.
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

export const moveProgressText = (progress: { done: number; total: number }) =>
  `Moving to the trash… ${count(progress.done)} of ${count(progress.total)}`;

/** A line that shows `text(progress)`; `active` is false where it never shows (no TTY, --json). */
export interface Line<T> {
  active: boolean;
  update: (progress: T) => void;
  /** Erases the line (if it showed); call before anything else is printed. */
  done: () => void;
}

/**
 * The line for one command: inert unless `stream` is a TTY and `quiet` (--json) is not set.
 */
export function progressLine<T>(
  text: (progress: T) => string,
  options: { quiet?: boolean; stream?: NodeJS.WriteStream; env?: NodeJS.ProcessEnv } = {},
): Line<T> {
  const stream = options.stream ?? process.stderr;
  const env = options.env ?? process.env;
  if (options.quiet || !stream.isTTY) return { active: false, update: () => {}, done: () => {} };
  const delay = Number(env.SESSION_RETENTION_PROGRESS_DELAY_MS ?? DELAY_MS);
  const started = performance.now();
  let shown = false;
  const erase = () => {
    if (shown) stream.write("\r\u001b[K");
    shown = false;
  };
  return {
    active: true,
    update: (progress) => {
      if (performance.now() - started < delay) return;
      // \r back to the line's start, the text, then erase what a longer earlier text left.
      stream.write(`\r${text(progress)}\u001b[K`);
      shown = true;
    },
    done: erase,
  };
}

/** The scan's line: erased when the scan says it is done. */
export function scanProgressLine(options: Parameters<typeof progressLine>[1] = {}): ProgressLine {
  const line = progressLine(progressText, options);
  return {
    onProgress: (progress) => (progress.phase === "done" ? line.done() : line.update(progress)),
    done: line.done,
  };
}
