import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { removeOrphanedSpools, spool } from "./files";

const MINUTES = 60_000;
let dir: string;
let previousTmp: string | undefined;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "verdict-spool-test-"));
  // Spools of this process go to this test's folder, not the shared temporary folder.
  previousTmp = process.env.TMPDIR;
  process.env.TMPDIR = dir;
});

afterEach(async () => {
  if (previousTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = previousTmp;
  await rm(dir, { recursive: true, force: true });
});

/** The pid of a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
  await once(child, "exit");
  return child.pid!;
}

async function folder(name: string, ageMs: number) {
  const full = path.join(dir, name);
  await mkdir(full);
  await writeFile(path.join(full, "data"), "id,label\n");
  const t = new Date(Date.now() - ageMs);
  await utimes(full, t, t);
  return full;
}

describe("orphaned upload spool files", () => {
  it("removes the folders of dead processes once old, and keeps live and recent ones", async () => {
    const dead = await deadPid();
    await folder(`verdict-upload-${dead}-old1`, 30 * MINUTES);
    await folder(`verdict-upload-${dead}-new1`, 1 * MINUTES); // recent: maybe a process just gone, left for the next sweep
    await folder(`verdict-upload-${process.ppid}-live1`, 30 * MINUTES); // a live process's upload in progress
    await folder(`verdict-upload-${process.pid}-gone1`, 30 * MINUTES); // our pid, but not one of our spools: a previous process's
    await folder("verdict-upload-Ab12Cd", 30 * MINUTES); // the format without a pid
    await folder("something-else", 30 * MINUTES);
    // A spool of this process in progress (not cleaned up yet), made old.
    const live = await spool(
      {
        name: "in-progress.csv",
        stream: (async function* () {
          yield Buffer.from("id,label\na,1\n");
        })(),
      },
      { maxBytes: 1 << 20, maxRows: 10, keepContentBytes: 0 },
    );
    const liveDir = path.dirname(live.path);
    expect(path.dirname(liveDir)).toBe(dir);
    expect(path.basename(liveDir)).toMatch(new RegExp(`^verdict-upload-${process.pid}-`));
    const old = new Date(Date.now() - 30 * MINUTES);
    await utimes(liveDir, old, old);

    const removed = await removeOrphanedSpools(dir, 10 * MINUTES);
    expect(removed.map((p) => path.basename(p)).sort()).toEqual(
      [`verdict-upload-${dead}-old1`, `verdict-upload-${process.pid}-gone1`, "verdict-upload-Ab12Cd"].sort(),
    );
    expect((await readdir(dir)).sort()).toEqual(
      [
        path.basename(liveDir),
        "something-else",
        `verdict-upload-${dead}-new1`,
        `verdict-upload-${process.ppid}-live1`,
      ].sort(),
    );

    // Once the upload is done its folder goes with it; nothing is left to sweep.
    await live.cleanup();
    expect(await readdir(dir)).not.toContain(path.basename(liveDir));
  });

  it("a spool aborted over the size limit leaves no folder", async () => {
    const big = (async function* () {
      for (let i = 0; i < 100; i++) yield Buffer.alloc(64 * 1024, 0x61);
    })();
    await expect(
      spool({ name: "big.csv", stream: big }, { maxBytes: 1 << 20, maxRows: 10, keepContentBytes: 0 }),
    ).rejects.toMatchObject({ code: "PAYLOAD_TOO_LARGE" });
    expect(await readdir(dir)).toEqual([]);
  });
});
