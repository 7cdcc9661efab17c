import { afterAll, describe, expect, it } from "vitest";
import { openServer } from "@/lib/db/connect";
import { readProgress, reportProgress, startProgress, withProgress, writeProgress } from "./progress";
import { makeActor, unique } from "@/test/factories";

// Two app processes behind a balancer are two database clients: one writes an upload's progress,
// the other answers the browser's poll.
const processA = openServer(process.env.DATABASE_URL!);
const processB = openServer(process.env.DATABASE_URL!);

afterAll(async () => {
  await processA.close();
  await processB.close();
});

const uploadId = () => unique("upload").replace(/[^A-Za-z0-9_-]/g, "");

describe("upload progress in the database", () => {
  it("progress written by one process is read by another, and only by the uploader", async () => {
    const uploader = await makeActor(["ANALYST"]);
    const other = await makeActor(["ANALYST"]);
    const id = uploadId();
    await startProgress(processA.prisma, id, uploader.id);
    await writeProgress(processA.prisma, id, { phase: "validating", bytes: 5_000_000, rows: 1234 });
    expect(await readProgress(processB.prisma, id, uploader.id)).toMatchObject({
      phase: "validating",
      bytes: 5_000_000,
      rows: 1234,
    });
    expect(await readProgress(processB.prisma, id, other.id)).toBeNull();
    // Someone else's upload id is not taken over.
    await startProgress(processB.prisma, id, other.id);
    expect(await readProgress(processB.prisma, id, uploader.id)).toMatchObject({ rows: 1234 });
    // The end is final: a late periodic write does not undo it.
    await writeProgress(processA.prisma, id, { phase: "done", rows: 2000 }, { final: true });
    await writeProgress(processA.prisma, id, { phase: "validating", rows: 1500 });
    expect(await readProgress(processB.prisma, id, uploader.id)).toMatchObject({ phase: "done", rows: 2000 });
  });

  it("an import's reports reach the database while it runs, and its end when it is over", async () => {
    const uploader = await makeActor(["ANALYST"]);
    const id = uploadId();
    let seenWhileRunning: unknown = null;
    const result = await withProgress(id, uploader.id, async () => {
      reportProgress(id, { phase: "receiving", bytes: 1 << 20 });
      reportProgress(id, { phase: "validating", rows: 500 });
      for (let i = 0; i < 50 && !seenWhileRunning; i++) {
        await new Promise((r) => setTimeout(r, 100));
        const p = await readProgress(processB.prisma, id, uploader.id);
        if (p?.rows === 500) seenWhileRunning = p;
      }
      reportProgress(id, { rows: 900 });
      return { rowCount: 1000 };
    });
    expect(result).toEqual({ rowCount: 1000 });
    expect(seenWhileRunning).toMatchObject({ phase: "validating", bytes: 1 << 20, rows: 500 });
    expect(await readProgress(processB.prisma, id, uploader.id)).toMatchObject({ phase: "done", rows: 1000 });

    const failing = uploadId();
    await expect(
      withProgress(failing, uploader.id, async () => Promise.reject(new Error("rejected file"))),
    ).rejects.toThrow("rejected file");
    expect(await readProgress(processB.prisma, failing, uploader.id)).toMatchObject({ phase: "failed" });
  });
});
