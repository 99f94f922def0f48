// The audit log's entries (docs/safety.md G10): every change to what is kept or where it is — who did
// it, how, to which sessions, how many bytes, and how each item ended. Shared: the dashboard pages it.
import { z } from "zod";

export const AUDIT_ACTIONS = [
  "soft-delete",
  "restore",
  "purge",
  "protect",
  "unprotect",
  "config",
  "auto-clean",
  "recover",
  // A session kept from its agent's own sweep (its time refreshed).
  "keep",
] as const;

export const AuditItemSchema = z.object({
  id: z.string(),
  path: z.string(),
  /** The session's title (session-title.ts); absent in older entries: shown by file name. */
  title: z.string().optional(),
  bytes: z.number().int().nonnegative().optional(),
  /** Where it went (or came back from). */
  destination: z.string().optional(),
  /** "moved", "restored", "purged", "skipped", "conflict", "rolled-back", "protected", … */
  result: z.string(),
  reason: z.string().optional(),
});
export type AuditItem = z.infer<typeof AuditItemSchema>;

export const AuditEntrySchema = z.object({
  time: z.iso.datetime({ offset: true }),
  /** Where the change came from: the CLI, the dashboard, the pi extension, or an automatic run. */
  actor: z.enum(["cli", "ui", "extension", "auto"]),
  action: z.enum(AUDIT_ACTIONS),
  /** "dry-run", "system-trash", "quarantine", "hard", … */
  mode: z.string().optional(),
  /** The operation in the trash ledger, for soft deletes, restores and purges. */
  operationId: z.string().optional(),
  items: z.array(AuditItemSchema),
  /** Bytes moved, restored or freed. */
  bytes: z.number().int().nonnegative().optional(),
  result: z.enum(["ok", "partial", "failed", "refused", "dry-run"]),
  /** In words, for what the fields above cannot say. */
  detail: z.string().optional(),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;
