import type { Cell, DrillItem } from "@/lib/schemas/drill-down";

/** The server's own item type (lib/schemas/drill-down.ts), not a copy. */
export type ItemRow = DrillItem;

const CELL_NAMES: Record<Cell, string> = {
  FN: "false negative",
  FP: "false positive",
  TP: "true positive",
  TN: "true negative",
};

/** What the model answered for an item: its score, its hard label, or why it counts as an error. */
function answer(item: ItemRow): string {
  if (item.missing) return "no prediction (counts as an error)";
  if (item.parseFailure) return "parse failure (counts as an error)";
  if (item.score !== null) return String(item.score);
  return item.predicted === null ? "—" : item.predicted ? "predicted positive" : "predicted negative";
}

/** One page of a run's items (text is data: rendered as text, never markup). */
export function ItemsTable({ items, positiveClass }: { items: ItemRow[]; positiveClass: string }) {
  if (items.length === 0)
    return (
      <p className="muted" data-testid="no-items">
        No items in this list.
      </p>
    );
  return (
    <div className="table-scroll">
      <table data-testid="drill-items">
        <caption>
          Items, errors first: false negatives by score ascending, false positives by score descending, then true
          positives and true negatives nearest the threshold first; ties by item id
        </caption>
        <thead>
          <tr>
            <th scope="col">Item id</th>
            <th scope="col">Cell</th>
            <th scope="col">Gold label</th>
            <th scope="col" className="num">
              Score
            </th>
            <th scope="col">Slice</th>
            <th scope="col">Text</th>
          </tr>
        </thead>
        <tbody>
          {items.map((item) => (
            <tr key={item.id} data-item={item.id} data-cell={item.cell}>
              <th scope="row">
                <code>{item.id}</code>
              </th>
              <td>
                <abbr title={CELL_NAMES[item.cell]}>{item.cell}</abbr>
              </td>
              <td>{item.label ? positiveClass : `not ${positiveClass}`}</td>
              <td className="num">{answer(item)}</td>
              <td>{item.slice ?? <span className="muted">—</span>}</td>
              <td className="drill-text">{item.text ?? <span className="muted">—</span>}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
