import { dropDatabase, recreateDatabase } from "./database.ts";

export default async function setup() {
  const url = process.env.TEST_DATABASE_URL!;
  await recreateDatabase(url);
  return async () => {
    // A database named by TEST_DATABASE_URL from outside is kept for inspection.
    if (/verdict_test_\d+$/.test(url)) await dropDatabase(url);
  };
}
