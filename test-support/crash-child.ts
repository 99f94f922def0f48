// A child process for the crash harness (test-support/crash-harness.ts): runs one operation of the
// deletion engine and, when told, SIGKILLs itself at the N-th crash point of it (after intents are
// written, after a move, after each part of a bundle, after an outcome is recorded…). The parent
// may also kill it from outside at any moment. Operations:
//   delete  <kind>:<root> <crashAt> <target>  soft-deletes every session of the store
//   recover <kind>:<root> <crashAt>           resolves what a crash left open
//   restore <kind>:<root> <crashAt>           restores everything in the trash
// It prints how many crash points it passed (when it lives to the end).
import { listTrash, recover, restore, softDelete } from "../server/delete/deletion-engine.js";
import type { StoreKind } from "../shared/session-record.js";
import { scanStores } from "../server/scan/scanner.js";
import { writeConfigFile } from "./config-file.js";

const [action, store, crashAtText, target = "quarantine"] = process.argv.slice(2) as [
  "delete" | "recover" | "restore",
  string,
  string,
  "trash" | "quarantine" | undefined,
];
const colon = store.indexOf(":");
const kind = store.slice(0, colon);
const root = store.slice(colon + 1);
const crashAt = Number(crashAtText);
let points = 0;
const engine = {
  actor: "cli" as const,
  crashPoint: () => {
    if (points++ === crashAt) process.kill(process.pid, "SIGKILL");
  },
};

let outcome: unknown;
if (action === "delete") {
  writeConfigFile({
    retention: { minKeepRecentCount: 0, keepLastPerNamespace: 0, allowEmptyStore: true },
    activity: { graceMinutes: 0 },
    deletion: { target },
  });
  const where = { stores: [{ kind: kind as StoreKind, root }] };
  const { sessions } = await scanStores(where);
  const result = await softDelete(
    { items: sessions.map((s) => ({ id: s.id, fingerprint: s.fingerprint })), ...where, via: "selection" },
    engine,
  );
  outcome = { moved: result.moved.length, skipped: result.skipped };
} else if (action === "recover") {
  outcome = { recovered: recover(engine).length };
} else {
  const inTrash = listTrash(engine).entries.filter((e) => e.state === "in-trash");
  const result = await restore(
    inTrash.map((e) => e.entryId),
    engine,
  );
  outcome = { restored: result.done.length, skipped: result.skipped };
}
process.stdout.write(JSON.stringify({ ...(outcome as object), points }));
