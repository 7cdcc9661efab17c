/** Display formats. An undefined figure is "—", never 0 (SPEC §4). */
export const DASH = "—";

export function formatNumber(value: number | null | undefined, digits = 3): string {
  return value === null || value === undefined || !Number.isFinite(value) ? DASH : value.toFixed(digits);
}

export function formatPercent(value: number | null | undefined, digits = 1): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return DASH;
  const pct = value * 100;
  return `${pct.toFixed(pct !== 0 && Math.abs(pct) < 1 ? 2 : digits)}%`;
}

export function formatMoney(value: number | null | undefined, currency: string, digits = 2): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return DASH;
  return `${value.toFixed(digits)} ${currency}`;
}

export function formatInterval(interval: readonly [number, number] | null | undefined, digits = 3): string {
  return interval ? `[${interval[0].toFixed(digits)}, ${interval[1].toFixed(digits)}]` : DASH;
}

export function formatMs(value: number | null | undefined): string {
  return value === null || value === undefined || !Number.isFinite(value) ? DASH : `${Math.round(value)} ms`;
}
