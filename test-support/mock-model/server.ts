// A model server for tests: HTTP on 127.0.0.1 at a free port, speaking the protocols in `DIALECTS`,
// answering each request as a `Responder` scripts it and keeping every request it saw, so that a
// test can wait for "the model was asked" instead of sleeping. Nothing leaves the machine.
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import type { Dialect } from "./dialect.js";
import { anthropicMessages } from "./anthropic-messages.js";
import { gemini } from "./gemini.js";
import { openAiChat } from "./openai-chat.js";
import { openAiResponses } from "./openai-responses.js";
import { defaultResponder, type Reply, type Responder, type Turn } from "./turn.js";

/** Every protocol the mock speaks; a request no dialect serves is answered 404. */
export const DIALECTS: readonly Dialect[] = [openAiChat, openAiResponses, anthropicMessages, gemini];

/** A request the mock answered, as a test sees it. */
export interface SeenRequest {
  path: string;
  turn: Turn;
  reply: Reply;
}

export interface MockModel {
  /** `http://127.0.0.1:<port>`: a provider's base URL is this plus the path its client expects (`/v1`). */
  url: string;
  /** Every request answered so far, oldest first. */
  requests: readonly SeenRequest[];
  /** Resolves once `count` requests were answered; rejects after `timeoutMs` saying how many were. */
  answered(count: number, timeoutMs?: number): Promise<readonly SeenRequest[]>;
  /** Requests that no dialect could answer, with why (a test can assert there were none). */
  refused: readonly string[];
  close(): Promise<void>;
}

/** A request's body as JSON; at most 8 MiB (a conversation, not an upload). */
async function jsonBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > 8 * 1024 * 1024) throw new Error("request body over 8 MiB");
    chunks.push(chunk);
  }
  return JSON.parse(Buffer.concat(chunks).toString("utf8"));
}

export async function startMockModel(options: { responder?: Responder } = {}): Promise<MockModel> {
  const responder = options.responder ?? defaultResponder;
  const requests: SeenRequest[] = [];
  const refused: string[] = [];
  const waiting = new Set<() => void>();
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://127.0.0.1").pathname;
    const dialect = DIALECTS.find((d) => d.serves(request.method ?? "GET", path));
    const refuse = (status: number, message: string) => {
      refused.push(`${request.method} ${path}: ${message}`);
      response.writeHead(status, { "content-type": "application/json" });
      response.end(JSON.stringify({ error: { message, type: "mock_model_error" } }));
    };
    if (!dialect) return refuse(404, "no dialect of the mock model serves this");
    jsonBody(request).then(
      (body) => {
        let turn: Turn;
        try {
          turn = { dialect: dialect.name, ...dialect.turnOf(body, path) };
        } catch (error) {
          return refuse(400, `${dialect.name}: ${(error as Error).message}`);
        }
        const reply = responder(turn, requests.length);
        requests.push({ path, turn, reply });
        dialect.answer(reply, body, path, response);
        for (const wake of waiting) wake();
      },
      (error: Error) => refuse(400, error.message),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    refused,
    answered(count, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (requests.length < count) return;
          cleanup();
          resolve(requests);
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(
            new Error(
              `the mock model answered ${requests.length} of ${count} requests in ${timeoutMs} ms` +
                (refused.length > 0 ? ` (refused: ${refused.join("; ")})` : ""),
            ),
          );
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          waiting.delete(check);
        };
        waiting.add(check);
        check();
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
