import "server-only";
import {
  measuresItl,
  prCurvesChart,
  reliabilityChart,
  servingLatencyChart,
  throughputChart,
} from "@/lib/pack/charts/stage-charts";
import type { SeriesStyle } from "@/lib/pack/charts/palette";
import {
  stressCostChart,
  stressPrChart,
  stressPrecisionVsPrevalenceChart,
  type StressCandidate,
} from "@/lib/pack/charts/stress-charts";
import { OPERATING_RULE_LABELS } from "@/lib/decisions/operating-rule";
import { runFigures } from "@/lib/pack/operating-figures";
import { operatingAt, stressMarker, whatIfPack } from "@/lib/pack/what-if-pack";
import { bootstrapCoverageLabel, type BootstrapInterval } from "@/lib/metrics/coverage";
import { checkSlos, costPer1kRequests, rowAtSloConcurrency } from "@/lib/pack/serving";
import { STAGES, type Stage, type StageKey } from "@/lib/pack/stages";
import {
  formatInterval,
  formatMoney,
  formatNumber,
  formatPercent,
  formatScore,
  formatThreshold,
  formatThresholdInterval,
  formatAsOf,
} from "@/lib/format";
import { stageSources } from "./pdf-record";
import { scoreRef } from "./record";
import type { PackExport } from "./export-model";
import type { Writer } from "./pdf-writer";

/** What every section of the PDF draws from: the writer, the pack, and its candidates' names and colours. */
export interface PdfContext {
  w: Writer;
  pack: PackExport;
  name: (candidateId: string) => string;
  styles: Map<string, SeriesStyle>;
}

/** The decision's task parameters and the candidates with their shortlist rationale. */
export function parametersSection({ w, pack }: PdfContext): void {
  const data = pack.evidence;
  const d = data.decision;
  const pct = formatPercent(d.prevalence);
  w.heading("Task parameters");
  w.table(
    ["Parameter", "Value"],
    [
      ["Positive class", d.positiveClass],
      ["Deployment prevalence π", pct],
      ["Costs", `C_FN = ${d.costFn} ${d.currency}, C_FP = ${d.costFp} ${d.currency}`],
      ["Recall floor at π", String(d.recallFloor)],
      ["Precision floor at π", d.precisionFloor === null ? "none" : String(d.precisionFloor)],
      ["Operating-point rule", OPERATING_RULE_LABELS[d.operatingRule ?? "FIXED"]],
      ["Operating threshold", formatThreshold(d.operatingThreshold)],
      [
        "SLOs",
        `p95 E2E ≤ ${d.sloP95E2eMs ?? "—"} ms; p95 TTFT ≤ ${d.sloP95TtftMs ?? "—"} ms; ≥ ${d.sloMinThroughputRps ?? "—"} req/s at concurrency ${d.sloThroughputConcurrency ?? "—"}; ≤ ${formatMoney(d.sloMaxCostPer1kRequests, d.currency)} per 1,000 requests`,
      ],
      ["Quorum", String(d.quorum)],
    ],
    [140, w.width - 140],
  );
  w.heading("Candidates and their shortlist rationale");
  for (const c of data.candidates)
    w.text(
      `${c.name} (${c.provider}${c.version ? `, ${c.version}` : ""}): ${c.shortlistRationale || "no rationale written"}`,
      { gap: 4 },
    );
}

