// Puts the app on a socket: 127.0.0.1 only (serve() without a hostname listens on every interface).
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { type AppOptions, createApp } from "./app.js";

export class PortInUseError extends Error {
  constructor(readonly port: number) {
    super(`port ${port} on 127.0.0.1 is already in use (choose another with --port, or 0 for any free one)`);
    this.name = "PortInUseError";
  }
}

export interface ListeningServer {
  port: number;
  close: () => Promise<void>;
  closed: Promise<void>;
}

/** Listens on 127.0.0.1:`port` (0 = any free port) and resolves once it is listening. */
export async function listenOnLoopback(
  port: number,
  options: Omit<AppOptions, "port">,
): Promise<ListeningServer> {
  let boundPort = port;
  const app = createApp({ ...options, port: () => boundPort });
  const server = serve({ fetch: app.fetch, hostname: "127.0.0.1", port });
  await new Promise<void>((resolve, reject) => {
    server.once("listening", resolve);
    server.once("error", (error: NodeJS.ErrnoException) =>
      reject(error.code === "EADDRINUSE" ? new PortInUseError(port) : error),
    );
  });
  boundPort = (server.address() as AddressInfo).port;
  const closed = new Promise<void>((resolve) => server.once("close", () => resolve()));
  return {
    port: boundPort,
    closed,
    close: async () => {
      server.close();
      (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      await closed;
    },
  };
}
