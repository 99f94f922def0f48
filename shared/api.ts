// Payloads of the HTTP API, shared by the server (which validates what it sends) and the web app.
import { z } from "zod";
import { QUOTA_MODES } from "./config.js";
import { QuotaStateSchema } from "./plan.js";
import { NamespaceUsageSchema, ScanProblemSchema, ScanSummarySchema } from "./scan-report.js";
import { StoreRefSchema } from "./session-record.js";

/** Where the dashboard's data comes from: the user's pi stores, or a generated demo store. */
export const DataSourceSchema = z.object({
  kind: z.enum(["pi", "demo"]),
  /** Shown on screen, e.g. why a demo store is used. */
  note: z.string().optional(),
});
export type DataSource = z.infer<typeof DataSourceSchema>;

/** The config as the dashboard needs it: where quota stands, and whether anything may be deleted. */
export const PolicyStatusSchema = z.object({
  configPath: z.string(),
  /** "invalid": the file has problems and the program runs read-only. */
  source: z.enum(["file", "defaults", "invalid"]),
  problems: z.array(z.object({ path: z.string(), message: z.string() })),
  /** Absent while the config is invalid. */
  mode: z.enum(QUOTA_MODES).optional(),
  quota: QuotaStateSchema.optional(),
  readOnly: z.boolean(),
});
export type PolicyStatus = z.infer<typeof PolicyStatusSchema>;

export const SummaryResponseSchema = z.object({
  source: DataSourceSchema,
  policy: PolicyStatusSchema,
  scannedAt: z.string(),
  stores: z.array(StoreRefSchema),
  summary: ScanSummarySchema,
  namespaces: z.array(NamespaceUsageSchema),
  problems: z.array(ScanProblemSchema),
});
export type SummaryResponse = z.infer<typeof SummaryResponseSchema>;

export const ErrorResponseSchema = z.object({
  error: z.object({ code: z.string(), message: z.string() }),
});
export type ErrorResponse = z.infer<typeof ErrorResponseSchema>;

/**
 * A session id as the API accepts it: opaque, resolved only against the server's own index. Path
 * separators, `%`, NUL and other controls are refused outright (400), so nothing that looks like a
 * path ever gets near the file system.
 */
export const SessionIdSchema = z
  .string()
  .min(1)
  .max(256)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:+@=-]*$/, { error: "not a session id" });

export const ProtectRequestSchema = z.strictObject({
  ids: z.array(SessionIdSchema).min(1).max(10_000),
  /** true: pin; false: unpin. */
  protect: z.boolean(),
});
export type ProtectRequest = z.infer<typeof ProtectRequestSchema>;

export const ProtectResponseSchema = z.object({
  /** Ids whose pin changed (pinned, or unpinned). */
  changed: z.array(z.string()),
  /** Ids that were already as asked. */
  unchanged: z.array(z.string()),
});
export type ProtectResponse = z.infer<typeof ProtectResponseSchema>;
