import { formatInterval, formatMoney, formatMs, formatNumber, formatThreshold, formatThroughput } from "@/lib/format";
import type { StoredRunMetrics } from "./run-input";
import { basisName, runFigures } from "./operating-figures";
import { scoreTables } from "./score-tables";
import { checkSlos, costPer1kRequests, rowAtSloConcurrency, type Pricing, type ServingRow, type Slos } from "./serving";
import type { StageKey } from "./stages";
import type { ScoreBasis } from "@/lib/ingest/formats/item-results/types";
import { rankingUndefinedReason } from "./run-provenance";

/**
 * One headline figure per stage and candidate for the decision page's stage table, from stored
 * evidence only. Pure: the page passes in what lib/server read.
 */
export interface Headline {
  text: string;
  detail?: string;
  tone?: "pass" | "fail" | "warn";
}

export interface PackInput extends Slos {
  currency: string;
  recallFloor: number;
  precisionFloor: number | null;
  prevalence: number;
  candidates: Array<Pricing & { id: string; name: string }>;
  scores: Array<{
    candidateId: string;
    stage: "LEADERBOARD" | "PREFERENCE";
    suite: string;
    metric: string;
    value: number;
    ciLow: number | null;
    ciHigh: number | null;
    higherIsBetter: boolean;
  }>;
  runs: Array<{ candidateId: string; metrics: StoredRunMetrics | null; scoreBasis?: ScoreBasis | null }>;
  serving: Array<ServingRow & { candidateId: string }>;
}

export type StageHeadlines = Record<StageKey, Map<string, Headline | null>>;

function scoreStage(pack: PackInput, stage: "LEADERBOARD" | "PREFERENCE"): Map<string, Headline | null> {
  // The stage's headline table: the suite and metric most candidates have a score on.
  const table = scoreTables(pack.scores, stage)[0];
  return new Map(
    pack.candidates.map((c) => {
      const s = table?.scores.get(c.id);
      if (!table || !s) return [c.id, null];
      const digits = Math.abs(s.value) >= 100 ? 0 : 3;
      const ci = s.ciLow !== null && s.ciHigh !== null ? ` ${formatInterval([s.ciLow, s.ciHigh], digits)}` : "";
      return [
        c.id,
        {
          text: `${table.suite} ${formatNumber(s.value, digits)}${ci}`,
          detail: `#${table.ranking.get(c.id)} of ${table.scores.size} candidates · ${s.metric}`,
        },
      ];
    }),
  );
}

export function stageHeadlines(pack: PackInput): StageHeadlines {
  const runFor = new Map(pack.runs.map((r) => [r.candidateId, r.metrics]));
  const basisFor = new Map(pack.runs.map((r) => [r.candidateId, r.scoreBasis ?? null]));
  const taskAccuracy = new Map<string, Headline | null>();
  const classBalance = new Map<string, Headline | null>();
  const operational = new Map<string, Headline | null>();
  for (const c of pack.candidates) {
    const m = runFor.get(c.id) ?? null;
    if (!m) {
      taskAccuracy.set(c.id, null);
      classBalance.set(c.id, null);
    } else {
      const r = m.report;
      const recall = r.atThreshold.recall;
      // A hard-label run ranks nothing: its AP is undefined, never a figure of its 0/1 scores.
      const apUndefined = rankingUndefinedReason({ scoreBasis: basisFor.get(c.id), metrics: m }) !== null;
      taskAccuracy.set(c.id, {
        text: apUndefined
          ? "AP undefined (hard labels only)"
          : `AP ${formatNumber(r.averagePrecision)} ${formatInterval(r.intervals?.averagePrecision)}`,
        detail: `precision ${formatNumber(r.atThreshold.precision)} · recall ${formatNumber(recall)} at t = ${formatThreshold(r.atThreshold.threshold)}`,
      });
      // Stage 4 is judged as the gates judge it: held-out figures where the rule chose the threshold.
      const judged = runFigures(m);
      const judgedRecall = judged.report.atThreshold.recall;
      const floorMet = judgedRecall !== null && judgedRecall >= pack.recallFloor;
      const lowerMet = judged.recallInterval !== null && judged.recallInterval[0] >= pack.recallFloor;
      classBalance.set(c.id, {
        text: `recall ${formatNumber(judgedRecall)} vs floor ${pack.recallFloor}${floorMet && !lowerMet ? " (interval reaches below)" : ""}`,
        detail: `precision ${formatNumber(judged.report.reweighted?.precision)} at π = ${pack.prevalence} · expected cost ${formatMoney(judged.report.reweighted?.expectedCostPer1k, pack.currency, 1)} per 1,000 items${judged.basis ? ` (${basisName(judged.basis)})` : ""}`,
        tone: !floorMet ? "fail" : lowerMet ? "pass" : "warn",
      });
    }
    const rows = pack.serving.filter((r) => r.candidateId === c.id);
    const row = rowAtSloConcurrency(pack, rows);
    const unplaced = rows.find((r) => r.concurrency === null);
    if (!row && unplaced) {
      // A serving file was imported but states no concurrency (vLLM's request_rate: inf without
      // max_concurrency): measured, so not "No evidence", but not at the SLO's concurrency either.
      operational.set(c.id, {
        text: "measured, concurrency unknown",
        detail: `p95 E2E ${formatMs(unplaced.e2eMs.p95)} · ${formatThroughput(unplaced.requestThroughput)} · not measured at the SLO's concurrency`,
        tone: "warn",
      });
    } else if (!row) {
      operational.set(c.id, null);
    } else {
      const checks = checkSlos(pack, c, row);
      const failed = checks.filter((k) => !k.pass);
      operational.set(c.id, {
        text: `p95 E2E ${formatMs(row.e2eMs.p95)} at concurrency ${row.concurrency ?? "—"}`,
        detail: `${formatThroughput(row.requestThroughput)} · ${formatMoney(costPer1kRequests(c, row), pack.currency, 3)} per 1,000 requests · ${failed.length === 0 ? "meets every SLO" : `fails ${failed.map((k) => k.label).join(", ")}`}`,
        tone: failed.length === 0 ? "pass" : "fail",
      });
    }
  }
  return {
    leaderboard: scoreStage(pack, "LEADERBOARD"),
    preference: scoreStage(pack, "PREFERENCE"),
    "task-accuracy": taskAccuracy,
    "class-balance": classBalance,
    operational,
  };
}
