import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { MAX_JSON_BODY_BYTES, readBoundedBody, readJsonBody } from "./request-body";
import { MULTIPART_MAX_BYTES, readUpload } from "./imports/http";
import { spool } from "./imports/files";

const CHUNK = 64 * 1024;

/**
 * A chunked request body (no Content-Length) of `total` bytes, produced only as it is read, that
 * counts what the reader pulled: the readers must stop at their limit plus one chunk.
 */
function flood(total: number, prefix = "") {
  let produced = 0;
  const head = new TextEncoder().encode(prefix);
  const piece = new Uint8Array(CHUNK).fill(0x61);
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (produced >= total) return controller.close();
        const chunk = produced === 0 && head.byteLength > 0 ? head : piece.slice();
        produced += chunk.byteLength;
        controller.enqueue(chunk);
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, pulled: () => produced };
}

function chunkedRequest(url: string, body: ReadableStream<Uint8Array>, contentType: string) {
  return new NextRequest(url, {
    method: "POST",
    body,
    headers: { "content-type": contentType },
    duplex: "half",
  } as ConstructorParameters<typeof NextRequest>[1]);
}

const BOUNDARY = "----verdictflood";
const multipartHead = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.csv"\r\nContent-Type: text/csv\r\n\r\nid,label\n`;

describe("oversized chunked bodies are refused with 413 after at most the limit and one chunk", () => {
  it("four parallel chunked multipart uploads of 400 MB stop at the 64 MB multipart cap", async () => {
    const floods = Array.from({ length: 4 }, () => flood(400 * 1024 ** 2, multipartHead));
    const before = process.memoryUsage().rss;
    const errors = await Promise.all(
      floods.map((f) =>
        readUpload(
          chunkedRequest(
            "http://localhost/api/v1/decisions/d/datasets",
            f.stream,
            `multipart/form-data; boundary=${BOUNDARY}`,
          ),
          2 * 1024 ** 3,
        ).catch((e: unknown) => e),
      ),
    );
    for (const [i, error] of errors.entries()) {
      expect(error).toMatchObject({ code: "PAYLOAD_TOO_LARGE", status: 413 });
      expect(floods[i]!.pulled()).toBeLessThanOrEqual(MULTIPART_MAX_BYTES + CHUNK);
    }
    // Four bodies of at most 64 MB each were held at once, never 4 × 400 MB.
    expect(process.memoryUsage().rss - before).toBeLessThan(1024 ** 3);
  });

  it("a chunked raw upload over the file limit stops at the limit while it is spooled", async () => {
    const limit = 8 * 1024 ** 2;
    const f = flood(400 * 1024 ** 2);
    const { file } = await readUpload(
      chunkedRequest("http://localhost/api/v1/decisions/d/datasets?name=x", f.stream, "text/csv"),
      limit,
    );
    const error = await spool(file, { maxBytes: limit, maxRows: 10, keepContentBytes: 0 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "PAYLOAD_TOO_LARGE", status: 413 });
    expect(f.pulled()).toBeLessThanOrEqual(limit + CHUNK);
  });

  it("four parallel chunked 100 MB JSON bodies stop at 1 MiB", async () => {
    const floods = Array.from({ length: 4 }, () => flood(100 * 1024 ** 2, '{"title":"'));
    const errors = await Promise.all(
      floods.map((f) =>
        readJsonBody(chunkedRequest("http://localhost/api/v1/decisions", f.stream, "application/json")).catch(
          (e: unknown) => e,
        ),
      ),
    );
    for (const [i, error] of errors.entries()) {
      expect(error).toMatchObject({ code: "PAYLOAD_TOO_LARGE", status: 413 });
      expect(floods[i]!.pulled()).toBeLessThanOrEqual(MAX_JSON_BODY_BYTES + CHUNK);
    }
  });

  it("a body whose Content-Length is over the limit is refused before a byte is read", async () => {
    const f = flood(10 * 1024 ** 2);
    const req = new NextRequest("http://localhost/api/auth/callback/credentials", {
      method: "POST",
      body: f.stream,
      headers: { "content-length": String(10 * 1024 ** 2) },
      duplex: "half",
    } as ConstructorParameters<typeof NextRequest>[1]);
    await expect(readBoundedBody(req, 16 * 1024, "A sign-in request")).rejects.toMatchObject({
      code: "PAYLOAD_TOO_LARGE",
    });
    expect(f.pulled()).toBe(0);
  });

  it("four parallel chunked 100 MB sign-in bodies stop at 16 KiB (the Auth.js route's bound)", async () => {
    const floods = Array.from({ length: 4 }, () => flood(100 * 1024 ** 2, "email=a%40b.c&password="));
    const errors = await Promise.all(
      floods.map((f) =>
        readBoundedBody(
          chunkedRequest(
            "http://localhost/api/auth/callback/credentials",
            f.stream,
            "application/x-www-form-urlencoded",
          ),
          16 * 1024,
          "A sign-in request",
        ).catch((e: unknown) => e),
      ),
    );
    for (const [i, error] of errors.entries()) {
      expect(error).toMatchObject({ code: "PAYLOAD_TOO_LARGE", status: 413 });
      expect(floods[i]!.pulled()).toBeLessThanOrEqual(16 * 1024 + CHUNK);
    }
  });
});
