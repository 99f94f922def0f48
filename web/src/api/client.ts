// The only module that knows the API's URLs. Responses are validated with the shared schemas, so a
// server/web mismatch shows up as a clear error instead of a broken page.
import { type SummaryResponse, SummaryResponseSchema } from "../../../shared/api.js";

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

async function getJson(path: string): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(path, { headers: { Accept: "application/json" } });
  } catch {
    throw new ApiError(
      "The session-retention server is not reachable. Is `session-retention serve` still running?",
    );
  }
  const body: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    const message = (body as { error?: { message?: string } } | undefined)?.error?.message;
    throw new ApiError(message ?? `The server answered ${response.status}.`, response.status);
  }
  return body;
}

export async function fetchSummary(): Promise<SummaryResponse> {
  const parsed = SummaryResponseSchema.safeParse(await getJson("/api/summary"));
  if (!parsed.success)
    throw new ApiError("The server sent a summary this page does not understand (version mismatch?).");
  return parsed.data;
}
