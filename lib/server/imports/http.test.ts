import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { peekUpload, readUpload } from "./http";

describe("reading an upload from an API request", () => {
  it("answers 413 PAYLOAD_TOO_LARGE from Content-Length, before reading the body", async () => {
    const req = new NextRequest("http://localhost/api/v1/decisions/d/datasets?name=x", {
      method: "POST",
      body: "id,label\n",
      headers: { "content-length": String(3 * 1024 ** 3) },
    });
    const error = await readUpload(req, 2 * 1024 ** 3).catch((e: unknown) => e);
    // apiRoute's errorResponse answers an AppError with its status.
    expect(error).toMatchObject({ code: "PAYLOAD_TOO_LARGE", status: 413 });
  });

  it("streams a raw body with its name and the query options", async () => {
    const req = new NextRequest("http://localhost/api/v1/decisions/d/datasets?name=holdout&negativeLabels=benign", {
      method: "POST",
      body: "id,label\na,1\n",
      headers: { "x-file-name": encodeURIComponent("my file.csv") },
    });
    const { file, fields } = await readUpload(req, 1024);
    expect(fields).toEqual({ name: "holdout", negativeLabels: "benign" });
    expect(file.name).toBe("my file.csv");
    const chunks: Uint8Array[] = [];
    for await (const c of (file as { stream: AsyncIterable<Uint8Array> }).stream) chunks.push(c);
    expect(Buffer.concat(chunks).toString()).toBe("id,label\na,1\n");
  });

  it("takes a small multipart form with a file field", async () => {
    const form = new FormData();
    form.set("name", "holdout");
    form.set("file", new File(["id,label\nb,0\n"], "f.csv", { type: "text/csv" }));
    const req = new NextRequest("http://localhost/api/v1/decisions/d/datasets", { method: "POST", body: form });
    const { file, fields } = await readUpload(req, 1024);
    expect(fields.name).toBe("holdout");
    expect(file.name).toBe("f.csv");
  });

  it("takes every file part of a form in order, and peeks at a stream's head without losing a byte", async () => {
    const form = new FormData();
    form.append("file", new File(["first"], "a.json"));
    form.append("file", new File(["second"], "b.json"));
    const req = new NextRequest("http://localhost/api/v1/decisions/d/predictions", { method: "POST", body: form });
    const { files } = await readUpload(req, 1024);
    expect(files.map((f) => f.name)).toEqual(["a.json", "b.json"]);
    const chunks = ["ab", "cdef", "gh"].map((t) => Buffer.from(t));
    const upload = {
      name: "s",
      stream: (async function* () {
        yield* chunks;
      })(),
    };
    const { head, file } = await peekUpload(upload, 3);
    expect(head.toString()).toBe("abc");
    const all: Uint8Array[] = [];
    for await (const c of (file as { stream: AsyncIterable<Uint8Array> }).stream) all.push(c);
    expect(Buffer.concat(all).toString()).toBe("abcdefgh");
  });
});
