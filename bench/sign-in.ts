/**
 * Signs in as a browser does, through Auth.js's credentials flow: GET /api/auth/csrf (the CSRF
 * token and its cookie), POST /api/auth/callback/credentials with the token, email and password
 * (the app's own authorize: password check, throttling, audit event), and keeps the session
 * cookie the server sets. Returns a Cookie header for load tests; throws when the server refuses.
 */
function cookiesOf(res: Response): string[] {
  return res.headers.getSetCookie().map((line) => line.split(";")[0]!);
}

export async function signInWithPassword(origin: string, email: string, password: string): Promise<string> {
  const csrf = await fetch(`${origin}/api/auth/csrf`);
  if (!csrf.ok) throw new Error(`sign-in: GET /api/auth/csrf answered ${csrf.status}`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const jar = cookiesOf(csrf);
  const res = await fetch(`${origin}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: jar.join("; ") },
    body: new URLSearchParams({ csrfToken, email, password, callbackUrl: `${origin}/decisions` }),
  });
  const session = cookiesOf(res).find((c) => /^(__Secure-)?authjs\.session-token=./.test(c));
  if (!session)
    throw new Error(`sign-in as ${email} refused (status ${res.status}, location ${res.headers.get("location")})`);
  return session;
}
