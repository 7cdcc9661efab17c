import { recreateDatabase } from "./database.ts";

export default async function setup() {
  await recreateDatabase(process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/verdict_test");
}
