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
import type { Socket } from "node:net";
import { bodyLimitFor, tooLargeJson, tooLargeMessage, type BodyLimit } from "./body-limits";

/**
 * Guards one request: true when it was refused at once (Content-Length over the limit; do not pass
 * it on), false when it may go on to Next, its body counted as it arrives.
 */
export function guardRequestBody(req: IncomingMessage, res: ServerResponse): boolean {
  const limit = bodyLimitFor(pathOf(req.url), req.headers["content-type"]);
  const declared = req.headers["content-length"];
  const refusedAtOnce = declared !== undefined && Number(declared) > limit.bytes;
  if (refusedAtOnce) refuse(req, res, limit);
  else countBody(req, limit.bytes, () => refuse(req, res, limit));
  return refusedAtOnce;
}

/** Node's private hooks the guard sits on (node:http offers no public one before the body is read). */
type GuardedRequest = IncomingMessage & { _dump(): void };

/**
 * Node's HTTP parser hands each piece of the body to `req.push` before any reader (Next) sees it:
 * the count sits there, and the piece that passes the limit is not passed on. When the request
 * is answered before its body was read (401 before reading, say), Node would read the rest of the
 * body and throw it away (`_dump`), however long: instead, the connection is closed.
 */
function countBody(req: IncomingMessage, maxBytes: number, onOver: () => void): void {
  const guarded = req as GuardedRequest;
  const push = req.push.bind(req);
  const dump = guarded._dump.bind(req);
  let received = 0;
  let refused = false;
  req.push = (chunk: unknown, encoding?: BufferEncoding) => {
    if (refused) return false;
    if (chunk === null) return push(chunk, encoding);
    received += (chunk as Buffer).length;
    if (received <= maxBytes) return push(chunk, encoding);
    refused = true;
    onOver();
    return false;
  };
  guarded._dump = () => {
    if (req.complete) return dump();
    refused = true;
    closeUnread(req.socket, "now");
  };
}

/** How long a refused connection stays open, unread, for the client to read the answer. */
const LINGER_MS = 1000;

/**
 * Stops reading the socket for good and ends it, now (the answer was written) or once the answer is written. Destroying a socket
 * with unread data resets it at once, and a client still sending may then lose the answer: our
 * side is ended instead (the answer, then FIN) and the socket destroyed when the client has had
 * time to read it.
 */
function closeUnread(socket: Socket, when: "now" | "after the answer"): void {
  // Node's server resumes the socket to throw an unread body away (after an answer, on drain):
  // this one is never read again.
  socket.pause();
  socket.resume = () => socket;
  const linger = () => {
    socket.end();
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    timer.unref();
    socket.once("close", () => clearTimeout(timer));
  };
  // With "Connection: close", Node calls destroySoon once the answer is written.
  if (when === "now") linger();
  else socket.destroySoon = linger;
}

function refuse(req: IncomingMessage, res: ServerResponse, limit: BodyLimit): void {
  if (res.headersSent) {
    // Next has begun its answer: it cannot become a 413.
    req.socket.destroy();
    return;
  }
  closeUnread(req.socket, "after the answer");
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
