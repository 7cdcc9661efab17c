import "server-only";
import { formatAsOf } from "@/lib/format";
import type { PrismaClient } from "@/lib/generated/prisma/client";
import { scoreBasisText } from "@/lib/ingest/formats/item-results/provenance";
import type { RunProvenance } from "@/lib/ingest/formats/item-results/provenance";
import type { ScoreBasis } from "@/lib/ingest/formats/item-results/types";
import type { PackRun, PackScore } from "@/lib/pack/pack-data";
import { PACK_IMPORT } from "../decisions/fields";
import type { Tx } from "../db";

/**
 * The record a committee files (issue 25): where every figure's evidence came from and when — one
 * source per imported file (S1, S2… in import order) or per Verdict harness run (H1…), each naming
 * the evidence it holds — and the age of each leaderboard row. Read with the pack's read model
 * (export-model.ts), so the PDF and the JSON export state the same sources; the file facts
 * themselves (name, SHA-256, importer, time) are the `Import` rows the frozen revision already
 * holds (PACK_IMPORT), so a signature covers them.
 */
type Client = PrismaClient | Tx;

/** One piece of evidence a source holds, as a stage's table references it. */
export interface SourceUse {
  stage: 1 | 2 | 3 | 5 | "dataset";
  candidateId: string | null;
  /** What it is: "MMLU · acc", "eval run #4", "serving at concurrency 16", "holdout v1". */
  what: string;
  /** Leaderboard rows: the date the source states, with its age ("source date not stated" when none). */
  asOf?: string;
}

export interface ProvenanceSource {
  /** The short id each stage's table cites: S1, S2… for files, H1, H2… for harness runs. */
  ref: string;
  /** "file" (an import) or "harness" (Verdict called the candidate's endpoint itself). */
  kind: "file" | "harness";
  /** The file's name, or "Verdict harness run #N". */
  name: string;
  sha256: string | null;
  sizeBytes: number | null;
  format: string | null;
  producerVersion: string | null;
  importedBy: string | null;
  importedAt: string | null;
  /** A run imported from another eval tool: the tool, its version, the model as the tool named it, the task, the score basis. */
  tool: {
    tool: string;
    toolVersion: string | null;
    model: string | null;
    task: string | null;
    scoreBasis: string | null;
  } | null;
  /** A harness run: the protocol's SHA-256, the endpoint (never its key) and the load it ran at. */
  harness: { runId: number; protocolSha256: string; endpoint: string; concurrency: number } | null;
  uses: SourceUse[];
}

export interface PackProvenance {
  /** When the decision was opened: the reference of every leaderboard row's age. */
  decisionOpenedAt: string;
  sources: ProvenanceSource[];
}

const key = (...parts: unknown[]) => JSON.stringify(parts);

/** Leaderboard rows as the read model keeps them (the newest import per candidate, stage, suite, metric). */
async function scoreUses(client: Client, decisionId: string) {
  const rows = await client.leaderboardScore.findMany({
    where: { decisionId, candidateId: { not: null } },
    orderBy: [{ stage: "asc" }, { suite: "asc" }, { createdAt: "asc" }, { id: "asc" }],
    select: { candidateId: true, stage: true, suite: true, metric: true, asOf: true, importId: true },
  });
  const newest = new Map<string, (typeof rows)[number]>();
  for (const r of rows) newest.set(key(r.candidateId, r.stage, r.suite, r.metric), r);
  return [...newest.values()];
}

async function runFacts(client: Client, runIds: number[]) {
  return client.evalRun.findMany({
    where: { id: { in: runIds } },
    orderBy: { id: "asc" },
    select: {
      id: true,
      candidateId: true,
      importId: true,
      scoreBasis: true,
      toolRun: true,
      datasetVersion: { select: { id: true, version: true, importId: true, dataset: { select: { name: true } } } },
      harnessRun: { select: { id: true, protocolSha256: true, endpoint: true, concurrency: true } },
    },
  });
}

async function servingFacts(client: Client, decisionId: string) {
  return client.servingBenchmark.findMany({
    where: { decisionId },
    orderBy: [{ candidateId: "asc" }, { concurrency: "asc" }, { id: "asc" }],
    select: {
      candidateId: true,
      concurrency: true,
      tool: true,
      importId: true,
      harnessRun: { select: { id: true, protocolSha256: true, endpoint: true, concurrency: true } },
    },
  });
}

type HarnessFacts = { id: number; protocolSha256: string; endpoint: unknown; concurrency: number };

function endpointText(endpoint: unknown): string {
  const e = (endpoint ?? {}) as { baseUrl?: string; model?: string; simulated?: boolean };
  return [e.model, e.baseUrl && `at ${e.baseUrl}`, e.simulated ? "(Verdict's simulated endpoint)" : ""]
    .filter(Boolean)
    .join(" ");
}

function toolOf(scoreBasis: string | null, toolRun: unknown): ProvenanceSource["tool"] {
  const run = toolRun as Partial<RunProvenance> | null;
  if (!run?.tool) return null;
  const basis = scoreBasis ?? run.scoreBasis ?? null;
  return {
    tool: run.tool,
    toolVersion: run.toolVersion ?? null,
    model: run.model ?? null,
    task: run.task ?? null,
    scoreBasis: basis ? scoreBasisText(basis as ScoreBasis) : null,
  };
}

