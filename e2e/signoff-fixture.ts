import pg from "pg";

/**
 * A decision of the spec's own (so specs stay independent of the shared demo decision): a copy
 * of the demo decision's parameters, candidates, computed eval runs and serving benchmarks,
 * written straight into the e2e database the server uses.
 */
export const e2eDatabaseUrl = () => process.env.E2E_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/verdict_e2e";

async function withClient<T>(fn: (client: pg.Client) => Promise<T>, databaseUrl = e2eDatabaseUrl()): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * `from` copies another complete decision instead (the production specs copy the journey's) into
 * another database, created by another analyst.
 */
export function cloneDemoDecision(
  id: string,
  title: string,
  from: { decisionId?: string; databaseUrl?: string; createdById?: string } = {},
) {
  const source = from.decisionId ?? "demo-moderation";
  if (!/^[\w-]+$/.test(source)) throw new Error(`not a decision id: ${source}`);
  const createdBy = from.createdById ? `, 'createdById', '${from.createdById.replace(/'/g, "")}'::text` : "";
  return withClient(async (c) => {
    await c.query("BEGIN");
    const patch = (extra: string) => `to_jsonb(x) || ${extra}`;
    await c.query(
      `INSERT INTO "Decision" SELECT (jsonb_populate_record(NULL::"Decision", ${patch(`jsonb_build_object('id', $1::text, 'title', $2::text, 'status', 'DRAFT', 'createdAt', now(), 'updatedAt', now()${createdBy})`)})).* FROM "Decision" x WHERE id = '${source}'`,
      [id, title],
    );
    await c.query(
      `INSERT INTO "Candidate" SELECT (jsonb_populate_record(NULL::"Candidate", ${patch(`jsonb_build_object('id', $1::text || '-' || x.id, 'decisionId', $1::text)`)})).* FROM "Candidate" x WHERE "decisionId" = '${source}'`,
      [id],
    );
    await c.query(
      `INSERT INTO "EvalRun" SELECT (jsonb_populate_record(NULL::"EvalRun", ${patch(`jsonb_build_object('id', nextval(pg_get_serial_sequence('"EvalRun"', 'id')), 'decisionId', $1::text, 'candidateId', $1::text || '-' || x."candidateId", 'importId', NULL)`)})).* FROM "EvalRun" x WHERE "decisionId" = '${source}' AND status = 'DONE'`,
      [id],
    );
    await c.query(
      `INSERT INTO "LeaderboardScore" SELECT (jsonb_populate_record(NULL::"LeaderboardScore", ${patch(`jsonb_build_object('id', $1::text || '-' || x.id, 'decisionId', $1::text, 'candidateId', $1::text || '-' || x."candidateId", 'importId', NULL)`)})).* FROM "LeaderboardScore" x WHERE "decisionId" = '${source}' AND "candidateId" IS NOT NULL`,
      [id],
    );
    await c.query(
      `INSERT INTO "SuiteResemblance" SELECT (jsonb_populate_record(NULL::"SuiteResemblance", ${patch(`jsonb_build_object('id', $1::text || '-' || x.id, 'decisionId', $1::text)`)})).* FROM "SuiteResemblance" x WHERE "decisionId" = '${source}'`,
      [id],
    );
    await c.query(
      `INSERT INTO "ServingBenchmark" SELECT (jsonb_populate_record(NULL::"ServingBenchmark", ${patch(`jsonb_build_object('id', $1::text || '-' || x.id, 'decisionId', $1::text, 'candidateId', $1::text || '-' || x."candidateId", 'importId', NULL)`)})).* FROM "ServingBenchmark" x WHERE "decisionId" = '${source}'`,
      [id],
    );
    await c.query("COMMIT");
  }, from.databaseUrl);
}

/** Copies the demo runs' predictions onto a clone's runs, so its metrics can be recomputed. */
export function cloneDemoPredictions(id: string) {
  return withClient((c) =>
    c.query(
      `INSERT INTO "Prediction" ("evalRunId", "itemId", score, predicted, "parseFailure", "rawOutput", "latencyMs", "inputTokens", "outputTokens")
       SELECT nr.id, p."itemId", p.score, p.predicted, p."parseFailure", p."rawOutput", p."latencyMs", p."inputTokens", p."outputTokens"
         FROM "Prediction" p
         JOIN "EvalRun" orr ON orr.id = p."evalRunId" AND orr."decisionId" = 'demo-moderation' AND orr.status = 'DONE'
         JOIN "EvalRun" nr ON nr."decisionId" = $1 AND nr."candidateId" = $1 || '-' || orr."candidateId"`,
      [id],
    ),
  );
}

/** A change of evidence after signing, as a new leaderboard import by the analyst would make it. */
export function importLeaderboardScore(decisionId: string, candidateName: string) {
  return withClient(async (c) => {
    const analyst = await c.query<{ id: string }>(`SELECT id FROM "User" WHERE email = 'analyst@verdict.demo'`);
    const candidate = await c.query<{ id: string }>(
      `SELECT id FROM "Candidate" WHERE "decisionId" = $1 AND name = $2`,
      [decisionId, candidateName],
    );
    const importId = `${decisionId}-late-import`;
    await c.query(
      `INSERT INTO "Import" (id, "decisionId", kind, format, "fileName", sha256, "sizeBytes", status, "rowCount", "importedById") VALUES ($1, $2, 'LEADERBOARD', 'generic-csv', 'late-board.csv', $3, 120, 'SUCCEEDED', 1, $4)`,
      [importId, decisionId, "d".repeat(64), analyst.rows[0]!.id],
    );
    await c.query(
      `INSERT INTO "LeaderboardScore" (id, "decisionId", "candidateId", "modelName", stage, suite, metric, value, source, "retrievedAt", "importId") VALUES ($1, $2, $3, $5, 'LEADERBOARD', 'LateBench', 'accuracy', 0.61, 'late-board.csv', now(), $4)`,
      [`${decisionId}-late-score`, decisionId, candidate.rows[0]!.id, importId, candidateName],
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
    return {
      status: r.status,
      comments: Number(r.comments),
      signatures: Number(r.signatures),
      revisions: Number(r.revisions),
    };
  });
}

/**
 * Changes one audit row behind the database's back (trigger disabled, as a superuser could) and
 * returns a function that puts the original content back. The caller must restore it: the
 * e2e database is shared by the specs of one run.
 */
export function tamperWithAuditRow(decisionId: string, action: string) {
  return withClient(async (c) => {
    const { rows } = await c.query<{ id: string; after: unknown }>(
      `SELECT id::text, "after" FROM "AuditEvent" WHERE "decisionId" = $1 AND action = $2 ORDER BY id LIMIT 1`,
      [decisionId, action],
    );
    const row = rows[0]!;
    await c.query(`BEGIN; ALTER TABLE "AuditEvent" DISABLE TRIGGER "AuditEvent_append_only"`);
    await c.query(`UPDATE "AuditEvent" SET "after" = jsonb_set("after", '{status}', '"APPROVED"') WHERE id = $1`, [
      row.id,
    ]);
    await c.query(`ALTER TABLE "AuditEvent" ENABLE TRIGGER "AuditEvent_append_only"; COMMIT`);
    const restore = () =>
      withClient(async (r) => {
        await r.query(`BEGIN; ALTER TABLE "AuditEvent" DISABLE TRIGGER "AuditEvent_append_only"`);
        await r.query(`UPDATE "AuditEvent" SET "after" = $2::jsonb WHERE id = $1`, [row.id, JSON.stringify(row.after)]);
        await r.query(`ALTER TABLE "AuditEvent" ENABLE TRIGGER "AuditEvent_append_only"; COMMIT`);
      });
    return { id: row.id, restore };
  });
}

/** UPDATE and DELETE of an audit row in SQL, as any connected user would try them. */
export function tryToEditAudit(decisionId: string) {
  return withClient(async (c) => {
    const attempt = async (sql: string) => {
      try {
        await c.query(sql, [decisionId]);
        return "accepted";
      } catch (error) {
        return (error as Error).message;
      }
    };
    return {
      update: await attempt(`UPDATE "AuditEvent" SET action = 'tampered' WHERE "decisionId" = $1`),
      delete: await attempt(`DELETE FROM "AuditEvent" WHERE "decisionId" = $1`),
    };
  });
}
