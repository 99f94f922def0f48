// What agents' own retention deletes next, whatever our policy says (Claude Code's
// cleanupPeriodDays sweep, Gemini CLI's sessionRetention): one warning per store, with "Keep them"
// where keeping is ours to do, and "Remove the copy…" for each session only a resume's empty copy
// dooms. Shown on the overview only:
// it is the agent's normal setting, not a fault here, and a standing banner on every page would
// push the sessions table down and teach people to skip banners.
import { useState } from "preact/hooks";
import { describeSweep, type ExternalSweep } from "../../../shared/plan.js";
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
          <div key={sweep.storeRoot} class="banner warn" role="status" data-testid="sweep-banner">
            <p>{describeSweep(sweep)}</p>
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
            class="with-action"
            testId="sweep-banner"
            onKept={(count) => {
              setOutcome(keptMessage(count, sweep.days));
              onKept();
            }}
          >
            <p>{describeSweep(sweep)}</p>
          </SweepWarning>
        ),
      )}
    </>
  );
}
