import { createServer, type IncomingMessage, type ServerResponse, type Server } from "node:http";
import type { Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendOversize } from "@/test/oversize-body";
import { guardRequestBody } from "./body-guard";
import { bodyLimitFor } from "./body-limits";

const MiB = 1024 * 1024;
const TWENTY_MB = 20 * MiB;
/** Slack for what the socket may have taken in one read past the limit (a read is ≤ 64 KiB), and headers. */
const ONE_READ = 64 * 1024 + 4096;

/**
 * The guard in front of a handler that, like Next, reads the whole body and then answers 200 with
 * the number of bytes it got — except `/early`, which answers 401 at once without reading. Each
 * connection's server-side socket is kept, to see how much of the body the server read.
 */
let server: Server;
let port: number;
const sockets: Socket[] = [];
const handled: { path: string; bytes: number }[] = [];

function app(req: IncomingMessage, res: ServerResponse) {
  if (guardRequestBody(req, res)) return;
  if (req.url === "/api/v1/early") {
    res.writeHead(401, { "content-type": "application/json" });
    return void res.end('{"error":{"code":"UNAUTHENTICATED"}}');
  }
  let bytes = 0;
  req.on("data", (chunk: Buffer) => void (bytes += chunk.length));
  req.on("end", () => {
    handled.push({ path: req.url ?? "", bytes });
    res.end(String(bytes));
  });
}

beforeAll(async () => {
  process.env.VERDICT_IMPORT_MAX_PUBLIC_BYTES = String(3 * MiB);
  server = createServer(app);
  server.on("connection", (socket) => sockets.push(socket));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  delete process.env.VERDICT_IMPORT_MAX_PUBLIC_BYTES;
  await new Promise((resolve) => server.close(resolve));
});

/** The server side of the last connection, once it is closed: how many bytes it read in all. */
async function serverRead(): Promise<number> {
  const socket = sockets.at(-1)!;
  if (!socket.destroyed) await new Promise((resolve) => socket.once("close", resolve));
  return socket.bytesRead;
}

const ENTRIES: { what: string; path: string; headers: Record<string, string>; limit: number }[] = [
  { what: "a page's server action", path: "/sign-in", headers: { "next-action": "00ab" }, limit: MiB },
  { what: "the JSON API", path: "/api/v1/decisions", headers: { "content-type": "application/json" }, limit: MiB },
  { what: "Auth.js", path: "/api/auth/callback/credentials", headers: {}, limit: 16 * 1024 },
  { what: "a public-file upload", path: "/api/v1/decisions/d1/leaderboards", headers: {}, limit: 3 * MiB },
];

describe("the body guard in front of Next", () => {
  it.each(ENTRIES)("refuses $what's declared oversize body at once with 413, reading none of it", async (entry) => {
    const before = handled.length;
    const answer = await sendOversize({
      port,
      path: entry.path,
      headers: entry.headers,
      total: TWENTY_MB,
      chunked: false,
    });
    expect(answer.status).toBe(413);
    expect(answer.headers.connection).toBe("close");
    expect(answer.answeredAfterMs!).toBeLessThan(2000);
    expect(answer.finishedWriting).toBe(false);
    expect(answer.closed).toBe(true);
    expect(handled.length).toBe(before); // never passed on
    expect(await serverRead()).toBeLessThanOrEqual(ONE_READ);
  });

  it.each(ENTRIES)(
    "refuses $what's chunked body with 413 as it passes the limit, reading no further",
    async (entry) => {
      const before = handled.length;
      const answer = await sendOversize({
        port,
        path: entry.path,
        headers: entry.headers,
        total: TWENTY_MB,
        chunked: true,
      });
      expect(answer.status).toBe(413);
      expect(answer.finishedWriting).toBe(false);
      expect(answer.closed).toBe(true);
      expect(handled.length).toBe(before); // the handler never got to the end of the body
      const read = await serverRead();
      expect(read).toBeGreaterThan(entry.limit);
      expect(read).toBeLessThanOrEqual(entry.limit + ONE_READ);
    },
  );

  it("answers the JSON API's refusal in its error shape and a page's in plain text", async () => {
    const api = await sendOversize({ port, path: "/api/v1/decisions", total: 2 * MiB, chunked: true });
    expect(JSON.parse(api.body)).toEqual({
      error: {
        code: "PAYLOAD_TOO_LARGE",
        message: "The JSON body is larger than 1 MiB.",
        details: { limit: 1048576, unit: "bytes" },
      },
    });
    const page = await sendOversize({ port, path: "/sign-in", total: 2 * MiB, chunked: false });
    expect(page.headers["content-type"]).toMatch(/^text\/plain/);
    expect(page.body).toBe("A form's request is larger than 1 MiB.");
  });

  it("passes a body within the limit on whole, chunked or declared", async () => {
    for (const chunked of [true, false]) {
      const answer = await sendOversize({ port, path: "/api/v1/decisions", total: MiB, chunked });
      expect(answer.status).toBe(200);
      expect(answer.finishedWriting).toBe(true);
      expect(answer.body).toBe(String(MiB));
    }
  });

  it("after an early answer, stops reading the unread body at the limit", async () => {
    const answer = await sendOversize({
      port,
      path: "/api/v1/early",
      total: TWENTY_MB,
      chunked: true,
      timeoutMs: 5000,
    });
    expect(answer.status).toBe(401);
    // The client stops sending once answered; whatever it had sent, the server read at most the limit.
    expect(await serverRead()).toBeLessThanOrEqual(MiB + ONE_READ);
  });
});

describe("bodyLimitFor: each entry's limit", () => {
  it("gives uploads their import limit (multipart at most 64 MiB), Auth.js 16 KiB, the API and pages 1 MiB", () => {
    process.env.VERDICT_IMPORT_MAX_BYTES = String(200 * MiB);
    try {
      expect(bodyLimitFor("/api/v1/decisions/abc/datasets", "text/csv").bytes).toBe(200 * MiB);
      expect(bodyLimitFor("/api/v1/decisions/abc/predictions/preview", undefined).bytes).toBe(200 * MiB);
      expect(bodyLimitFor("/api/v1/decisions/abc/predictions", "multipart/form-data; boundary=x").bytes).toBe(64 * MiB);
      expect(bodyLimitFor("/api/v1/decisions/abc/serving", "text/csv").bytes).toBe(3 * MiB);
      expect(bodyLimitFor("/api/auth/signin/credentials", undefined).bytes).toBe(16384);
      expect(bodyLimitFor("/api/v1/decisions/abc/comments", "application/json").bytes).toBe(1048576);
      // Not an upload: a path that only starts like one.
      expect(bodyLimitFor("/api/v1/decisions/abc/datasets/v1/csv", undefined).bytes).toBe(1048576);
      expect(bodyLimitFor("/decisions/abc", "text/plain").bytes).toBe(1048576);
    } finally {
      delete process.env.VERDICT_IMPORT_MAX_BYTES;
    }
  });
});