/** Stages 1–2: leaderboard and preference scores, shortlisting only, with each suite's resemblance to the task. */
function shortlistStage({ w, pack, name }: PdfContext, stage: Stage): void {
  const data = pack.evidence;
  w.text("SHORTLISTING ONLY: this stage can justify a shortlist, never the verdict.", { bold: true });
  const ofStage = data.scores.filter((s) => s.stage === (stage.key === "leaderboard" ? "LEADERBOARD" : "PREFERENCE"));
  if (ofStage.length === 0) {
    w.text("No evidence imported for this stage.");
    return;
  }
  const opened = pack.provenance.decisionOpenedAt;
  const suiteNote = (suite: string) => data.resemblances.find((r) => r.suite === suite)?.relevanceNote ?? "";
  w.table(
    ["Candidate", "Suite / metric", "Score", "Interval", "Source (ref), as of", "Relevance note"],
    ofStage.map((s) => [
      name(s.candidateId),
      `${s.suite} / ${s.metric}`,
      formatScore(s).value,
      formatScore(s).uncertainty,
      // The date the source states, apart from the import date (which Provenance gives).
      `${s.source} (${scoreRef(pack.provenance, s)}), ${formatAsOf(s.asOf, opened)}`,
      [suiteNote(s.suite), s.relevanceNote].filter(Boolean).join("\n") || "—",
    ]),
    [70, 80, 40, 60, 120, w.width - 370],
  );
  const word = { MATCH: "match", PARTIAL: "partial", MISMATCH: "mismatch" } as const;
  for (const r of stageResemblances(data, stage))
    w.text(
      `Does ${r.suite} resemble this task? Task: ${word[r.task]}${r.taskNote ? ` (${r.taskNote})` : ""}; distribution: ${word[r.distribution]}${r.distributionNote ? ` (${r.distributionNote})` : ""}; prompt and scoring: ${word[r.promptScoring]}${r.promptScoringNote ? ` (${r.promptScoringNote})` : ""}.`,
    );
}

/**
 * The resemblance answers a shortlisting stage prints: those for its own suites, and on stage 1
 * the answers for a suite with no score in either stage, so each answer is printed once.
 */
function stageResemblances(data: PackExport["evidence"], stage: Stage) {
  const suites = (kind: "LEADERBOARD" | "PREFERENCE") =>
    new Set(data.scores.filter((s) => s.stage === kind).map((s) => s.suite));
  const leaderboard = suites("LEADERBOARD");
  const preference = suites("PREFERENCE");
  return data.resemblances.filter((r) =>
    stage.key === "preference"
      ? preference.has(r.suite) && !leaderboard.has(r.suite)
      : leaderboard.has(r.suite) || !preference.has(r.suite),
  );
}

/** Stage 3: the task accuracy table, PR curves and reliability. */
/** " (≈ 89 % coverage at this many positives)" where the bootstrap's measured coverage is not 95 % (issue 27). */
function coverageNote(
  r: {
    atThreshold: { tp: number; fp: number; tn: number; fn: number };
    intervals?: Partial<Record<BootstrapInterval, unknown>>;
  },
  interval: BootstrapInterval,
): string {
  if (!r.intervals?.[interval]) return "";
  const a = r.atThreshold;
  const label = bootstrapCoverageLabel(interval, a.tp + a.fn, a.fp + a.tn);
  return label ? ` (${label})` : "";
}

function taskAccuracyStage({ w, pack, styles }: PdfContext): void {
  const data = pack.evidence;
  const ds = data.runs.find((r) => r.dataset)?.dataset;
  if (ds) w.text(`Dataset ${ds.name}, version ${ds.version}: ${ds.itemCount} items, ${ds.positiveCount} positives.`);
  w.table(
    [
      "Candidate",
      "AP [95%]",
      "ROC-AUC [95%]",
      "t",
      "Precision",
      "Recall",
      "F1",
      "Brier",
      "Parse failures",
      "TP/FP/TN/FN",
    ],
    data.candidates.map((c) => {
      const run = data.runs.find((r) => r.candidateId === c.id);
      const r = run?.metrics?.report;
      if (!run || !r) return [c.name, "no run", "", "", "", "", "", "", "", ""];
      const a = r.atThreshold;
      return [
        c.name,
        `${formatNumber(r.averagePrecision)} ${formatInterval(r.intervals?.averagePrecision)}${coverageNote(r, "averagePrecision")}`,
        `${formatNumber(r.rocAuc)} ${formatInterval(r.intervals?.rocAuc)}${coverageNote(r, "rocAuc")}`,
        formatThreshold(a.threshold),
        formatNumber(a.precision),
        formatNumber(a.recall),
        formatNumber(a.f1),
        formatNumber(r.brier),
        formatPercent(run.parseFailureCount / Math.max(1, run.itemCount)),
        `${a.tp}/${a.fp}/${a.tn}/${a.fn}`,
      ];
    }),
    [78, 66, 66, 20, 45, 34, 28, 30, 40, w.width - 407],
  );
  w.chart(prCurvesChart(data.candidates, data.runs, styles, "pr", 0));
  w.chart(reliabilityChart(data.candidates, data.runs, styles));
}

