/**
 * One timed import in its own process (run by bench/ingest.ts with --conditions=react-server):
 * the same server code path as an upload. Prints JSON: seconds, rows, RSS before and peak.
 * argv: predictions decisionId candidateId datasetVersionId userId file   (upload only: the run left PENDING)
 *       ready       decisionId candidateId datasetVersionId userId file   (upload, then its job until the run is DONE)
 *       embedded   datasetFile predictionsFile     (PGlite: dataset then predictions, fresh data dir)
 */
import { database } from "../lib/server/db.ts";
import { importDataset, importPredictions } from "../lib/server/imports/index.ts";
import { drainInlineJobs } from "../lib/server/runs/queue.ts";

const [mode, ...args] = process.argv.slice(2);
const mib = (kb: number) => kb * 1024;

async function main() {
  const db = await database();
  if (mode === "predictions" || mode === "ready") {
    const [decisionId, candidateId, versionId, userId, file] = args as [string, string, string, string, string];
    const actor = { id: userId, email: "bench@verdict.test", name: "Bench", roles: ["ANALYST" as const] };
    // Warm-up: the same code path on a tiny file that is rejected (unknown id), so the Prisma
    // query compiler and every module are loaded before the baseline is taken.
    await importPredictions(
      actor,
      decisionId,
      candidateId,
      Number(versionId),
      {
        name: "w.csv",
        stream: (async function* () {
          yield Buffer.from("id,score\nwarm-up-unknown-id,0.5\n");
        })(),
      },
      { compute: "none" },
    ).catch(() => {});
    globalThis.gc?.();
    const baselineRss = process.memoryUsage().rss;
    if (process.env.BENCH_DEBUG) console.error("baseline", JSON.stringify(process.memoryUsage()));
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    // "ready": the upload queues the run's job as a user's upload does (VERDICT_JOBS=inline: in this process).
    const r = await importPredictions(
      actor,
      decisionId,
      candidateId,
      Number(versionId),
      { name: "bench.csv", path: file },
      { compute: mode === "ready" ? "queue" : "none" },
    );
    const uploadSeconds = (performance.now() - t0) / 1000;
    const uploadCpu = process.cpuUsage(cpu0);
    let status = "PENDING";
    let readySeconds: number | undefined;
    if (mode === "ready") {
      // Ready = the run's row says DONE (what a page or the API shows), polled as a client would;
      // the job goes on to write the drill-down's items, timed apart (jobSeconds).
      const job = drainInlineJobs();
      for (;;) {
        ({ status } = await db.prisma.evalRun.findUniqueOrThrow({ where: { id: r.runId }, select: { status: true } }));
        if (status === "DONE" || status === "FAILED") break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      readySeconds = (performance.now() - t0) / 1000;
      await job;
    }
    const seconds = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(cpu0);
    process.stdout.write(
      JSON.stringify({
        seconds: readySeconds ?? uploadSeconds,
        uploadSeconds,
        uploadCpuSeconds: (uploadCpu.user + uploadCpu.system) / 1e6,
        cpuSeconds: (cpu.user + cpu.system) / 1e6,
        jobSeconds: seconds,
        rows: r.rowCount,
        runId: r.runId,
        status,
        missing: r.missingCount,
        baselineRss,
        maxRss: mib(process.resourceUsage().maxRSS),
      }) + "\n",
    );
  } else if (mode === "embedded") {
    const [datasetFile, predictionsFile] = args as [string, string];
    const prisma = db.prisma;
    const user = await prisma.user.create({
      data: { email: `bench-${Date.now()}@verdict.test`, name: "Bench", roles: ["ANALYST"], passwordHash: "x" },
    });
    const decision = await prisma.decision.create({
      data: {
        title: "bench",
        positiveClass: "positive",
        prevalence: 0.05,
        costFn: 10,
        costFp: 1,
        recallFloor: 0.8,
        createdById: user.id,
      },
    });
    const candidate = await prisma.candidate.create({
      data: { decisionId: decision.id, name: "bench-model", provider: "bench" },
    });
    const actor = { id: user.id, email: user.email, name: "Bench", roles: ["ANALYST" as const] };
    const t0 = performance.now();
    const ds = await importDataset(
      actor,
      decision.id,
      { name: "dataset.csv", path: datasetFile },
      { datasetName: "bench" },
    );
    const datasetSeconds = (performance.now() - t0) / 1000;
    const t1 = performance.now();
    const r = await importPredictions(
      actor,
      decision.id,
      candidate.id,
      ds.datasetVersionId,
      { name: "bench.csv", path: predictionsFile },
      { compute: "none" },
    );
    const seconds = (performance.now() - t1) / 1000;
    process.stdout.write(
      JSON.stringify({
        seconds,
        datasetSeconds,
        rows: r.rowCount,
        datasetRows: ds.itemCount,
        maxRss: mib(process.resourceUsage().maxRSS),
      }) + "\n",
    );
  } else throw new Error(`unknown mode ${mode}`);
  await db.close();
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
