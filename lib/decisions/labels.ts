/** How a dataset version is named everywhere (pages, selects, the PDF): "holdout v2 (20,000 items, 400 positive)". */
export function datasetVersionLabel(
  dataset: string,
  v: { version: number; itemCount: number; positiveCount: number },
): string {
  return `${dataset} v${v.version} (${v.itemCount.toLocaleString("en-US")} items, ${v.positiveCount.toLocaleString("en-US")} positive)`;
}
