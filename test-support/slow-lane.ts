// The slow lane: tests whose cost is their size (the crash harnesses' SIGKILL trials, the e2e
// deletes of a 20,000-session store) run smaller in `npm test` and CI, and at full size with
// SR_FULL=1 (`npm run test:full`) — due whenever server/delete/ or a store adapter changes. Only
// the size differs: each test asserts the same in both.

/** Whether this is the full run (SR_FULL=1). */
export const FULL = process.env.SR_FULL === "1";

/** A slow test's size: `full` under SR_FULL=1, else `small`. */
export const sized = (small: number, full: number): number => (FULL ? full : small);

/** A crash harness's trials: CRASH_TRIALS when set (`npm run test:crash`: 200), else sized. */
export const crashTrials = (small: number, full: number): number =>
  process.env.CRASH_TRIALS ? Number(process.env.CRASH_TRIALS) : sized(small, full);
