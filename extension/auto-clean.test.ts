// The pure rules of auto-clean: when it runs, when it only reports, and how its state moves.
import { describe, expect, it } from "vitest";
import { ConfigSchema } from "../shared/config.js";
import { type AutoCleanState, decideAutoClean, nextState } from "./auto-clean.js";

const config = (retention: object, rest: object = {}) => ConfigSchema.parse({ retention, ...rest });
const on = { autoClean: true, dryRun: false };
const at = (iso: string) => new Date(iso);

describe("decideAutoClean", () => {
  it("does nothing when off or when the extension is disabled", () => {
    expect(decideAutoClean(config({}), {}, new Date())).toEqual({ run: false, why: "off" });
    expect(decideAutoClean(config(on, { enabled: false }), {}, new Date())).toEqual({
      run: false,
      why: "disabled",
    });
  });

  it("reports only while dryRun is true (the default), even after the first-run warning", () => {
    const state = { warnedAt: "2026-01-01T10:00:00.000Z", lastRunAt: "2026-01-01T10:00:00.000Z" };
    expect(decideAutoClean(config({ autoClean: true }), state, at("2026-01-03T10:00:00"))).toEqual({
      run: true,
      dryRun: true,
      why: "dry-run",
    });
  });

  it("warns with a report-only run before its first destructive one", () => {
    expect(decideAutoClean(config(on), {}, at("2026-01-03T10:00:00"))).toEqual({
      run: true,
      dryRun: true,
      why: "first-run",
    });
    expect(
      decideAutoClean(
        config(on),
        { warnedAt: "2026-01-02T10:00:00.000Z", lastRunAt: "2026-01-02T10:00:00.000Z" },
        at("2026-01-03T10:00:00"),
      ),
    ).toEqual({ run: true, dryRun: false });
  });

  it("reports only, once more, after the config file changed since the last report", () => {
    const state = { warnedAt: "2026-01-02T10:00:00.000Z", lastRunAt: "2026-01-02T10:00:00.000Z" };
    const today = at("2026-01-03T10:00:00");
    expect(decideAutoClean(config(on), state, today, at("2026-01-02T12:00:00"))).toEqual({
      run: true,
      dryRun: true,
      why: "policy-changed",
    });
    expect(decideAutoClean(config(on), state, today, at("2026-01-02T09:00:00"))).toEqual({
      run: true,
      dryRun: false,
    });
    expect(nextState(state, { run: true, dryRun: true, why: "policy-changed" }, today).warnedAt).toBe(
      today.toISOString(),
    );
  });

  it("runs once per day of the local calendar, not once per 24 hours", () => {
    const state = { warnedAt: "x", lastRunAt: at("2026-01-03T00:30:00").toISOString() };
    expect(decideAutoClean(config(on), state, at("2026-01-03T23:59:00"))).toEqual({
      run: false,
      why: "ran-today",
    });
    expect(decideAutoClean(config(on), state, at("2026-01-04T00:01:00"))).toEqual({
      run: true,
      dryRun: false,
    });
  });
});

describe("nextState", () => {
  const now = at("2026-01-05T09:00:00");
  const iso = now.toISOString();

  it("records a run; the first-run report also records the warning", () => {
    expect(nextState({}, { run: true, dryRun: true, why: "first-run" }, now)).toEqual({
      lastRunAt: iso,
      warnedAt: iso,
    });
    const warned: AutoCleanState = {
      warnedAt: "2026-01-04T09:00:00.000Z",
      lastRunAt: "2026-01-04T09:00:00.000Z",
    };
    expect(nextState(warned, { run: true, dryRun: false }, now)).toEqual({ ...warned, lastRunAt: iso });
  });

  it("re-arms the warning when auto-clean is switched off or back to dry-run", () => {
    const warned: AutoCleanState = {
      warnedAt: "2026-01-04T09:00:00.000Z",
      lastRunAt: "2026-01-04T09:00:00.000Z",
    };
    expect(nextState(warned, { run: false, why: "off" }, now).warnedAt).toBeUndefined();
    expect(nextState(warned, { run: true, dryRun: true, why: "dry-run" }, now)).toEqual({ lastRunAt: iso });
    // Switched on again afterwards: the next run is report-only once more.
    const rearmed = nextState(warned, { run: false, why: "off" }, now);
    expect(decideAutoClean(config(on), rearmed, at("2026-01-06T09:00:00"))).toMatchObject({
      why: "first-run",
    });
  });

  it("leaves the state alone when it already ran today", () => {
    const state: AutoCleanState = { warnedAt: "a", lastRunAt: "b" };
    expect(nextState(state, { run: false, why: "ran-today" }, now)).toBe(state);
  });
});
