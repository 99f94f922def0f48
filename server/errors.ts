// Errors whose message is the whole story for the user: the CLI prints the message as one line and
// exits 2; the dashboard API answers with the status and code the error carries, mapped in one
// place (http/app.ts's onError through `httpFailure`). Anything else is a bug and keeps its stack.

/** The statuses the API answers errors with. */
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 421 | 422 | 500 | 507;

export interface UserErrorOptions {
  /** The HTTP status; default: what the cause says (a full disk is 507), else 400. */
  status?: ErrorStatus;
  /** The stable code of the API's error body (`{ error: { code, message } }`); default: the status's. */
  apiCode?: string;
  /** The system error behind it (ENOSPC while writing the journal…): kept, and it sets the status. */
  cause?: unknown;
}

/** The code each status answers with unless the error names its own. */
const CODE_OF_STATUS: Record<ErrorStatus, string> = {
  400: "bad_request",
  401: "unauthorized",
  403: "forbidden",
  404: "not_found",
  409: "conflict",
  413: "payload_too_large",
  415: "unsupported_media_type",
  421: "misdirected_request",
  422: "unprocessable",
  500: "internal",
  507: "insufficient_storage",
};

// `apiCode`, not `code`: on a Node error `code` is the system's (ENOENT, ENOSPC…), and some of ours
// carry that one too (UnreadableFileError).
export class UserError extends Error {
  override name = "UserError";
  readonly status: ErrorStatus;
  readonly apiCode: string;
  constructor(message: string, options: UserErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    const system = systemFailure(options.cause);
    this.status = options.status ?? system?.status ?? 400;
    this.apiCode =
      options.apiCode ?? (options.status ? undefined : system?.apiCode) ?? CODE_OF_STATUS[this.status];
  }
  /** More fields for the API's error body (a config's problems), beside code and message. */
  details(): Record<string, unknown> {
    return {};
  }
}

/** What was named is not there (a session id, an endpoint, a preview): 404, nothing changed. */
export class NotFoundError extends UserError {
  override name = "NotFoundError";
  constructor(message: string) {
    super(message, { status: 404 });
  }
}

/**
 * The request is well formed but the state refuses it now (a lock held, a read-only config, an
 * operation already running, a purge whose confirmation does not match): 409, nothing changed.
 */
export class ConflictError extends UserError {
  override name = "ConflictError";
  constructor(message: string, apiCode?: string) {
    super(message, { status: 409, ...(apiCode ? { apiCode } : {}) });
  }
}

/** The code a status answers with when nothing names its own (hono's own HTTPException). */
export const codeOfStatus = (status: number): string =>
  (CODE_OF_STATUS as Record<number, string | undefined>)[status] ?? "error";

/** System errors that are the machine's state, not a bug: said plainly, with their own status. */
function systemFailure(
  error: unknown,
): { status: ErrorStatus; apiCode: string; message: string } | undefined {
  // The cause chain too: a wrapped ENOSPC is still a full disk.
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOSPC" || code === "EDQUOT")
      return {
        status: 507,
        apiCode: "insufficient_storage",
        message: `the disk is full (${code}): free some space and try again`,
      };
    // A server-side failure, not the client's: 403 is what our guards answer a refused request, and
    // no change to the request would help. The path stays in the server's log.
    if (code === "EACCES" || code === "EPERM" || code === "EROFS")
      return {
        status: 500,
        apiCode: "permission_denied",
        message: `the server was refused access to a file it needs (${code}); see the server's log for which`,
      };
  }
  return undefined;
}

/** An error as the API answers it. `log`: worth the server's log (the page only gets a pointer to it). */
export interface HttpFailure {
  status: ErrorStatus;
  body: { error: { code: string; message: string } & Record<string, unknown> };
  log: boolean;
}

/**
 * The one mapping from a thrown error to the API's answer. A UserError says its own status, code
 * and message; a full disk is 507 and a refused permission 500, each said plainly; anything else is
 * a bug: 500 with a pointer to the server's log, never its message, paths or stack.
 */
export function httpFailure(error: unknown): HttpFailure {
  if (error instanceof UserError)
    return {
      status: error.status,
      body: { error: { ...error.details(), code: error.apiCode, message: error.message } },
      log: error.status >= 500,
    };
  const system = systemFailure(error);
  if (system)
    return {
      status: system.status,
      body: { error: { code: system.apiCode, message: system.message } },
      log: true,
    };
  return {
    status: 500,
    body: { error: { code: "internal", message: "internal error (see the server's log)" } },
    log: true,
  };
}
