import styles from "./uploads.module.css";
import { TableScroll } from "@/components/ui/table-scroll";

/** The rejection report of a file: first 100 problems (line or record, field, value, reason) and the total. */
export interface ReportedIssue {
  line?: number;
  record?: string;
  field: string;
  value?: string;
  reason: string;
}

export function ErrorReport({ errors, errorCount }: { errors: ReportedIssue[]; errorCount: number }) {
  return (
    <div className="upload-report" role="alert" aria-live="assertive">
      <p className="message-error">
        The file was rejected: {errorCount.toLocaleString("en-US")} problem{errorCount === 1 ? "" : "s"}
        {errorCount > errors.length ? ` (the first ${errors.length} are listed)` : ""}. Nothing was imported.
      </p>
      <TableScroll label="Errors in the file">
        <table className={styles.errorTable}>
          <caption className="muted">Problems, in file order</caption>
          <thead>
            <tr>
              <th scope="col">Line / record</th>
              <th scope="col">Field</th>
              <th scope="col">Value</th>
              <th scope="col">Reason</th>
            </tr>
          </thead>
          <tbody>
            {errors.map((e, i) => (
              <tr key={i}>
                <td className="figure">{e.line ?? e.record ?? "—"}</td>
                <td>
                  <code>{e.field}</code>
                </td>
                {/* Text from the file is rendered as text, never as markup. */}
                <td>
                  <code>{e.value ?? ""}</code>
                </td>
                <td>{e.reason}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </div>
  );
}
