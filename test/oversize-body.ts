/**
 * A raw HTTP client that sends a large body — with a Content-Length, or chunked — as fast as the
 * server takes it, and stops sending once an answer arrives (as curl and browsers do). It reports
 * what the server answered, when, how much had been written by then and whether the server closed
 * the connection: the body-limit tests (lib/security/body-guard.test.ts, e2e/production-body-limits.spec.ts)
 * check that an oversize body is refused before the client has finished sending it.
 */
import http from "node:http";

export interface OversizeAnswer {
  status: number | null;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** Milliseconds from the request's start to the answer's headers. */
  answeredAfterMs: number | null;
  /** Body bytes the client had handed to its socket when the answer came. */
  writtenAtAnswer: number;
  /** Whether the client had sent the whole body. */
  finishedWriting: boolean;
  /** Whether the connection was closed (by the server: this client never closes it first). */
  closed: boolean;
  /** A socket error the client saw (the server's reset after its answer is one). */
  error: string | null;
}

export interface OversizeRequest {
  port: number;
  path: string;
  headers?: Record<string, string>;
  /** Body bytes to send (the client stops early once answered). */
  total: number;
  chunked: boolean;
  /** Give up waiting for an answer after this long. */
  timeoutMs?: number;
}

const PIECE = Buffer.alloc(64 * 1024, 0x61);

export function sendOversize(request: OversizeRequest): Promise<OversizeAnswer> {
  const { port, path, total, chunked, timeoutMs = 20_000 } = request;
  const headers = { ...request.headers, ...(chunked ? {} : { "content-length": String(total) }) };
  return new Promise((resolve) => {
    const started = Date.now();
    const answer: OversizeAnswer = {
      ...{ status: null, headers: {}, body: "", answeredAfterMs: null, writtenAtAnswer: 0 },
      ...{ finishedWriting: false, closed: false, error: null },
    };
    let written = 0;
    const req = http.request({ host: "127.0.0.1", port, path, method: "POST", headers, agent: false });
    const timer = setTimeout(() => {
      req.destroy();
      resolve(answer);
    }, timeoutMs);
    req.on("response", (res) => {
      answer.status = res.statusCode ?? null;
      answer.headers = res.headers;
      answer.answeredAfterMs = Date.now() - started;
      answer.writtenAtAnswer = written;
      res.on("data", (chunk: Buffer) => void (answer.body += chunk.toString("utf8")));
      res.on("error", () => {});
    });
    req.on("error", (error: NodeJS.ErrnoException) => void (answer.error ??= error.code ?? error.message));
    req.on("close", () => {
      answer.closed = true;
      clearTimeout(timer);
      resolve(answer);
    });
    const pump = () => {
      while (written < total && answer.status === null && !answer.error) {
        const piece = PIECE.subarray(0, Math.min(PIECE.length, total - written));
        written += piece.length;
        if (!req.write(piece)) return void req.once("drain", pump);
      }
      if (written >= total) {
        answer.finishedWriting = true;
        req.end();
      }
    };
    pump();
  });
}
