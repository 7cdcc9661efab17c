import { z } from "zod";

/**
 * Shared shapes of the pure import layer: every format parser turns file text into these records,
 * or into a failure that names where each problem is. No I/O here; the caller reads files and
 * enforces size limits.
 */

/** Stage of the benchmark-to-eval handoff a leaderboard number belongs to (SPEC §3). */
export const leaderboardStages = ["LEADERBOARD", "PREFERENCE"] as const;
export type LeaderboardStage = (typeof leaderboardStages)[number];

const finite = z.number().refine(Number.isFinite, "must be a finite number");
const nonNegative = finite.refine((v) => v >= 0, "must not be negative");

export const leaderboardRecordSchema = z
  .object({
    model: z.string().trim().min(1),
    suite: z.string().trim().min(1),
    metric: z.string().trim().min(1),
    /** Fractions in [0,1] for accuracy-like metrics; Elo/BT points for arena ratings; native units otherwise. */
    value: finite,
    stderr: nonNegative.optional(),
    ciLow: finite.optional(),
    ciHigh: finite.optional(),
    votes: nonNegative.optional(),
    higherIsBetter: z.boolean(),
    stage: z.enum(leaderboardStages),
    source: z.string().trim().min(1),
    /**
     * The source's own date for its numbers ("as of"), ISO 8601: only when the file itself (or its
     * published file name) says when they were produced or published — never the import date.
     */
    asOf: z.iso.datetime({ offset: true }).optional(),
  })
  .refine((r) => r.ciLow === undefined || r.ciHigh === undefined || r.ciLow <= r.ciHigh, {
    message: "ciLow must not exceed ciHigh",
    path: ["ciLow"],
  });
export type LeaderboardRecord = z.infer<typeof leaderboardRecordSchema>;

/** Latency distribution summary; every figure in milliseconds. */
export const pctSchema = z.object({
  mean: nonNegative.optional(),
  p50: nonNegative.optional(),
  p90: nonNegative.optional(),
  p95: nonNegative.optional(),
  p99: nonNegative.optional(),
});
export type Pct = z.infer<typeof pctSchema>;

export const servingRecordSchema = z.object({
  model: z.string().trim().min(1),
  tool: z.string().trim().min(1),
  toolVersion: z.string().optional(),
  concurrency: nonNegative.optional(),
  /** Requests per second the load generator aimed at; absent for "inf" (all requests sent at once). */
  requestRate: nonNegative.optional(),
  /** Undefined only when the tool does not report it (GenAI-Perf 2024 exports have no request count). */
  completed: nonNegative.optional(),
  failed: nonNegative.optional(),
  durationS: nonNegative.optional(),
  meanInputTokens: nonNegative.optional(),
  meanOutputTokens: nonNegative.optional(),
  /** Requests per second. */
  requestThroughput: nonNegative,
  /** Tokens per second. */
  outputTokenThroughput: nonNegative.optional(),
  totalTokenThroughput: nonNegative.optional(),
  /** Requests per second that met every SLO, when the tool measured it. */
  goodput: nonNegative.optional(),
  ttftMs: pctSchema,
  /** Verdict's TPOT (SPEC §5): (e2e − ttft) / (output tokens − 1), first token excluded. */
  tpotMs: pctSchema,
  /** Pooled gaps between streamed chunks (vLLM's ITL); not the same figure as TPOT. */
  itlMs: pctSchema.optional(),
  e2eMs: pctSchema,
  /** One sentence: how the source tool defined the figure stored as TPOT, and whether it was recomputed. */
  tpotSource: z.string().min(1),
});
export type ServingRecord = z.infer<typeof servingRecordSchema>;

/** One problem, located by CSV line (1-based physical line, header = 1) or JSON record path. */
export type ParseIssue = {
  line?: number;
  record?: string;
  field: string;
  value?: string;
  reason: string;
};

export type ParseSuccess<R> = {
  ok: true;
  format: string;
  producerVersion?: string;
  records: R[];
  warnings: string[];
};

export type ParseFailure = {
  ok: false;
  format?: string;
  /** The first MAX_REPORTED_ERRORS problems, in file order. */
  errors: ParseIssue[];
  /** All problems found, including those not kept in `errors`. */
  errorCount: number;
};

export type ParseResult<R> = ParseSuccess<R> | ParseFailure;

/** Extra inputs some formats need because the file alone does not carry them. */
export type ParseOptions = {
  /** Model name for files that do not name it (GenAI-Perf CSV, LLMPerf individual responses, HELM stats.json). */
  model?: string;
  /** HELM stats.json: the run spec name (run directory name) or the text of run_spec.json / scenario_state.json. */
  runSpec?: string;
  /** LLMPerf summary: the text of the matching `_individual_responses.json`, to recompute percentiles. */
  individualResponses?: string;
  /** The uploaded file's name: the Arena and HELM publish their tables' date only there (leaderboard_table_20240705.csv). */
  fileName?: string;
};

/** 0 = not this format; 1 = certainly this format. */
export type Confidence = number;

export type FormatParser<R> = {
  id: string;
  label: string;
  detect: (content: string) => Confidence;
  parse: (content: string, options?: ParseOptions) => ParseResult<R>;
};
