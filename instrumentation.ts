// Runs once when a server starts (Node.js runtime only).
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { assertProductionSecrets } = await import("./lib/startup-checks");
    assertProductionSecrets();
    // Not while `next build` loads the app: the build never touches the database.
    if (process.env.NEXT_PHASE !== "phase-production-build") {
      // Crash recovery and the job queue, at start and then periodically (lib/server/jobs/recovery.ts).
      const [{ database }, { startMaintenance }, { startHarnessJobs }] = await Promise.all([import("./lib/server/db"), import("./lib/server/jobs/recovery"), import("./lib/server/harness/queue")]);
      if (process.env.VERDICT_DEMO === "1") (await import("./lib/server/harness/demo-endpoint")).startDemoEndpoint();
      void database()
        .then(async (db) => {
          await startMaintenance(db);
          await startHarnessJobs(db);
        })
        .catch((error: unknown) => console.error("Startup recovery failed:", error instanceof Error ? error.message : error));
    }
  }
}
