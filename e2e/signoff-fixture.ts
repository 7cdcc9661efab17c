import pg from "pg";

/**
 * A decision of the spec's own (so specs stay independent of the shared demo decision): a copy
 * of the demo decision's parameters, candidates, computed eval runs and serving benchmarks,
 * written straight into the e2e database the server uses.
 */
export const e2eDatabaseUrl = () => process.env.E2E_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/verdict_e2e";

async function withClient<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: e2eDatabaseUrl() });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export function cloneDemoDecision(id: string, title: string) {
  return withClient(async (c) => {
    await c.query("BEGIN");
    const patch = (extra: string) => `to_jsonb(x) || ${extra}`;
    await c.query(`INSERT INTO "Decision" SELECT (jsonb_populate_record(NULL::"Decision", ${patch(`jsonb_build_object('id', $1::text, 'title', $2::text, 'status', 'DRAFT', 'createdAt', now(), 'updatedAt', now())`)})).* FROM "Decision" x WHERE id = 'demo-moderation'`, [id, title]);
    await c.query(`INSERT INTO "Candidate" SELECT (jsonb_populate_record(NULL::"Candidate", ${patch(`jsonb_build_object('id', $1::text || '-' || x.id, 'decisionId', $1::text)`)})).* FROM "Candidate" x WHERE "decisionId" = 'demo-moderation'`, [id]);
    await c.query(
      `INSERT INTO "EvalRun" SELECT (jsonb_populate_record(NULL::"EvalRun", ${patch(`jsonb_build_object('id', nextval(pg_get_serial_sequence('"EvalRun"', 'id')), 'decisionId', $1::text, 'candidateId', $1::text || '-' || x."candidateId", 'importId', NULL)`)})).* FROM "EvalRun" x WHERE "decisionId" = 'demo-moderation' AND status = 'DONE'`,
      [id],
    );
    await c.query(`INSERT INTO "ServingBenchmark" SELECT (jsonb_populate_record(NULL::"ServingBenchmark", ${patch(`jsonb_build_object('id', $1::text || '-' || x.id, 'decisionId', $1::text, 'candidateId', $1::text || '-' || x."candidateId", 'importId', NULL)`)})).* FROM "ServingBenchmark" x WHERE "decisionId" = 'demo-moderation'`, [id]);
    await c.query("COMMIT");
  });
}

/** A change of evidence after signing, as a new leaderboard import by the analyst would make it. */
export function importLeaderboardScore(decisionId: string, candidateName: string) {
  return withClient(async (c) => {
    const analyst = await c.query<{ id: string }>(`SELECT id FROM "User" WHERE email = 'analyst@verdict.demo'`);
    const candidate = await c.query<{ id: string }>(`SELECT id FROM "Candidate" WHERE "decisionId" = $1 AND name = $2`, [decisionId, candidateName]);
    const importId = `${decisionId}-late-import`;
    await c.query(
      `INSERT INTO "Import" (id, "decisionId", kind, format, "fileName", sha256, "sizeBytes", status, "rowCount", "importedById") VALUES ($1, $2, 'LEADERBOARD', 'generic-csv', 'late-board.csv', $3, 120, 'SUCCEEDED', 1, $4)`,
      [importId, decisionId, "d".repeat(64), analyst.rows[0]!.id],
    );
    await c.query(
      `INSERT INTO "LeaderboardScore" (id, "decisionId", "candidateId", stage, suite, metric, value, source, "retrievedAt", "importId") VALUES ($1, $2, $3, 'LEADERBOARD', 'LateBench', 'accuracy', 0.61, 'late-board.csv', now(), $4)`,
      [`${decisionId}-late-score`, decisionId, candidate.rows[0]!.id, importId],
    );
  });
}

/** What a refused mutation must leave unchanged. */
export function signoffCounts(decisionId: string) {
  return withClient(async (c) => {
    const { rows } = await c.query<{ status: string; comments: string; signatures: string; revisions: string }>(
      `SELECT d.status, (SELECT count(*) FROM "Comment" WHERE "decisionId" = d.id) AS comments, (SELECT count(*) FROM "Signature" WHERE "decisionId" = d.id) AS signatures, (SELECT count(*) FROM "PackRevision" WHERE "decisionId" = d.id) AS revisions FROM "Decision" d WHERE d.id = $1`,
      [decisionId],
    );
    const r = rows[0]!;
    return { status: r.status, comments: Number(r.comments), signatures: Number(r.signatures), revisions: Number(r.revisions) };
  });
}
