import { defineConfig, devices } from "@playwright/test";

// e2e against the production build, on a fresh database on the PostgreSQL server, in Debian's
// Chromium (downloads of Playwright's own browsers are not possible here).
const PORT = Number(process.env.E2E_PORT ?? 3210);
// The production journey's own server: `npm start` on an empty database, no demo (see scripts/e2e-production-server.ts).
const PRODUCTION_PORT = Number(process.env.E2E_PRODUCTION_PORT ?? 3211);
const PRODUCTION_SPECS = /production-[a-z-]+\.spec\.ts/;
// The journey starts from the empty database ("No decisions yet", the first admin): it runs first
// and alone on that server; the other production specs (project "production-after-journey") after it.
const JOURNEY = /production-journey\.spec\.ts/;

export default defineConfig({
  testDir: "e2e",
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
  retries: 0,
  forbidOnly: !!process.env.CI,
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never" }]],
  timeout: 30_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  projects: [
    { name: "chromium", testIgnore: PRODUCTION_SPECS, use: { ...devices["Desktop Chrome"], channel: undefined } },
    {
      name: "production",
      testMatch: JOURNEY,
      use: { ...devices["Desktop Chrome"], channel: undefined, baseURL: `http://127.0.0.1:${PRODUCTION_PORT}` },
    },
    {
      name: "production-after-journey",
      testMatch: PRODUCTION_SPECS,
      testIgnore: JOURNEY,
      dependencies: ["production"],
      use: { ...devices["Desktop Chrome"], channel: undefined, baseURL: `http://127.0.0.1:${PRODUCTION_PORT}` },
    },
  ],
  // Started in this order: the demo server builds the app, the production server reuses the build.
  webServer: [
    {
      command: "node --conditions=react-server --import tsx scripts/e2e-server.ts",
      url: `http://127.0.0.1:${PORT}/sign-in`,
      timeout: 480_000, // the production build comes first; on a busy 2-core machine it takes minutes
      reuseExistingServer: false,
      stdout: "pipe",
      stderr: "pipe",
      env: { E2E_PORT: String(PORT) },
    },
    {
      command: "node --import tsx scripts/e2e-production-server.ts",
      url: `http://127.0.0.1:${PRODUCTION_PORT}/sign-in`,
      timeout: 120_000,
      reuseExistingServer: false,
      stdout: "pipe",
      stderr: "pipe",
      env: { E2E_PRODUCTION_PORT: String(PRODUCTION_PORT) },
    },
  ],
});
