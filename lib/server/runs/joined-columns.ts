import "server-only";
import { StringDecoder } from "node:string_decoder";
import type { JoinedColumns } from "@/lib/pack/run-input";
import type { RawTx } from "../raw-tx";
import { runTable } from "./partitions";

/**
 * Every item of a dataset version joined to a run's predictions — the rows of JOINED_ITEMS_SQL,
 * in the same item-id order — read as columns from a COPY … TO STDOUT stream: a byte or a double
 * per item, no row object, so the upload can hand its run's metrics their input (issue 12 §2)
 * in the transaction that stores the predictions. The same pass counts the items that have a
 * prediction (the upload's join check: every other prediction is for an unknown id) and keeps
 * the first missing ids.
 */
export interface JoinedRead {
  columns: JoinedColumns;
  /** Items with a prediction. */
  matched: number;
  /** The first `examples` items without one, in item-id order. */
  missingExamples: string[];
}

const joinedItemsCopySql = (runId: number, datasetVersionId: number) => {
  if (!Number.isSafeInteger(runId) || !Number.isSafeInteger(datasetVersionId))
    throw new Error("joined items: integer ids expected");
  return `SELECT di.label, p.score, p.predicted, COALESCE(p."parseFailure", false), (p."itemId" IS NULL), di.slice,
                 CASE WHEN p."itemId" IS NULL THEN di."itemId" END
            FROM "DatasetItem" di
            LEFT JOIN ${runTable(runId)} p ON p."itemId" = di."itemId"
           WHERE di."datasetVersionId" = ${datasetVersionId}
           ORDER BY di."itemId"`;
};

/** PostgreSQL's COPY text format: \N is null; backslash escapes within a field. */
function unescape(field: string): string | null {
  if (field === "\\N") return null;
  if (field.indexOf("\\") < 0) return field;
  return field.replace(/\\(.)/g, (_, c: string) => ({ b: "\b", f: "\f", n: "\n", r: "\r", t: "\t", v: "\v" })[c] ?? c);
}

class Growing {
  n = 0;
  constructor(
    public cap: number,
    public label = new Uint8Array(cap),
    public score = new Float64Array(cap),
    public predicted = new Int8Array(cap),
    public parseFailure = new Uint8Array(cap),
    public missing = new Uint8Array(cap),
    public slices: (string | null)[] | null = null,
  ) {}
  grow() {
    const cap = Math.max(1024, this.cap * 2);
    const copy = <T extends Uint8Array | Float64Array | Int8Array>(a: T, make: (n: number) => T) => {
      const b = make(cap);
      b.set(a as never);
      return b;
    };
    this.label = copy(this.label, (k) => new Uint8Array(k));
    this.score = copy(this.score, (k) => new Float64Array(k));
    this.predicted = copy(this.predicted, (k) => new Int8Array(k));
    this.parseFailure = copy(this.parseFailure, (k) => new Uint8Array(k));
    this.missing = copy(this.missing, (k) => new Uint8Array(k));
    this.cap = cap;
  }
}

export async function readJoinedColumns(
  tx: RawTx,
  runId: number,
  datasetVersionId: number,
  expectedItems: number,
  examples = 20,
): Promise<JoinedRead> {
  const g = new Growing(Math.max(0, expectedItems));
  const missingExamples: string[] = [];
  let matched = 0;
  const line = (text: string, start: number, end: number) => {
    // label \t score \t predicted \t parseFailure \t missing \t slice \t missingId
    const t1 = text.indexOf("\t", start);
    const t2 = text.indexOf("\t", t1 + 1);
    const t3 = text.indexOf("\t", t2 + 1);
    const t4 = text.indexOf("\t", t3 + 1);
    const t5 = text.indexOf("\t", t4 + 1);
    const t6 = text.indexOf("\t", t5 + 1);
    if (t1 < 0 || t6 < 0 || t6 > end) throw new Error("joined items: unexpected COPY row");
    if (g.n === g.cap) g.grow();
    const i = g.n++;
    g.label[i] = text.charCodeAt(start) === 116 /* t */ ? 1 : 0;
    g.score[i] = t2 === t1 + 3 && text.charCodeAt(t1 + 1) === 92 /* \N */ ? NaN : Number(text.slice(t1 + 1, t2));
    const p = text.charCodeAt(t2 + 1);
    g.predicted[i] = p === 116 ? 1 : p === 102 ? 0 : -1;
    g.parseFailure[i] = text.charCodeAt(t3 + 1) === 116 ? 1 : 0;
    const isMissing = text.charCodeAt(t4 + 1) === 116;
    g.missing[i] = isMissing ? 1 : 0;
    if (!isMissing) matched++;
    else if (missingExamples.length < examples) missingExamples.push(unescape(text.slice(t6 + 1, end)) ?? "");
    if (!(t6 === t5 + 3 && text.charCodeAt(t5 + 1) === 92 && text.charCodeAt(t5 + 2) === 78)) {
      g.slices ??= new Array<string | null>(g.cap).fill(null);
      g.slices[i] = unescape(text.slice(t5 + 1, t6));
    }
  };
  const decoder = new StringDecoder("utf8");
  let rest = "";
  for await (const chunk of tx.copyOut(joinedItemsCopySql(runId, datasetVersionId))) {
    const text = rest + decoder.write(chunk);
    let start = 0;
    for (let nl = text.indexOf("\n"); nl >= 0; nl = text.indexOf("\n", start)) {
      line(text, start, nl);
      start = nl + 1;
    }
    rest = text.slice(start);
  }
  rest += decoder.end();
  if (rest !== "") line(rest, 0, rest.length);
  const n = g.n;
  const slices = g.slices ? (g.slices.length === n ? g.slices : g.slices.slice(0, n)) : null;
  if (slices) for (let i = 0; i < n; i++) slices[i] ??= null;
  return {
    columns: {
      length: n,
      label: g.label.subarray(0, n),
      score: g.score.subarray(0, n),
      predicted: g.predicted.subarray(0, n),
      parseFailure: g.parseFailure.subarray(0, n),
      missing: g.missing.subarray(0, n),
      slices,
    },
    matched,
    missingExamples,
  };
}
