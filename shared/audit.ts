// The audit log's entries (SAFETY.md rule 8): every change to what is kept or where it is — who did
// it, how, to which sessions, how many bytes, and how it ended. Shared: the dashboard pages it.
import { z } from "zod";

export const AUDIT_ACTIONS = [
  "protect",
  "unprotect",
  "delete",
  "restore",
  "purge",
  "recover",
  "policy-save",
] as const;

export const AuditEntrySchema = z.object({
  time: z.iso.datetime({ offset: true }),
  /** Where the change came from. */
  actor: z.enum(["cli", "dashboard", "extension", "auto-clean"]),
  action: z.enum(AUDIT_ACTIONS),
  /** e.g. "dry-run", "trash", "quarantine". */
  mode: z.string().optional(),
  sessions: z.array(z.object({ id: z.string(), path: z.string(), sizeBytes: z.number().optional() })),
  bytes: z.number().int().nonnegative().optional(),
  result: z.enum(["ok", "partial", "failed", "refused"]),
  /** In words, for what the fields above cannot say. */
  detail: z.string().optional(),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;
