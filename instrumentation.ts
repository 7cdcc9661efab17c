// Runs once when a server starts (Node.js runtime only).
export async function register() {
  // NEXT_RUNTIME and NEXT_PHASE are Next's own, substituted per bundle at build time: not
  // configuration, so read here as Next documents them rather than through lib/env.ts.
  if (process.env.NEXT_RUNTIME === "nodejs") {
    // Not while `next build` loads the app: the build never touches the database.
    const serving = process.env.NEXT_PHASE !== "phase-production-build";
    // A bare `next start` is checked too: a malformed variable, no AUTH_SECRET or an embedded
    // database nobody chose, in production, stops it.
    const config = (await import("./lib/env")).checkEnv({ serving });
    if (serving) {
      // Crash recovery and the job queue, at start and then periodically (lib/server/maintenance/recovery.ts).
      const [{ database }, { startMaintenance }, { startHarnessJobs }, { setProcessRole }] = await Promise.all([
        import("./lib/server/db"),
        import("./lib/server/maintenance/recovery"),
        import("./lib/server/harness/queue"),
        import("./lib/server/runs/job-log"),
      ]);
      setProcessRole("server"); // named in every job log line (lib/server/runs/job-log.ts)
      if (config.VERDICT_DEMO === "1") (await import("./lib/server/harness/demo-endpoint")).startDemoEndpoint();
      void database()
        .then(async (db) => {
          await startMaintenance(db);
          await startHarnessJobs(db);
        })
        .catch((error: unknown) =>
          console.error("Startup recovery failed:", error instanceof Error ? error.message : error),
        );
    }
  }
}