/** Stage 4: the decision's prevalence and costs — recall against the floor, operating points, stress charts, slices. */
function classBalanceStage({ w, pack, name, styles }: PdfContext): void {
  const data = pack.evidence;
  const d = data.decision;
  // The charts mark each candidate where stage 4's table reads it (held out under a choosing rule).
  const whatIf = whatIfPack(data);
  const stress: StressCandidate[] = data.candidates.map((c) => {
    const m = data.runs.find((r) => r.candidateId === c.id)?.metrics ?? null;
    const run = whatIf.runs.find((r) => r.candidateId === c.id);
    const op = run && operatingAt(run, whatIf, { threshold: null, prevalence: d.prevalence });
    return {
      ...(op ? { operating: stressMarker(op) } : {}),
      candidate: c,
      style: styles.get(c.id)!,
      roc: m?.curves.roc ?? null,
      pr: m?.curves.pr ?? null,
      positives: m?.positives ?? 0,
      negatives: m?.negatives ?? 0,
      threshold: m?.parameters.threshold ?? d.operatingThreshold,
    };
  });
  const settings = {
    threshold: null,
    prevalence: d.prevalence,
    costFn: d.costFn,
    costFp: d.costFp,
    currency: d.currency,
  };
  w.table(
    [
      "Candidate",
      "Recall [95%]",
      `Floor ${d.recallFloor}`,
      "Precision at π",
      "Expected cost / 1,000",
      "Cost-optimal t",
    ],
    data.candidates.map((c) => {
      const m = data.runs.find((r) => r.candidateId === c.id)?.metrics;
      if (!m) return [c.name, "no run", "", "", "", ""];
      const f = runFigures(m); // held out under an operating-point rule
      const recall = f.report.atThreshold.recall;
      return [
        c.name,
        `${formatNumber(recall)} ${formatInterval(f.recallInterval)}`,
        recall !== null && recall >= d.recallFloor ? "✓ met" : "✗ missed",
        formatNumber(f.report.reweighted?.precision),
        formatMoney(f.report.reweighted?.expectedCostPer1k, d.currency, 1),
        m.costOptimum
          ? `${formatThreshold(m.costOptimum.threshold)} (${formatMoney(m.costOptimum.expectedCostPer1k, d.currency, 1)})`
          : "—",
      ];
    }),
  );
  operatingPointsTable(w, pack, d.currency);
  w.chart(stressPrChart(stress, settings));
  w.chart(stressCostChart(stress, settings));
  w.chart(stressPrecisionVsPrevalenceChart(stress, settings));
  const slices = [...new Set(data.runs.flatMap((r) => r.metrics?.slices?.map((s) => s.slice) ?? []))].sort();
  if (slices.length) {
    w.text("Recall per slice of positives [Wilson 95%] (! = too few positives for a defensible recall)", {
      bold: true,
    });
    w.table(
      ["Slice", ...data.candidates.map((c) => c.name)],
      slices.map((s) => [
        s,
        ...data.candidates.map((c) => {
          const x = data.runs.find((r) => r.candidateId === c.id)?.metrics?.slices?.find((y) => y.slice === s);
          return x ? `${x.tooFewPositives ? "! " : ""}${formatNumber(x.recall)} ${formatInterval(x.interval)}` : "—";
        }),
      ]),
    );
  }
  for (const r of data.runs)
    for (const warning of r.metrics?.warnings ?? [])
      w.text(`Warning (${name(r.candidateId)}): ${warning}`, { colour: "#8a5a00" });
}

