// Request bodies and queries: no body larger than the one limit (413, before anything reads it), and
// every body and query through zod: anything else is a 400 that says what is wrong.
import type { Context, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { z } from "zod";
import { REQUEST_BODY_LIMIT_BYTES } from "../../shared/request-limits.js";
import { UserError } from "../errors.js";

/**
 * The limit on every request body (shared/request-limits.ts), for the app to register before any
 * route: counted as the body streams in, so a body without Content-Length is held to it too.
 */
export function requestBodyLimit(): MiddlewareHandler {
  return bodyLimit({
    maxSize: REQUEST_BODY_LIMIT_BYTES,
    onError: () => {
      throw new UserError(`request bodies are limited to ${REQUEST_BODY_LIMIT_BYTES} bytes`, { status: 413 });
    },
  });
}

function badRequest(error: z.ZodError): UserError {
  return new UserError(
    error.issues
      .slice(0, 5)
      .map((i) => `${i.path.join(".") || "(body)"}: ${i.message}`)
      .join("; "),
  );
}

export async function jsonBody<T>(c: Context, schema: z.ZodType<T>): Promise<T> {
  let raw: unknown;
  try {
    raw = await c.req.json();
  } catch {
    throw new UserError("the body is not valid JSON");
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw badRequest(parsed.error);
  return parsed.data;
}

export function query<T>(c: Context, schema: z.ZodType<T>): T {
  const parsed = schema.safeParse(c.req.query());
  if (!parsed.success) throw badRequest(parsed.error);
  return parsed.data;
}
