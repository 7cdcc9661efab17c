/**
 * A benchmark's decision, written straight into its database (not timed): an analyst, a decision,
 * one candidate and a dataset version of n items loaded by psql from a CSV (id, label with the
 * positive class as 1 or as `positiveClass`). The benchmarks time what comes next: an upload.
 */
import { execFileSync } from "node:child_process";
import type pg from "pg";

/** psql running each command in turn, stopping at the first error. */
export function psql(url: string, ...commands: string[]): void {
  execFileSync("psql", [url, "-v", "ON_ERROR_STOP=1", "-q", ...commands.flatMap((c) => ["-c", c])]);
}

export interface BenchDecision {
  decisionId: string;
  candidateId: string;
  versionId: number;
  userId: string;
  /** An eval run (and so its "PredictionSet" row) for a psql twin's foreign key to point at. */
  psqlRunId: number;
}

export async function setupDecision(
  url: string,
  pool: pg.Pool,
  n: number,
  datasetFile: string,
  options: { key?: string; positiveClass?: string } = {},
): Promise<BenchDecision> {
  const key = options.key ?? String(n);
  const positiveClass = options.positiveClass ?? "positive";
  const {
    rows: [user],
  } = await pool.query(
    `INSERT INTO "User" (id, email, name, "passwordHash", roles, "updatedAt") VALUES ($1, $2, $3, 'x', '{ANALYST}', now()) RETURNING id`,
    // Printed names are unique among active users: one per decision.
    [`bench-user-${key}`, `bench-${key}@verdict.test`, `Bench ${key}`],
  );
  const decisionId = `bench-${key}`;
  await pool.query(
    `INSERT INTO "Decision" (id, title, "positiveClass", prevalence, "costFn", "costFp", "recallFloor", "createdById", "updatedAt") VALUES ($1, 'bench', $3, 0.05, 10, 1, 0.8, $2, now())`,
    [decisionId, user.id, positiveClass],
  );
  await pool.query(
    `INSERT INTO "Candidate" (id, "decisionId", name, provider) VALUES ($1, $2, 'bench-model', 'bench')`,
    [`${decisionId}-cand`, decisionId],
  );
  await pool.query(`INSERT INTO "Dataset" (id, "decisionId", name) VALUES ($1, $2, 'bench')`, [
    `${decisionId}-ds`,
    decisionId,
  ]);
  const {
    rows: [version],
  } = await pool.query(
    `INSERT INTO "DatasetVersion" ("datasetId", version, "itemCount", "positiveCount") VALUES ($1, 1, $2, 0) RETURNING id`,
    [`${decisionId}-ds`, n],
  );
  psql(
    url,
    "CREATE TEMP TABLE d (id text, label text, text text)",
    `\\copy d (id, label) FROM PROGRAM 'cut -d, -f1,2 ${datasetFile}' WITH (FORMAT csv, HEADER true)`,
    `INSERT INTO "DatasetItem" ("datasetVersionId", "itemId", label) SELECT ${version.id}, id, label IN ('1', '${positiveClass}') FROM d`,
  );
  const {
    rows: [run],
  } = await pool.query(
    `INSERT INTO "EvalRun" ("decisionId", "candidateId", "datasetVersionId") VALUES ($1, $2, $3) RETURNING id`,
    [decisionId, `${decisionId}-cand`, version.id],
  );
  return {
    decisionId,
    candidateId: `${decisionId}-cand`,
    versionId: version.id as number,
    userId: user.id as string,
    psqlRunId: run.id as number,
  };
}
