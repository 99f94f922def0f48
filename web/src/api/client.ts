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

const TOKEN_KEY = "session-retention-token";

/**
 * The per-launch token: taken once from the address's fragment (`#token=…`, which browsers never
 * send anywhere), kept in this tab's sessionStorage, and removed from the address bar.
 */
export function takeToken(): string | undefined {
  const match = /(?:^#|&)token=([A-Za-z0-9_-]+)/.exec(location.hash);
  if (match) {
    sessionStorage.setItem(TOKEN_KEY, match[1]!);
    history.replaceState(null, "", location.pathname + location.search);
  }
  return sessionStorage.getItem(TOKEN_KEY) ?? undefined;
}

async function request(path: string, body?: unknown): Promise<unknown> {
  const token = takeToken();
  let response: Response;
  try {
    response = await fetch(path, {
      method: body === undefined ? "GET" : "POST",
      headers: {
        Accept: "application/json",
        ...(body === undefined ? {} : { "Content-Type": "application/json" }),
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch {
    throw new ApiError(
      "The session-retention server is not reachable. Is `session-retention serve` still running?",
    );
  }
  const answer: unknown = await response.json().catch(() => undefined);
  if (response.status === 401)
    throw new ApiError(
      "This page has no valid access token. Open the address `session-retention serve` printed (it ends in #token=…).",
      401,
    );
  if (!response.ok) {
    const message = (answer as { error?: { message?: string } } | undefined)?.error?.message;
    throw new ApiError(message ?? `The server answered ${response.status}.`, response.status);
  }
  return answer;
}

/** The latest summary; with `rescan`, after asking the server for a new scan first. */
export async function fetchSummary(options: { rescan?: boolean } = {}): Promise<SummaryResponse> {
  if (options.rescan) await request("/api/scan", {});
  const parsed = SummaryResponseSchema.safeParse(await request("/api/summary"));
  if (!parsed.success)
    throw new ApiError("The server sent a summary this page does not understand (version mismatch?).");
  return parsed.data;
}
