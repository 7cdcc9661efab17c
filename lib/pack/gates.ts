import { SHOWN_TEXT, type FigureText } from "@/lib/format";
import type { RunFigures } from "./pack-data";
import { checkSlos, rowAtSloConcurrency, type Pricing, type ServingRow, type SloCheck, type Slos } from "./serving";

/**
 * The gate table of SPEC §3, per candidate, from stored evidence only (pure): evidence present
 * in stages 3–5, the recall floor at π (recall does not change with π) and whether its 95%
 * interval's lower bound meets it, the precision floor at π, and each SLO at the SLO's stated
 * concurrency. Missing evidence fails a gate — it never passes one. Shared by the evidence pack
 * (page, exports) and the pack revision (lib/server/signoff).
 */
export interface GateTask extends Slos {
  recallFloor: number;
  precisionFloor: number | null;
  prevalence: number;
  currency?: string;
}

export interface Gate {
  key: string;
  label: string;
  /** The SPEC §3 stage the gate belongs to. */
  stage: 3 | 4 | 5;
  /** null: not measurable — counts as failed. */
  pass: boolean | null;
  detail: string;
}

export function candidateGates(
  task: GateTask,
  pricing: Pricing,
  run: RunFigures | null,
  rows: readonly ServingRow[],
  text: FigureText = SHOWN_TEXT,
): Gate[] {
  const currency = task.currency ?? "";
  const gates: Gate[] = [];
  gates.push({
    key: "stage3-evidence",
    label: "Task accuracy evidence (stage 3)",
    stage: 3,
    pass: run !== null,
    detail: run ? `${run.report.n.toLocaleString("en-US")} items` : "no computed eval run",
  });
  const reweighted = run?.report.reweighted ?? null;
  gates.push({
    key: "stage4-evidence",
    label: "Class-balance evidence (stage 4)",
    stage: 4,
    pass: reweighted !== null,
    detail: reweighted ? `re-weighted to π = ${task.prevalence}` : "no figures at π",
  });
  const recall = run?.report.atThreshold.recall ?? null;
  const lower = run?.recallInterval?.[0] ?? null;
  gates.push({
    key: "recall-floor",
    label: `Recall ≥ ${task.recallFloor} at π`,
    stage: 4,
    pass: recall === null || recall === undefined ? false : recall >= task.recallFloor,
    detail:
      recall === null || recall === undefined
        ? "recall undefined"
        : `recall ${text.number(recall)}, 95% lower bound ${text.number(lower)}${lower !== null && lower < task.recallFloor && recall >= task.recallFloor ? " (below the floor)" : ""}${basisNote(run, recall, task.recallFloor, text)}`,
  });
  if (task.precisionFloor !== null) {
    const precision = reweighted?.precision ?? null;
    gates.push({
      key: "precision-floor",
      label: `Precision ≥ ${task.precisionFloor} at π`,
      stage: 4,
      pass: precision === null ? false : precision >= task.precisionFloor,
      detail: `precision at π ${text.number(precision)}${basisNote(run, precision, task.precisionFloor, text)}`,
    });
  }
  const row = rowAtSloConcurrency(task, rows);
  gates.push({
    key: "stage5-evidence",
    label: "Serving evidence (stage 5)",
    stage: 5,
    pass: row !== null,
    detail: row
      ? `measured at concurrency ${row.concurrency ?? "—"}`
      : rows.length
        ? `no load level at concurrency ${task.sloThroughputConcurrency}`
        : "no serving benchmark",
  });
  if (row) {
    for (const check of checkSlos(task, pricing, row)) {
      gates.push({
        key: `slo-${check.key}`,
        label: sloLabel(check, currency, text),
        stage: 5,
        pass: check.pass,
        detail: `measured ${sloValue(check, currency, text)} at concurrency ${row.concurrency ?? "—"}`,
      });
    }
  }
  return gates;
}

/**
 * Under an operating-point rule (issue 14) a floor gate says what its figure was measured on and,
 * when it fails, by how much it misses; under FIXED the detail is unchanged (frozen packs keep their bytes).
 */
function basisNote(run: RunFigures | null, value: number | null, floor: number, text: FigureText): string {
  if (!run?.basis) return "";
  const miss = value === null ? "" : value < floor ? `; misses the floor by ${text.number(floor - value)}` : "";
  return ` (${run.basis})${miss}`;
}

export function failedGates(gates: readonly Gate[]): Gate[] {
  return gates.filter((g) => g.pass !== true);
}

function sloLabel(check: SloCheck, currency: string, text: FigureText): string {
  if (check.key === "throughput") return `Throughput ≥ ${check.target} req/s`;
  if (check.key === "cost") return `Cost ≤ ${text.money(check.target, currency)} per 1,000 requests`;
  return `${check.label} ≤ ${check.target} ms`;
}

function sloValue(check: SloCheck, currency: string, text: FigureText): string {
  if (check.actual === null) return "—";
  if (check.key === "throughput") return `${text.number(check.actual, 1)} req/s`;
  if (check.key === "cost") return text.money(check.actual, currency, 3);
  return text.ms(check.actual);
}
