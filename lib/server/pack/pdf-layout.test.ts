import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { formatNumber, formatThreshold } from "@/lib/format";
import { packResults } from "@/lib/pack/pack-results";
import { database } from "../db";
import { seedDemo } from "../seed/demo-seed";
import { exportPackJson } from "./export";
import type { PackExport } from "./export-model";
import { renderPackPdf } from "./pdf";
import { numericWords } from "./pdf-writer";
import { makeActor } from "@/test/factories";

/** One word of the PDF as `pdftotext -bbox` places it. */
interface Word {
  page: number;
  xMin: number;
  xMax: number;
  yMin: number;
  text: string;
}

describe("the PDF's layout", () => {
  let demo: PackExport;
  beforeAll(async () => {
    vi.stubEnv("VERDICT_DEMO", "1");
    await seedDemo(await database(), () => {});
    vi.unstubAllEnvs();
    demo = await exportPackJson(await makeActor(["REVIEWER"]), "demo-moderation");
  }, 120_000);

  it("never breaks a number inside its table cell (words and their positions read back with pdftotext -bbox)", async () => {
    const pack = structuredClone(demo);
    // A harness run's threshold at full precision, in stage 3's narrowest column.
    pack.evidence.runs[0]!.metrics!.report.atThreshold.threshold = 0.05903958599083124;
    pack.results = packResults(pack.evidence);
    const words = await pdfWords(await renderPackPdf(pack));
    const texts = new Set(words.map((w) => w.text.replace(/[,;]$/, "")));
    const stage3 = words.filter((w) => w.page === pageOf(words, "Stage 3 ·"));
    for (const run of pack.evidence.runs) {
      const report = run.metrics!.report;
      const a = report.atThreshold;
      // Each figure of the stage 3 row is one word: none is wrapped over two lines.
      for (const figure of [
        formatThreshold(a.threshold),
        formatNumber(report.averagePrecision),
        formatNumber(a.precision),
        formatNumber(a.recall),
        `${a.tp}/${a.fp}/${a.tn}/${a.fn}`,
      ])
        expect(stage3.map((w) => w.text)).toContain(figure);
    }
    for (const op of pack.operatingPoints) expect(texts).toContain(formatThreshold(op.threshold));
    // And across the whole PDF no line of a table cell starts with the rest of a number cut on the
    // line above: a word that starts its line is not directly below a number that ends its line.
    const onLine = (a: Word, b: Word) => a.page === b.page && Math.abs(a.yMin - b.yMin) < 0.5;
    const endsLine = (a: Word) => !words.some((c) => onLine(a, c) && c.xMin > a.xMax && c.xMin - a.xMax < 4);
    const startsLine = (b: Word) => !words.some((c) => onLine(b, c) && c.xMax < b.xMin && b.xMin - c.xMax < 4);
    const split = words.filter(
      (b) =>
        /^\d/.test(b.text) &&
        startsLine(b) &&
        words.some(
          (a) =>
            a.page === b.page &&
            Math.abs(a.xMin - b.xMin) < 0.5 &&
            b.yMin - a.yMin > 8 &&
            b.yMin - a.yMin < 10.5 &&
            /^\d[\d.]*$/.test(a.text) &&
            endsLine(a),
        ),
    );
    expect(split.map((w) => w.text)).toEqual([]);
  });

  it("prints each stage's resemblance answers once, under that stage; an empty stage says so once", async () => {
    const text = flat(await pdfText(await renderPackPdf(demo)));
    const between = (from: string, to: string) => text.slice(text.indexOf(from), text.indexOf(to));
    const stage1 = between("Stage 1 ·", "Stage 2 ·");
    const stage2 = between("Stage 2 ·", "Stage 3 ·");
    const suitesOf = (kind: string) =>
      new Set(demo.evidence.scores.filter((s) => s.stage === kind).map((s) => s.suite));
    for (const r of demo.evidence.resemblances) {
      const question = `Does ${r.suite} resemble this task?`;
      expect(text.split(question).length - 1).toBe(1);
      expect(suitesOf("PREFERENCE").has(r.suite) && !suitesOf("LEADERBOARD").has(r.suite) ? stage2 : stage1).toContain(
        question,
      );
    }

    const noPreference = structuredClone(demo);
    noPreference.evidence.scores = noPreference.evidence.scores.filter((s) => s.stage !== "PREFERENCE");
    noPreference.results = packResults(noPreference.evidence);
    const empty = flat(await pdfText(await renderPackPdf(noPreference)));
    const emptyStage2 = empty.slice(empty.indexOf("Stage 2 ·"), empty.indexOf("Stage 3 ·"));
    expect(emptyStage2.split("No evidence imported for this stage.").length - 1).toBe(1);
    expect(emptyStage2).not.toContain("resemble this task");
    expect(emptyStage2).not.toContain("Suite / metric");
  });

  it("gives Kendall's τ as a table of pairs that agree and disagree, with what τ means", async () => {
    const text = flat(await pdfText(await renderPackPdf(demo)));
    expect(text).toContain("Shortlisting ranking Verdict ranking Pairs that agree Pairs that disagree τ");
    expect(text).toContain("+1 is the same order, −1 the reverse, 0 no relation");
    // Not the paragraph of pairs it replaces ("HELM Lite vs AP at 2% prevalence = -0.33; …").
    expect(text).not.toMatch(/ vs AP at \d+% prevalence = /);
  });

  it("draws a candidate measured at one concurrency as a point with its figure, and ITL where measured", async () => {
    // The JSON export carries ITL beside TTFT and TPOT (empty where the tool reports none).
    for (const row of demo.evidence.serving) expect(row).toHaveProperty("itlMs");
    const pack = structuredClone(demo);
    const lone = pack.evidence.candidates[0]!.id;
    const kept = pack.evidence.serving.find((r) => r.candidateId === lone && r.concurrency === 32)!;
    kept.requestThroughput = 42.7;
    pack.evidence.serving = pack.evidence.serving.filter((r) => r.candidateId !== lone || r === kept);
    for (const row of pack.evidence.serving) row.itlMs = { p95: 21.5 };
    pack.results = packResults(pack.evidence);
    const text = flat(await pdfText(await renderPackPdf(pack)));
    const stage5 = text.slice(text.indexOf("Stage 5 ·"), text.indexOf("Across stages"));
    expect(stage5).toContain("Request throughput vs concurrency");
    expect(stage5).toContain("42.7");
    expect(stage5).toContain("p95 ITL (inter-token latency) vs concurrency");
    // Without ITL in any serving file, no empty ITL chart.
    const without = flat(await pdfText(await renderPackPdf(demo)));
    expect(without).not.toContain("ITL (inter-token latency) vs concurrency");
  });

  it("reads a cell's numbers as the words a table keeps whole", () => {
    expect(numericWords("0.533 [0.495, 0.572]")).toEqual(["0.533", "[0.495,", "0.572]"]);
    expect(numericWords("506/1741/17665/88 #1 2.0% Atlas-70B 243.1 USD")).toEqual([
      "506/1741/17665/88",
      "#1",
      "2.0%",
      "243.1",
    ]);
  });
});

