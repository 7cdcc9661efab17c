import { formatThreshold, formatUtc } from "@/lib/format";
import { enrolmentLine } from "@/lib/auth/enrolment";
import { HASH, MEANING_LABEL, type SignatureView } from "./types";
import { TableScroll } from "@/components/ui/table-scroll";
import { OPERATING_RULE_LABELS } from "@/lib/decisions/operating-rule";

/** Signatures in the §11.50 form: printed name, date and time (UTC), meaning, candidate, reason, revision hash. */
export function SignatureTable({ signatures }: { signatures: SignatureView[] }) {
  if (signatures.length === 0) return <p className="muted">No signatures yet.</p>;
  return (
    <TableScroll label="Signatures">
      <table className="signatures">
        <caption>Electronic signatures (21 CFR Part 11 §11.50)</caption>
        <thead>
          <tr>
            <th scope="col">Printed name</th>
            <th scope="col">Date and time (UTC)</th>
            <th scope="col">Meaning</th>
            <th scope="col">Candidate</th>
            <th scope="col">Reason</th>
            <th scope="col">Pack revision</th>
            <th scope="col">Validity</th>
          </tr>
        </thead>
        <tbody>
          {signatures.map((s) => (
            <tr
              key={s.id}
              className={s.superseded ? "superseded" : undefined}
              data-testid="signature-row"
              style={s.superseded ? { textDecoration: "line-through", opacity: 0.75 } : undefined}
            >
              <td>
                <strong>{s.printedName}</strong>
                {s.signerEmail && (
                  <small style={{ display: "block" }} data-testid="signer-email">
                    {s.signerEmail}
                  </small>
                )}
                {s.confirmedBy && (
                  <small style={{ display: "block" }} data-testid="signer-enrolment">
                    {enrolmentLine({ enrolledBy: s.enrolledBy ?? null, confirmedBy: s.confirmedBy })}
                  </small>
                )}
                <small className="muted" style={{ display: "block" }}>
                  user id {s.signerId}
                </small>
              </td>
              <td className="figure">{formatUtc(s.signedAt, "second")}</td>
              <td>{MEANING_LABEL[s.meaning]}</td>
              <td>
                {s.candidate?.name ?? "—"}
                {s.candidate && s.operatingThreshold != null && (
                  <small className="muted" style={{ display: "block" }} data-testid="signature-threshold">
                    at t = {formatThreshold(s.operatingThreshold)} (
                    {OPERATING_RULE_LABELS[s.operatingRule ?? "FIXED"].toLowerCase()})
                  </small>
                )}
              </td>
              <td>
                {s.reason}
                {s.waiver && (
                  <p
                    className="waiver"
                    style={{
                      margin: "6px 0 0",
                      padding: "4px 8px",
                      background: "var(--warn-bg)",
                      color: "var(--warn)",
                    }}
                  >
                    <strong>Waiver:</strong> {s.waiver}
                  </p>
                )}
              </td>
              <td>
                revision {s.revisionNumber ?? "?"}
                <code className="hash" title={s.revisionSha256} style={HASH}>
                  {s.revisionSha256}
                </code>
              </td>
              <td>
                {s.superseded ? (
                  <span className="badge badge-no">Superseded</span>
                ) : (
                  <span className="badge badge-yes">Current</span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
