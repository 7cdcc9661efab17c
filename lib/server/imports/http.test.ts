import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { readUpload } from "./http";

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
});
