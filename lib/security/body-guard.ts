/**
 * The body limit enforced in front of Next (scripts/serve.ts), for every entry alike: pages'
 * server actions, the JSON API, Auth.js's routes and the streaming uploads (limits:
 * ./body-limits.ts). Next itself answers a server action past its bodySizeLimit with 500, and only
 * once it has read that far; the routes' own bounded reads come after the proxy and
 * authentication. Here, before any of it:
 * - a Content-Length over the limit is answered 413 at once, and Next never sees the request;
 * - any other body (chunked) is counted as the socket delivers it, and the chunk that takes it past
 *   the limit is not passed on: 413 is answered (unless an answer has begun: then the connection
 *   is just closed) and no more of the body is read.
 * Either refusal closes the connection, so the client stops sending.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { bodyLimitFor, tooLargeJson, tooLargeMessage, type BodyLimit } from "./body-limits";

/**
 * Guards one request: true when it was refused at once (Content-Length over the limit; do not pass
 * it on), false when it may go on to Next, its body counted as it arrives.
 */
export function guardRequestBody(req: IncomingMessage, res: ServerResponse): boolean {
  const limit = bodyLimitFor(pathOf(req.url), req.headers["content-type"]);
  const declared = req.headers["content-length"];
  const refusedAtOnce = declared !== undefined && Number(declared) > limit.bytes;
  countBody(req, limit.bytes, refusedAtOnce, () => refuse(req, res, limit));
  if (refusedAtOnce) refuse(req, res, limit);
  return refusedAtOnce;
}

/**
 * Node's HTTP parser hands each piece of the body to `req.push` (and stops reading the socket
 * when it returns false): the count sits there, before any reader — Next's, or Node's own dump of
 * an unread body after an early answer — sees the bytes. Once refused, nothing more is passed on
 * and the socket is not read again.
 */
function countBody(req: IncomingMessage, maxBytes: number, refusedAtOnce: boolean, onOver: () => void): void {
  const push = req.push.bind(req);
  let received = 0;
  let refused = refusedAtOnce;
  req.push = (chunk: unknown, encoding?: BufferEncoding) => {
    if (chunk === null) return refused ? false : push(chunk, encoding);
    if (refused) return false;
    received += (chunk as Buffer).length;
    if (received <= maxBytes) return push(chunk, encoding);
    refused = true;
    onOver();
    return false;
  };
}

/** How long a refused connection stays open, unread, for the client to read the answer. */
const LINGER_MS = 1000;

function refuse(req: IncomingMessage, res: ServerResponse, limit: BodyLimit): void {
  const socket = req.socket;
  if (res.headersSent) {
    socket.destroy();
    return;
  }
  // With "Connection: close", Node ends the connection once the answer is written (destroySoon).
  // Destroying a socket with unread data resets it at once, and a client still sending may then
  // lose the answer: end our side instead (the answer, then FIN), read nothing more, and destroy
  // it when the client has had time to read the answer.
  socket.destroySoon = () => {
    socket.end();
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    timer.unref();
    socket.once("close", () => clearTimeout(timer));
  };
  const body = limit.json ? tooLargeJson(limit) : tooLargeMessage(limit);
  res.writeHead(413, {
    "content-type": limit.json ? "application/json" : "text/plain; charset=utf-8",
    "content-length": Buffer.byteLength(body),
    connection: "close",
  });
  res.end(body);
}

function pathOf(url: string | undefined): string {
  const path = (url ?? "/").split("?")[0]!;
  try {
    return decodeURI(path);
  } catch {
    return path;
  }
}