/** Stage 5: SLOs at the stated concurrency, serving cost, latency and throughput charts. */
function operationalStage({ w, pack, styles }: PdfContext): void {
  const data = pack.evidence;
  const d = data.decision;
  w.table(
    ["Candidate", "SLOs at the stated concurrency", "Cost / 1,000 requests", "Highest concurrency meeting every SLO"],
    data.candidates.map((c) => {
      const rows = data.serving.filter((s) => s.candidateId === c.id);
      const row = rowAtSloConcurrency(d, rows);
      const head = pack.results.sloHeadroom.find((h) => h.candidateId === c.id);
      return [
        c.name,
        row
          ? checkSlos(d, c, row)
              .map((k) => `${k.pass ? "✓" : "✗"} ${k.label}`)
              .join("; ")
          : "no row at the SLO concurrency",
        row ? formatMoney(costPer1kRequests(c, row), d.currency, 3) : "—",
        head?.concurrency ? String(head.concurrency) : "none",
      ];
    }),
    [80, 220, 80, w.width - 380],
  );
  w.chart(servingLatencyChart(data.candidates, data.serving, styles, "ttftMs", "p95", d.sloP95TtftMs));
  w.chart(servingLatencyChart(data.candidates, data.serving, styles, "e2eMs", "p95", d.sloP95E2eMs));
  w.chart(servingLatencyChart(data.candidates, data.serving, styles, "tpotMs", "p95", null));
  if (measuresItl(data.serving))
    w.chart(servingLatencyChart(data.candidates, data.serving, styles, "itlMs", "p95", null));
  w.chart(throughputChart(data.candidates, data.serving, styles, d.sloMinThroughputRps, d.sloThroughputConcurrency));
}

const STAGE_SECTIONS: Record<StageKey, (context: PdfContext, stage: Stage) => void> = {
  leaderboard: shortlistStage,
  preference: shortlistStage,
  "task-accuracy": taskAccuracyStage,
  "class-balance": classBalanceStage,
  operational: operationalStage,
};

/** One page (or more) per stage: what it answers, its evidence class, then its own section. */
export function stagePages(context: PdfContext): void {
  const { w } = context;
  for (const stage of STAGES) {
    w.newPage();
    w.heading(`Stage ${stage.number} · ${stage.name}`, 15);
    w.text(`Question answered: ${stage.question}`);
    w.text(`Evidence class: ${stage.evidenceClass}. Owns the verdict? ${stage.ownsVerdict}.`, { gap: 8 });
    STAGE_SECTIONS[stage.key](context, stage);
    stageSources(context, stage.key);
  }
}

/** Each candidate's operating point (issue 14): threshold, rule, in-sample beside held-out figures. */
function operatingPointsTable(w: Writer, pack: PackExport, currency: string): void {
  const rows = pack.operatingPoints;
  w.text(
    `Operating points — rule: ${rows[0]?.ruleLabel ?? "fixed threshold"}${rows[0]?.rule === "FIXED" ? "" : " (chosen on one half of the items, reported on the other, pooled; held-out figures are judged)"}`,
    { bold: true },
  );
  if (!rows[0] || rows[0].rule === "FIXED") return;
  const cost = (x: number | undefined) => formatMoney(x, currency, 1);
  w.table(
    [
      "Candidate",
      "Threshold [95%]",
      "How chosen",
      "Recall in-sample / held out",
      "Precision at π in-sample / held out",
      "Cost / 1,000 in-sample / held out",
    ],
    rows.map((r) => [
      r.name,
      `${formatThreshold(r.threshold)} ${formatThresholdInterval(r.thresholdInterval)}${r.thresholdInterval && r.thresholdIntervalCoverage && r.thresholdIntervalCoverage !== "95 %" ? ` (${r.thresholdIntervalCoverage})` : ""}`,
      `${r.how}${r.shortfall?.recall != null ? `; misses the recall floor by ${formatNumber(r.shortfall.recall)}` : ""}${r.shortfall?.precision != null ? `; misses the precision floor by ${formatNumber(r.shortfall.precision)}` : ""}`,
      `${formatNumber(r.inSample?.recall)} / ${formatNumber(r.heldOut?.recall)} ${formatInterval(r.heldOut?.recallInterval)}`,
      `${formatNumber(r.inSample?.precision)} / ${formatNumber(r.heldOut?.precision)}`,
      `${cost(r.inSample?.expectedCostPer1k)} / ${cost(r.heldOut?.expectedCostPer1k)}`,
    ]),
    [70, 62, 150, 80, 70, w.width - 432],
  );
}
