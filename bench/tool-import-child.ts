/**
 * One timed import in its own process (run by bench/tool-import.ts with --conditions=react-server),
 * through the server code path an upload takes; the run is left PENDING (its metrics are the
 * engine's, benchmarked apart). Prints JSON: seconds, rows, RSS before and peak.
 * argv: csv  decisionId candidateId datasetVersionId userId file            (Verdict's own schema)
 *       tool decisionId candidateId datasetVersionId userId file mappingJson (another tool's file)
 */
import { database } from "../lib/server/db.ts";
import { importPredictions } from "../lib/server/imports/index.ts";
import { importItemResults } from "../lib/server/imports/item-results/index.ts";
import type { ItemResultMapping } from "../lib/ingest/formats/item-results/provenance.ts";
import type { UploadFile } from "../lib/server/imports/files.ts";

const [mode, decisionId, candidateId, versionId, userId, file, mappingJson] = process.argv.slice(2) as string[];
const actor = { id: userId!, email: "bench@verdict.test", name: "Bench", roles: ["ANALYST" as const] };
const target = { candidateId: candidateId!, datasetVersionId: Number(versionId) };

function upload(upload: UploadFile) {
  if (mode === "csv")
    return importPredictions(actor, decisionId!, candidateId!, Number(versionId), upload, { compute: "none" });
  const mapping = JSON.parse(mappingJson!) as ItemResultMapping;
  return importItemResults(actor, decisionId!, target, [upload], mapping, { compute: "none" });
}

async function main() {
  const db = await database();
  // Warm-up: the same code path on a tiny file that is refused, so every module and the query
  // compiler are loaded before the baseline is taken.
  const tiny = mode === "csv" ? "id,score\nwarm-up-unknown-id,0.5\n" : "{}\n";
  await upload({
    name: mode === "csv" ? "w.csv" : "w.jsonl",
    stream: (async function* () {
      yield Buffer.from(tiny);
    })(),
  }).catch(() => {});
  globalThis.gc?.();
  const baselineRss = process.memoryUsage().rss;
  const t0 = performance.now();
  const r = await upload({ name: file!.split("/").pop()!, path: file! });
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage();
  process.stdout.write(
    JSON.stringify({
      seconds,
      rows: r.rowCount,
      cpuSeconds: (cpu.user + cpu.system) / 1e6,
      baselineRss,
      maxRss: process.resourceUsage().maxRSS * 1024,
    }) + "\n",
  );
  await db.close();
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
