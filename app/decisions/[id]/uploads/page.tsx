import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { can } from "@/lib/auth/permissions";
import { requirePagePermission } from "@/lib/server/session";
import { getUploadsOverview } from "@/lib/server/imports/uploads-page";
import { AppError } from "@/lib/server/errors";
import { UploadPanel, type UploadContext } from "@/components/uploads/upload-panel";
import { formatBytes } from "@/components/uploads/format";
import { formatUtc } from "@/lib/format";
import { frozenReason } from "@/lib/decisions/editable";
import { datasetVersionLabel } from "@/lib/decisions/labels";
import { TableScroll } from "@/components/ui/table-scroll";

export const metadata: Metadata = { title: "Evidence uploads" };

export default async function EvidencePage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const actor = await requirePagePermission("decision.read", `/decisions/${id}/uploads`);
  let overview;
  try {
    overview = await getUploadsOverview(actor, id);
  } catch (error) {
    if (error instanceof AppError && error.code === "NOT_FOUND") notFound();
    throw error;
  }
  const context: UploadContext = {
    decisionId: overview.id,
    positiveClass: overview.positiveClass,
    candidates: overview.candidates,
    datasetVersions: overview.datasets.flatMap((d) =>
      d.versions.map((v) => ({
        id: v.id,
        label: `${datasetVersionLabel(d.name, v)}${v.id === overview.evaluationDatasetVersionId ? " — the evaluation version" : ""}`,
      })),
    ),
  };
  const frozen = frozenReason(overview);
  const mayImport = can(actor, "evidence.import") && !frozen;
  const evaluation = overview.datasets.flatMap((d) =>
    d.versions.filter((v) => v.id === overview.evaluationDatasetVersionId).map((v) => datasetVersionLabel(d.name, v)),
  )[0];
  return (
    <>
      <p>
        <Link href={`/decisions/${overview.id}`}>← {overview.title}</Link>
      </p>
      <h1>Evidence uploads</h1>
      <p className="muted">
        Every file is validated row by row: a file with any problem is rejected whole and nothing changes. The original
        bytes (or, above 10 MB, their SHA-256 and size) are kept with who imported them and when; uploading the same
        bytes again changes nothing.
      </p>
      {frozen && <p className="message-error">{frozen}</p>}
      <p>
        {evaluation ? (
          <>
            The pack is evaluated on <strong>{evaluation}</strong>; runs on other versions are listed apart and never
            compared with it.
          </>
        ) : (
          "No dataset yet: the first dataset uploaded becomes the version the pack is evaluated on."
        )}
        {can(actor, "decision.edit") && evaluation && (
          <>
            {" "}
            <Link href={`/decisions/${overview.id}/edit#dataset-heading`}>Choose another version</Link>
          </>
        )}
      </p>
      {mayImport && (
        <>
          <UploadPanel
            kind="dataset"
            context={context}
            title="Labelled dataset"
            help={
              <p>
                CSV, JSON Lines or Parquet with an item id (<code>id</code>), a gold label (<code>label</code>: 0/1,
                true/false or class names) and optional <code>text</code> and <code>slice</code> columns. Each upload is
                a new version.
              </p>
            }
          />
          <UploadPanel
            kind="predictions"
            context={context}
            title="A candidate’s predictions"
            help={
              <p>
                CSV or JSON Lines keyed by <code>id</code> with a <code>score</code> and/or a <code>predicted</code>{" "}
                label; optional <code>raw_output</code>, <code>latency_ms</code>, <code>input_tokens</code>,{" "}
                <code>output_tokens</code>. Duplicate ids and ids not in the dataset reject the file; dataset items
                without a prediction are counted as errors.
              </p>
            }
          />
          <UploadPanel
            kind="leaderboard"
            context={context}
            title="Leaderboard scores"
            help={
              <p>
                Generic CSV (model, suite, metric, value), lm-evaluation-harness results JSON, HELM run stats and group
                tables, Open LLM Leaderboard CSV, Chatbot Arena CSVs — recognised from the content.
              </p>
            }
          />
          <UploadPanel
            kind="serving"
            context={context}
            title="Serving benchmark"
            help={
              <p>
                vLLM bench serve JSON, GuideLLM report, LLMPerf summary, GenAI-Perf export JSON or CSV, generic CSV.
                Times are stored in ms; TPOT is decode time per output token, first token excluded.
              </p>
            }
          />
        </>
      )}
      <section className="card" aria-labelledby="runs">
        <h2 id="runs">Eval runs</h2>
        <TableScroll label="Eval runs">
          <table>
            <caption>{overview.evalRuns.length} run(s), newest first</caption>
            <thead>
              <tr>
                <th scope="col">Run</th>
                <th scope="col">Candidate</th>
                <th scope="col">Dataset</th>
                <th scope="col">Status</th>
                <th scope="col">Items</th>
                <th scope="col">Missing</th>
              </tr>
            </thead>
            <tbody>
              {overview.evalRuns.map((r) => (
                <tr key={r.id}>
                  <td>#{r.id}</td>
                  <td>{r.candidate.name}</td>
                  <td>
                    {r.datasetVersion.dataset.name} v{r.datasetVersion.version}
                    {r.datasetVersion.id !== overview.evaluationDatasetVersionId && (
                      <span className="muted"> (another version: not in the pack)</span>
                    )}
                  </td>
                  <td>
                    {r.status.toLowerCase()}
                    {r.status === "RUNNING" && ` (${Math.round(r.progress * 100)}%)`}
                  </td>
                  <td className="figure">{r.itemCount.toLocaleString("en-US")}</td>
                  <td className="figure">{r.missingCount.toLocaleString("en-US")}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      </section>
      <section className="card" aria-labelledby="imports">
        <h2 id="imports">Imports</h2>
        <TableScroll label="Imports">
          <table>
            <caption>The last {overview.imports.length} import(s)</caption>
            <thead>
              <tr>
                <th scope="col">When (UTC)</th>
                <th scope="col">Kind</th>
                <th scope="col">File</th>
                <th scope="col">Format</th>
                <th scope="col">Rows</th>
                <th scope="col">Size</th>
                <th scope="col">SHA-256</th>
                <th scope="col">By</th>
              </tr>
            </thead>
            <tbody>
              {overview.imports.map((i) => (
                <tr key={i.id}>
                  <td>{formatUtc(i.createdAt)}</td>
                  <td>{i.kind.toLowerCase()}</td>
                  <td>{i.fileName}</td>
                  <td>
                    {i.format}
                    {i.producerVersion && <span className="muted"> {i.producerVersion}</span>}
                  </td>
                  <td className="figure">{i.rowCount.toLocaleString("en-US")}</td>
                  <td className="figure">{formatBytes(i.sizeBytes)}</td>
                  <td>
                    <code title={i.sha256}>{i.sha256.slice(0, 12)}…</code>
                  </td>
                  <td>{i.importedBy.name}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      </section>
    </>
  );
}