/** Collects the uses per file (by import id) and per harness run, in one place. */
class Collector {
  readonly files = new Map<string, { uses: SourceUse[]; tool: ProvenanceSource["tool"] }>();
  readonly harness = new Map<number, { facts: HarnessFacts; uses: SourceUse[] }>();

  add(importId: string | null, harness: HarnessFacts | null, use: SourceUse, tool: ProvenanceSource["tool"] = null) {
    if (harness) {
      const h = this.harness.get(harness.id) ?? { facts: harness, uses: [] };
      h.uses.push(use);
      this.harness.set(harness.id, h);
    } else if (importId) {
      const f = this.files.get(importId) ?? { uses: [], tool: null };
      f.uses.push(use);
      f.tool ??= tool;
      this.files.set(importId, f);
    }
  }
}

async function collectUses(
  client: Client,
  decisionId: string,
  runs: readonly PackRun[],
  openedAt: Date,
  evaluationDatasetVersionId: number | null,
) {
  const c = new Collector();
  for (const s of await scoreUses(client, decisionId)) {
    const stage = s.stage === "LEADERBOARD" ? 1 : 2;
    c.add(s.importId, null, {
      stage,
      candidateId: s.candidateId,
      what: `${s.suite} · ${s.metric}`,
      asOf: formatAsOf(s.asOf, openedAt),
    });
  }
  const datasets = new Set<number>();
  for (const r of await runFacts(
    client,
    runs.map((x) => x.runId),
  )) {
    const v = r.datasetVersion;
    if (!datasets.has(v.id)) {
      datasets.add(v.id);
      c.add(v.importId, null, { stage: "dataset", candidateId: null, what: `${v.dataset.name} v${v.version}` });
    }
    c.add(
      r.importId,
      r.harnessRun,
      { stage: 3, candidateId: r.candidateId, what: `eval run #${r.id}` },
      toolOf(r.scoreBasis, r.toolRun),
    );
  }
  if (evaluationDatasetVersionId !== null && !datasets.has(evaluationDatasetVersionId)) {
    const v = await client.datasetVersion.findUnique({
      where: { id: evaluationDatasetVersionId },
      select: { version: true, importId: true, dataset: { select: { name: true } } },
    });
    if (v) c.add(v.importId, null, { stage: "dataset", candidateId: null, what: `${v.dataset.name} v${v.version}` });
  }
  for (const s of await servingFacts(client, decisionId)) {
    const level = s.concurrency === null ? "concurrency not stated" : `concurrency ${s.concurrency}`;
    c.add(s.importId, s.harnessRun, { stage: 5, candidateId: s.candidateId, what: `${s.tool}, ${level}` });
  }
  return c;
}

/** Every source of the pack's evidence, files first in import order, then harness runs. */
export async function readProvenance(
  client: Client,
  decisionId: string,
  runs: readonly PackRun[],
  evaluationDatasetVersionId: number | null,
): Promise<PackProvenance> {
  const decision = await client.decision.findUniqueOrThrow({ where: { id: decisionId }, select: { createdAt: true } });
  const c = await collectUses(client, decisionId, runs, decision.createdAt, evaluationDatasetVersionId);
  const imports = await client.import.findMany({
    where: { id: { in: [...c.files.keys()] } },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: { ...PACK_IMPORT, importedBy: { select: { name: true } } },
  });
  const files: ProvenanceSource[] = imports.map((i, n) => ({
    ref: `S${n + 1}`,
    kind: "file",
    name: i.fileName,
    sha256: i.sha256,
    sizeBytes: Number(i.sizeBytes),
    format: i.format,
    producerVersion: i.producerVersion,
    importedBy: i.importedBy.name,
    importedAt: i.createdAt.toISOString(),
    tool: c.files.get(i.id)!.tool,
    harness: null,
    uses: c.files.get(i.id)!.uses,
  }));
  const harness: ProvenanceSource[] = [...c.harness.values()]
    .sort((a, b) => a.facts.id - b.facts.id)
    .map(({ facts, uses }, n) => ({
      ref: `H${n + 1}`,
      kind: "harness",
      name: `Verdict harness run #${facts.id}`,
      sha256: null,
      sizeBytes: null,
      format: null,
      producerVersion: null,
      importedBy: null,
      importedAt: null,
      tool: null,
      harness: {
        runId: facts.id,
        protocolSha256: facts.protocolSha256,
        endpoint: endpointText(facts.endpoint),
        concurrency: facts.concurrency,
      },
      uses,
    }));
  return { decisionOpenedAt: decision.createdAt.toISOString(), sources: [...files, ...harness] };
}

/** The refs of the sources holding a stage's evidence for a candidate ("S1, S3"), for its table. */
export function sourceRefs(
  provenance: PackProvenance,
  stage: SourceUse["stage"],
  candidateId: string | null,
  what?: (use: SourceUse) => boolean,
): string {
  const refs = provenance.sources
    .filter((s) =>
      s.uses.some(
        (u) => u.stage === stage && (candidateId === null || u.candidateId === candidateId) && (!what || what(u)),
      ),
    )
    .map((s) => s.ref);
  return refs.length ? refs.join(", ") : "—";
}

/** A leaderboard row's source ref, matched on its suite and metric. */
export const scoreRef = (provenance: PackProvenance, s: PackScore) =>
  sourceRefs(
    provenance,
    s.stage === "LEADERBOARD" ? 1 : 2,
    s.candidateId,
    (u) => u.what === `${s.suite} · ${s.metric}`,
  );
