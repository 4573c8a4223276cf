import { inject } from "vitest";

// Every test file sees the URL of the server that the global setup started, and the database it
// works on (the run's own, or the time-zone run's).
process.env.HERALD_TEST_BASE_URL = inject("baseUrl");
process.env.DATABASE_URL = inject("databaseUrl");
