import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimServer, type SimServer } from "@/lib/harness/network/sim-server";
import { db } from "@/lib/server/db";
import { makeHarnessDecision } from "@/test/harness-fixtures";
import { makeActor } from "@/test/factories";
import { verdict, SPAWN_TIMEOUT } from "./run-verdict";

// `verdict run` spawned as a pipeline runs it. The embedded-style in-process jobs (VERDICT_JOBS=inline)
// let `start --wait` finish the run in the command's own process: no worker is started here.
const env = { VERDICT_JOBS: "inline", VERDICT_SECRETS_KEY: "22".repeat(32), VERDICT_HARNESS_BACKOFF_MS: "10" };
let sim: SimServer;
beforeAll(async () => {
  sim = await startSimServer({ ttftMs: 2, itlMs: 1 });
});
afterAll(() => sim.close());

describe("verdict run", { timeout: SPAWN_TIMEOUT }, () => {
  it("starts a run and watches it to the end, sets an endpoint from an environment variable, refuses a metadata address and a finished run's cancel", async () => {
    const analyst = await makeActor(["ANALYST"]);
    const prefix = `cli${Date.now() % 10_000}-`;
    const items = Array.from({ length: 12 }, (_, k) => ({
      itemId: `${prefix}${k}`,
      label: k < 6,
      text: `[[sim id=${prefix}${k} label=${k < 5 ? "yes" : "no"} p=${k < 5 ? 0.9 : 0.2} tokens=2${k === 11 ? " fail=contract" : ""}]]`,
    }));
    const { decisionId, candidate } = await makeHarnessDecision(analyst, sim.url, items);

    const endpoint = await verdict(
      [
        "run",
        "endpoint",
        "--decision",
        decisionId,
        "--candidate",
        candidate.id,
        "--base-url",
        sim.url,
        "--model",
        "m2",
        "--api-key-env",
        "SIM_KEY",
        "--concurrency",
        "3",
        "--as",
        analyst.email,
      ],
      { env: { ...env, SIM_KEY: "sk-cli-secret" } },
    );
    expect(endpoint.stderr).toBe("");
    expect(endpoint.code).toBe(0);
    expect(endpoint.stdout).not.toContain("sk-cli-secret");
    expect(JSON.parse(endpoint.stdout).endpoint).toMatchObject({
      model: "m2",
      concurrency: 3,
      apiKeyFingerprint: expect.stringMatching(/^sha256:/),
    });

    const start = await verdict(
      ["run", "start", "--decision", decisionId, "--candidate", candidate.id, "--wait", "--as", analyst.email],
      { env },
    );
    expect(start.stderr).toBe("");
    expect(start.code).toBe(0);
    const last = start.stdout.trim().split("\n").at(-1)!;
    expect(last).toMatch(
      /^run (\d+) DONE 12\/12 items, 1 parse failures, 0 failed requests, \d+\+24 tokens; eval run \d+ DONE$/,
    );
    const runId = last.match(/^run (\d+)/)![1]!;
    const prisma = await db();
    expect(await prisma.prediction.count({ where: { set: { evalRun: { harnessRun: { id: Number(runId) } } } } })).toBe(
      12,
    );

    const watch = await verdict(["run", "watch", "--decision", decisionId, "--run", runId, "--as", analyst.email], {
      env,
    });
    expect(watch.code).toBe(0);
    expect(watch.stdout).toContain(`run ${runId} DONE 12/12`);

    const cancel = await verdict(["run", "cancel", "--decision", decisionId, "--run", runId, "--as", analyst.email], {
      env,
    });
    expect(cancel.code).toBe(1);
    expect(cancel.stderr).toBe("verdict run: The run is done: only a queued or running run can be cancelled.\n");

    const metadata = await verdict(
      [
        "run",
        "endpoint",
        "--decision",
        decisionId,
        "--candidate",
        candidate.id,
        "--base-url",
        "http://169.254.169.254/v1",
        "--model",
        "m",
        "--as",
        analyst.email,
      ],
      { env },
    );
    expect(metadata.code).toBe(1);
    expect(metadata.stderr).toMatch(
      /^verdict run: baseUrl: Refused: 169\.254\.169\.254 is a link-local or cloud-metadata address\.\n$/,
    );

    const usage = await verdict(["run", "start", "--candidate", candidate.id, "--as", analyst.email], { env });
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("--decision ID is required");
  });
});
