// A child process for the crash harness: soft-deletes every session of a store and, when told,
// SIGKILLs itself at the N-th crash point of the deletion engine (after intents are written, after
// a move, after its outcome is recorded…). The parent may also kill it from outside at any moment.
import { softDelete } from "../server/delete/deletion-engine.js";
import { scanStores } from "../server/scan/scanner.js";
import { writeConfigFile } from "./config-file.js";

const [root, crashAtText, target] = process.argv.slice(2) as [string, string, "trash" | "quarantine"];
const crashAt = Number(crashAtText);
writeConfigFile({
  retention: { minKeepRecentCount: 0, keepLastPerNamespace: 0, allowEmptyStore: true },
  activity: { graceMinutes: 0 },
  deletion: { target },
});
const { sessions } = await scanStores({ roots: [root] });
let points = 0;
const result = await softDelete(
  {
    items: sessions.map((s) => ({ id: s.id, fingerprint: s.fingerprint })),
    roots: [root],
    via: "selection",
  },
  {
    actor: "cli",
    crashPoint: () => {
      if (points++ === crashAt) process.kill(process.pid, "SIGKILL");
    },
  },
);
process.stdout.write(JSON.stringify({ moved: result.moved.length, skipped: result.skipped, points }));
