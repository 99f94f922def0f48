// The app on a real socket: loopback only, a taken port is a clear error, and absolute-form
// request targets with a foreign host are refused like a foreign Host header.
import { connect, createServer } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { summarizeSessions } from "../../shared/scan-summary.js";
import { type ListeningServer, listenOnLoopback, PortInUseError } from "./listen.js";

const getSummary = async () => ({
  source: { kind: "pi" as const },
  policy: { configPath: "/x.json", source: "defaults" as const, problems: [], readOnly: false },
  scannedAt: "2026-01-01T00:00:00.000Z",
  stores: [],
  summary: summarizeSessions([], []),
  namespaces: [],
  agents: [],
  problems: [],
  findings: [],
});

/** Sends raw bytes and returns the status line: lets us send what fetch() never would. */
function rawRequest(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(text));
    let data = "";
    socket.on("data", (chunk) => {
      data += chunk.toString();
      if (data.includes("\r\n")) {
        socket.destroy();
        resolve(data.split("\r\n")[0]!);
      }
    });
    socket.on("error", reject);
  });
}

let server: ListeningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("listenOnLoopback", () => {
  it("binds 127.0.0.1 only, on the port it reports", async () => {
    server = await listenOnLoopback(0, { api: { getSummary }, token: "test-token" });
    const auth = { headers: { Authorization: "Bearer test-token" } };
    const response = await fetch(`http://127.0.0.1:${server.port}/api/summary`, auth);
    expect(response.status).toBe(200);
    // Nothing answers on another local address (the bind is not 0.0.0.0).
    const other = await fetch(`http://127.0.0.2:${server.port}/api/summary`, auth).then(
      () => "answered",
      () => "refused",
    );
    expect(other).toBe("refused");
  });

  it("refuses an absolute-form request target naming a foreign host", async () => {
    server = await listenOnLoopback(0, { api: { getSummary }, token: "test-token" });
    const ok = await rawRequest(
      server.port,
      `GET /api/summary HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nAuthorization: Bearer test-token\r\n\r\n`,
    );
    expect(ok).toBe("HTTP/1.1 200 OK");
    const foreign = await rawRequest(
      server.port,
      `GET http://evil.example/api/summary HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nAuthorization: Bearer test-token\r\n\r\n`,
    );
    expect(foreign).toMatch(/^HTTP\/1\.1 421/);
  });

  it("says so plainly when the port is taken by another program", async () => {
    const other = createServer();
    await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
    const port = (other.address() as { port: number }).port;
    try {
      await expect(
        listenOnLoopback(port, { api: { getSummary }, token: "test-token" }),
      ).rejects.toBeInstanceOf(PortInUseError);
    } finally {
      other.close();
    }
  });
});
