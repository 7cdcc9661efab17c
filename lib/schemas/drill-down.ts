import { z } from "zod";
import type { JoinedRow } from "@/lib/pack/run-input";

/**
 * The drill-down's query (SPEC §4 cells at a threshold), shared by the page, the JSON API and the
 * CLI. Query strings are text: a number must be written out (blank is not 0), and an unknown
 * parameter is an error of its own, so a misspelt filter never silently lists everything.
 */
export const CELLS = ["FN", "FP", "TP", "TN"] as const;
export type Cell = (typeof CELLS)[number];
export const CELL_FILTERS = ["errors", "all", ...CELLS] as const;
export type CellFilter = (typeof CELL_FILTERS)[number];

/** Listing order of the cells: errors first, false negatives first of all. */
export function cellsOf(filter: CellFilter): Cell[] {
  if (filter === "all") return [...CELLS];
  if (filter === "errors") return ["FN", "FP"];
  return [filter];
}

export const isErrorFilter = (filter: CellFilter) => filter === "errors" || filter === "FN" || filter === "FP";

const numberParam = (label: string) =>
  z
    .string()
    .trim()
    .min(1, `${label} must be a number.`)
    .transform(Number)
    .pipe(z.number({ error: `${label} must be a finite number.` }));

const integerParam = (label: string, min: number, max: number) =>
  numberParam(label).pipe(
    z
      .number()
      .int(`${label} must be a whole number.`)
      .min(min, `${label} must be at least ${min}.`)
      .max(max, `${label} must be at most ${max}.`),
  );

export const MAX_PAGE_SIZE = 500;
export const DEFAULT_PAGE_SIZE = 50;

export const drillQuerySchema = z
  .strictObject({
    cell: z.enum(CELL_FILTERS, { error: `The cell must be one of ${CELL_FILTERS.join(", ")}.` }).optional(),
    threshold: numberParam("The threshold").optional(),
    slice: z.string().min(1, "Name the slice.").max(500).optional(),
    vs: integerParam("The run to compare with (vs)", 1, 2_147_483_647).optional(),
    after: z.string().min(1).max(1000).optional(),
    before: z.string().min(1).max(1000).optional(),
    limit: integerParam("The page size (limit)", 1, MAX_PAGE_SIZE).optional(),
    format: z.enum(["json", "csv"], { error: "The format must be json or csv." }).optional(),
  })
  .refine((q) => !(q.after && q.before), { path: ["before"], message: "Give after or before, not both." });

export type DrillQuery = z.infer<typeof drillQuerySchema>;
/** The query as a URL or a command line carries it (strings), before validation. */
export type DrillQueryInput = Record<string, string | undefined>;

/** The drill-down page of a run with a filter: the links from the pack's cells, slices and operating points. */
export function drillDownHref(
  decisionId: string,
  runId: number,
  filter: {
    cell?: CellFilter;
    threshold?: number;
    slice?: string;
    vs?: number;
    limit?: number;
    after?: string;
    before?: string;
  } = {},
): string {
  const params = new URLSearchParams();
  if (filter.cell) params.set("cell", filter.cell);
  if (filter.threshold !== undefined) params.set("threshold", String(filter.threshold));
  if (filter.slice !== undefined) params.set("slice", filter.slice);
  if (filter.vs !== undefined) params.set("vs", String(filter.vs));
  if (filter.limit !== undefined) params.set("limit", String(filter.limit));
  if (filter.after) params.set("after", filter.after);
  if (filter.before) params.set("before", filter.before);
  const query = params.toString();
  return `/decisions/${encodeURIComponent(decisionId)}/runs/${runId}/items${query ? `?${query}` : ""}`;
}

/**
 * One item behind a figure, as the page, the API and the CLI show it: the joined row the figure
 * was computed from, with the item's id, its confusion cell and its text.
 */
export interface DrillItem extends JoinedRow {
  id: string;
  cell: Cell;
  text: string | null;
}
