import { chatbotArenaCsv } from "./chatbot-arena-csv";
import { genericLeaderboardCsv } from "./generic-leaderboard-csv";
import { helmGroupTable } from "./helm-group-table";
import { helmRunStats } from "./helm-run-stats";
import { fileFailure } from "./issues";
import { clearJsonMemo, parseJson } from "./json";
import { lmEvalHarness } from "./lm-eval-harness";
import { openLlmLeaderboardV1 } from "./open-llm-leaderboard-v1";
import { openLlmLeaderboardV2 } from "./open-llm-leaderboard-v2";
import { vllmBenchServe } from "./vllm-bench-serve";
import { guidellm } from "./guidellm";
import { llmperf } from "./llmperf";
import { genaiPerfJson } from "./genai-perf-json";
import { genaiPerfCsv } from "./genai-perf-csv";
import { genericServingCsv } from "./generic-serving-csv";
import type { FormatParser, LeaderboardRecord, ParseOptions, ParseResult, ServingRecord } from "./types";

export type * from "./types";

/** Detection order matters only for ties; each detector looks at content, never the file name. */
export const leaderboardFormats: readonly FormatParser<LeaderboardRecord>[] = [
  lmEvalHarness,
  helmRunStats,
  helmGroupTable,
  openLlmLeaderboardV2,
  openLlmLeaderboardV1,
  chatbotArenaCsv,
  genericLeaderboardCsv,
];

export const servingFormats: readonly FormatParser<ServingRecord>[] = [
  vllmBenchServe,
  guidellm,
  llmperf,
  genaiPerfJson,
  genaiPerfCsv,
  genericServingCsv,
];

export type Detection = { format: string; label: string; confidence: number };

function detect<R>(formats: readonly FormatParser<R>[], content: string): Detection | undefined {
  let best: Detection | undefined;
  try {
    for (const f of formats) {
      const confidence = f.detect(content);
      if (confidence > 0 && (!best || confidence > best.confidence))
        best = { format: f.id, label: f.label, confidence };
    }
  } finally {
    clearJsonMemo();
  }
  return best;
}

export function detectLeaderboardFormat(content: string): Detection | undefined {
  return detect(leaderboardFormats, content);
}

export function detectServingFormat(content: string): Detection | undefined {
  return detect(servingFormats, content);
}

/** Invalid UTF-8 reaches us as U+FFFD when the caller decoded leniently: reject, never guess. */
function replacementCharLine(content: string): number | undefined {
  const at = content.indexOf("\uFFFD");
  return at < 0 ? undefined : content.slice(0, at).split("\n").length;
}

function run<R>(
  kind: string,
  formats: readonly FormatParser<R>[],
  content: string,
  options: ParseOptions & { format?: string },
): ParseResult<R> {
  const supported = formats.map((f) => `${f.id} (${f.label})`).join("; ");
  const badLine = replacementCharLine(content);
  if (badLine !== undefined) {
    return fileFailure(options.format, {
      line: badLine,
      field: "(file)",
      reason: "not valid UTF-8 (replacement character found)",
    });
  }
  if (content.replace(/^\uFEFF/, "").trim() === "") {
    return fileFailure(options.format, { line: 1, field: "(file)", reason: "empty file" });
  }
  const chosen = options.format ? formats.find((f) => f.id === options.format) : undefined;
  if (options.format && !chosen) {
    return fileFailure(options.format, {
      field: "format",
      value: options.format,
      reason: `unknown ${kind} format; supported: ${supported}`,
    });
  }
  const detected = chosen ?? formats.find((f) => f.id === detect(formats, content)?.format);
  if (!detected) {
    // A JSON report cut short cannot be recognised: say so, with its line, rather than "unrecognised".
    if (/^\uFEFF?\s*[[{]/.test(content)) {
      const json = parseJson(content);
      if (!json.ok && json.issue.reason.startsWith("truncated JSON")) return fileFailure(undefined, json.issue);
    }
    return fileFailure(undefined, {
      field: "(file)",
      reason: `unrecognised ${kind} file; supported formats: ${supported}`,
    });
  }
  return detected.parse(content, options);
}

export function parseLeaderboard(
  content: string,
  options: ParseOptions & { format?: string } = {},
): ParseResult<LeaderboardRecord> {
  return run("leaderboard", leaderboardFormats, content, options);
}

export function parseServing(
  content: string,
  options: ParseOptions & { format?: string } = {},
): ParseResult<ServingRecord> {
  return run("serving benchmark", servingFormats, content, options);
}
