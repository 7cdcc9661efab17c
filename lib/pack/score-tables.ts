import { rankBy, type Ranking } from "./ranks";

/**
 * Stages 1–2 read one way everywhere (the stage sections, the stage table, the rank comparison,
 * the verdict's "leaderboard leader"): one table per suite AND metric, one score per candidate —
 * the newest import's — ranked among the candidates that have it ("#2 of 3 candidates").
 */
export interface ScoreRow {
  candidateId: string;
  stage: "LEADERBOARD" | "PREFERENCE";
  suite: string;
  metric: string;
  value: number;
  higherIsBetter: boolean;
}

export interface ScoreTable<S extends ScoreRow> {
  stage: "LEADERBOARD" | "PREFERENCE";
  suite: string;
  metric: string;
  /** "MMLU", or "MMLU · acc" when the suite reports several metrics. */
  label: string;
  higherIsBetter: boolean;
  /** Candidate id → its score (the last row given wins: rows come oldest first). */
  scores: Map<string, S>;
  ranking: Ranking;
}

/**
 * The tables of one stage, those most candidates have first (then by suite and metric), so the
 * first table is the stage's headline and its #1 is "the leaderboard leader".
 */
export function scoreTables<S extends ScoreRow>(
  rows: readonly S[],
  stage: "LEADERBOARD" | "PREFERENCE",
): ScoreTable<S>[] {
  const tables = new Map<string, ScoreTable<S>>();
  for (const row of rows) {
    if (row.stage !== stage) continue;
    const key = JSON.stringify([row.suite, row.metric]);
    const table = tables.get(key) ?? {
      stage,
      suite: row.suite,
      metric: row.metric,
      label: row.suite,
      higherIsBetter: row.higherIsBetter,
      scores: new Map<string, S>(),
      ranking: new Map(),
    };
    table.scores.set(row.candidateId, row);
    tables.set(key, table);
  }
  const list = [...tables.values()];
  const metricsPerSuite = new Map<string, number>();
  for (const t of list) metricsPerSuite.set(t.suite, (metricsPerSuite.get(t.suite) ?? 0) + 1);
  for (const t of list) {
    t.higherIsBetter = [...t.scores.values()][0]?.higherIsBetter ?? true;
    t.ranking = rankBy(new Map([...t.scores].map(([id, s]) => [id, s.value])), t.higherIsBetter);
    if ((metricsPerSuite.get(t.suite) ?? 0) > 1) t.label = `${t.suite} · ${t.metric}`;
  }
  return list.sort(
    (a, b) => b.scores.size - a.scores.size || a.suite.localeCompare(b.suite) || a.metric.localeCompare(b.metric),
  );
}
