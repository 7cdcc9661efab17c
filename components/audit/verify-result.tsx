export interface VerifyView {
  intact: boolean;
  checked: number;
  headHash: string;
  firstBroken: { id: string; reason: string; message: string; expected: string; found: string } | null;
}

export function VerifyResult({ result }: { result: VerifyView }) {
  if (result.intact) {
    return (
      <p className="message-ok" role="status" data-testid="verify-result">
        Chain intact: {result.checked.toLocaleString("en-US")} events checked, every hash recomputed from its row. Head hash <code style={{ wordBreak: "break-all" }}>{result.headHash}</code>.
      </p>
    );
  }
  const broken = result.firstBroken!;
  return (
    <div className="message-error" role="alert" data-testid="verify-result">
      <p style={{ margin: 0 }}>
        <strong>Chain broken at event {broken.id}</strong> ({result.checked.toLocaleString("en-US")} events before it are intact). {broken.message}
      </p>
      <p style={{ margin: "6px 0 0", wordBreak: "break-all", fontSize: "0.85rem" }}>
        expected <code>{broken.expected}</code>
        <br />
        found <code>{broken.found}</code>
      </p>
    </div>
  );
}
