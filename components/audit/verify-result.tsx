interface Problem {
  id: string;
  reason: string;
  message: string;
  expected: string;
  found: string;
}

export interface VerifyView {
  intact: boolean;
  checked: number;
  headHash: string;
  head: { seq: string; hash: string } | null;
  anchor: { seq: string; hash: string } | null;
  records: { signatures: number; revisions: number };
  firstBroken: Problem | null;
  recordProblems: Problem[];
}

export function VerifyResult({ result }: { result: VerifyView }) {
  if (result.intact) {
    return (
      <p className="message-ok" role="status" data-testid="verify-result">
        Chain intact: {result.checked.toLocaleString("en-US")} events checked, every hash recomputed from its row
        {result.anchor ? `, including the head ${result.anchor.seq}` : ""};{" "}
        {result.records.signatures.toLocaleString("en-US")} signatures and{" "}
        {result.records.revisions.toLocaleString("en-US")} pack revisions match the events that recorded them. Head{" "}
        <code style={{ wordBreak: "break-all" }}>
          {result.head ? `${result.head.seq}:${result.head.hash}` : result.headHash}
        </code>
        .
      </p>
    );
  }
  const broken = result.firstBroken!;
  const record = broken.reason.startsWith("record-");
  return (
    <div className="message-error" role="alert" data-testid="verify-result">
      <p style={{ margin: 0 }}>
        <strong>
          {record ? `Record ${broken.id} does not match the audit trail` : `Chain broken at event ${broken.id}`}
        </strong>{" "}
        ({result.checked.toLocaleString("en-US")} events checked). {broken.message}
      </p>
      <p style={{ margin: "6px 0 0", wordBreak: "break-all", fontSize: "0.85rem" }}>
        expected <code>{broken.expected}</code>
        <br />
        found <code>{broken.found}</code>
      </p>
      {result.recordProblems.length > 1 && (
        <ul style={{ margin: "6px 0 0", fontSize: "0.85rem" }}>
          {result.recordProblems.slice(1).map((p) => (
            <li key={`${p.reason}:${p.id}`}>{p.message}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