const flat = (text: string) => text.replace(/\s+/g, " ").trim();

/** The number (from 1) of the first page whose words include `heading`'s first word and its second. */
function pageOf(words: Word[], heading: string): number {
  const [first, second] = heading.split(" ");
  const at = words.findIndex((w, i) => w.text === first && words[i + 1]?.text === second);
  return words[at]!.page;
}

async function withPdf<T>(bytes: Uint8Array, read: (file: string) => T): Promise<T> {
  const dir = mkdtempSync(path.join(tmpdir(), "verdict-pdf-layout-"));
  try {
    const file = path.join(dir, "pack.pdf");
    writeFileSync(file, bytes);
    return read(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const pdfText = (bytes: Uint8Array) =>
  withPdf(bytes, (file) => execFileSync("pdftotext", ["-enc", "UTF-8", file, "-"], { encoding: "utf8" }));

/** Every word with its page and box: `pdftotext -bbox` writes one <word> element per word. */
const pdfWords = (bytes: Uint8Array) =>
  withPdf(bytes, (file) => {
    const html = execFileSync("pdftotext", ["-bbox", "-enc", "UTF-8", file, "-"], { encoding: "utf8" });
    const words: Word[] = [];
    html.split("<page ").forEach((page, i) => {
      for (const m of page.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)"[^>]*>([^<]*)<\/word>/g))
        words.push({ page: i, xMin: Number(m[1]), yMin: Number(m[2]), xMax: Number(m[3]), text: unescape(m[4]!) });
    });
    return words;
  });

const unescape = (html: string) =>
  html
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&");
