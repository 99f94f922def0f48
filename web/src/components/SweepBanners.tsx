// What agents' own retention deletes next, whatever our policy says (Claude Code's
// cleanupPeriodDays sweep, Gemini CLI's sessionRetention): one warning per store, with "Keep them"
// where keeping is ours to do, and "Remove the copy…" for each session only a resume's empty copy
// dooms. Each says the loss in one line — always in sight, as it predicts a loss — and folds the
// setting, projects and rules behind "Details", so that two of them leave the headline and the growth
// chart above the fold. Shown on the overview only:
// it is the agent's normal setting, not a fault here, and a standing banner on every page would
// push the sessions table down and teach people to skip banners.
import { useState } from "preact/hooks";
import { formatBytes } from "../../../shared/format.js";
import { describeSweep, type ExternalSweep } from "../../../shared/plan.js";
import { AGENT_LABELS } from "../../../shared/store-kinds.js";
import type { ApiClient } from "../api/client.js";
import { keptMessage, SweepWarning } from "./SweepWarning.js";
import { SweepRescue } from "./SweepRescue.js";

export function SweepBanners({
  api,
  sweeps,
  onKept,
}: {
  api: Pick<ApiClient, "keep" | "deleteSessions">;
  sweeps: readonly ExternalSweep[];
  /** After a keep or a rescue: the summary looks again (the banner goes once nothing is left to sweep). */
  onKept: () => void;
}) {
  const [outcome, setOutcome] = useState<string | undefined>(undefined);
  return (
    <>
      {outcome && (
        <div class="banner info" role="status" data-testid="keep-outcome">
          {outcome}
        </div>
      )}
      {sweeps.map((sweep) =>
        !sweep.keepable ? (
          <div key={sweep.storeRoot} class="banner warn sweep" role="status" data-testid="sweep-banner">
            <SweepText sweep={sweep} />
            {sweep.rescues && (
              <ul class="spaced">
                {sweep.rescues.map((rescue) => (
                  <SweepRescue
                    key={rescue.id}
                    api={api}
                    rescue={rescue}
                    onDone={(said) => {
                      setOutcome(said);
                      onKept();
                    }}
                  />
                ))}
              </ul>
            )}
          </div>
        ) : (
          <SweepWarning
            key={sweep.storeRoot}
            api={api}
            swept={sweep}
            class="with-action sweep"
            testId="sweep-banner"
            onKept={(count) => {
              setOutcome(keptMessage(count, sweep.days));
              onKept();
            }}
          >
            <SweepText sweep={sweep} />
          </SweepWarning>
        ),
      )}
    </>
  );
}

const sessions = (n: number) => `${n.toLocaleString("en-US")} session${n === 1 ? "" : "s"}`;

/** The loss in one line: "Claude Code will permanently delete 14 sessions (387 KiB) the next time it runs." */
export function sweepLine(sweep: ExternalSweep): string {
  const pinned =
    sweep.keptByYou > 0
      ? `, ${sweep.keptByYou.toLocaleString("en-US")} of them pinned or protected by you,`
      : "";
  return `${AGENT_LABELS[sweep.agent]} will permanently delete ${sessions(sweep.ids.length)} (${formatBytes(sweep.bytes)})${pinned} ${sweep.when ?? "the next time it runs"}.`;
}

/** The line, and the agent's whole sentence behind "Details" (a native disclosure: Tab, then Enter). */
function SweepText({ sweep }: { sweep: ExternalSweep }) {
  return (
    <div class="sweep-text">
      <p data-testid="sweep-line">{sweepLine(sweep)}</p>
      <details data-testid="sweep-why">
        <summary>Details</summary>
        <p>{describeSweep(sweep)}</p>
      </details>
    </div>
  );
}
