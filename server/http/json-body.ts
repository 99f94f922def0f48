// Request bodies and queries through zod: anything else is a 400 that says what is wrong.
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { z } from "zod";

function badRequest(error: z.ZodError): HTTPException {
  return new HTTPException(400, {
    message: error.issues
      .slice(0, 5)
      .map((i) => `${i.path.join(".") || "(body)"}: ${i.message}`)
      .join("; "),
  });
}

export async function jsonBody<T>(c: Context, schema: z.ZodType<T>): Promise<T> {
  let raw: unknown;
  try {
    raw = await c.req.json();
  } catch {
    throw new HTTPException(400, { message: "the body is not valid JSON" });
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
