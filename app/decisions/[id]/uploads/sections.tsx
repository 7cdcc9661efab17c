import type { getUploadsOverview } from "@/lib/server/imports/uploads-page";
import { UploadPanel, type UploadContext } from "@/components/uploads/upload-panel";
import { formatBytes } from "@/components/uploads/format";
import { formatUtc } from "@/lib/format";
import { TableScroll } from "@/components/ui/table-scroll";
import { ToolResultsPanel } from "@/components/uploads/tool-results-panel";

type UploadsOverview = Awaited<ReturnType<typeof getUploadsOverview>>;

/** One upload panel per kind of evidence file, each with what the file may hold. */
export function UploadPanels({ context }: { context: UploadContext }) {
  return (
    <>
      <UploadPanel
        kind="dataset"
        context={context}
        title="Labelled dataset"
        help={
          <p>
            CSV (comma, semicolon or tab), JSON Lines or Parquet with an item id (<code>id</code>), a gold label (
            <code>label</code>: 0/1, true/false or class names) and optional <code>text</code> and <code>slice</code>{" "}
            columns. Each upload is a new version.
          </p>
        }
      />
      <UploadPanel
        kind="predictions"
        context={context}
        title="A candidate’s predictions"
        help={
          <p>
            CSV (comma, semicolon or tab) or JSON Lines keyed by <code>id</code> with a <code>score</code> and/or a{" "}
            <code>predicted</code> label; optional <code>raw_output</code>, <code>latency_ms</code>,{" "}
            <code>input_tokens</code>, <code>output_tokens</code>. Duplicate ids and ids not in the dataset reject the
            file; dataset items without a prediction are counted as errors.
          </p>
        }
      />
      <ToolResultsPanel context={context} />
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
            vLLM bench serve JSON, GuideLLM report, LLMPerf summary, GenAI-Perf export JSON or CSV, generic CSV. Times
            are stored in ms; TPOT is decode time per output token, first token excluded.
          </p>
        }
      />
    </>
  );
}

/** The decision's eval runs, newest first; a run on another dataset version is marked as outside the pack. */
export function EvalRunsSection({ overview }: { overview: UploadsOverview }) {
  return (
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
  );
}

/** The last imports: what was imported, from which file, by whom. */
export function ImportsSection({ overview }: { overview: UploadsOverview }) {
  return (
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
  );
}
