/**
 * A production server without AUTH_SECRET would sign sessions with nothing secret: refuse to
 * start, with a message that says what to do.
 */
export function assertProductionSecrets(): void {
  if (process.env.NODE_ENV === "production" && !process.env.AUTH_SECRET) {
    console.error(
      "Verdict refuses to start: AUTH_SECRET is not set.\n" +
        "Set it to a long random value (for example: openssl rand -base64 32), or run `npm run demo` for the demo.",
    );
    process.exit(1);
  }
}
