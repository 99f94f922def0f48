// Payloads of the HTTP API, shared by the server (which validates what it sends) and the web app.
import { z } from "zod";
import { NamespaceUsageSchema, ScanProblemSchema, ScanSummarySchema } from "./scan-report.js";
import { StoreRefSchema } from "./session-record.js";

/** Where the dashboard's data comes from: the user's pi stores, or a generated demo store. */
export const DataSourceSchema = z.object({
  kind: z.enum(["pi", "demo"]),
  /** Shown on screen, e.g. why a demo store is used. */
  note: z.string().optional(),
});
export type DataSource = z.infer<typeof DataSourceSchema>;

export const SummaryResponseSchema = z.object({
  source: DataSourceSchema,
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
