// Runs once when a server starts (Node.js runtime only).
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { assertProductionSecrets } = await import("./lib/startup-checks");
    assertProductionSecrets();
  }
}
