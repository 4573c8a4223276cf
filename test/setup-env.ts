import { inject } from "vitest";

// Every test file sees the URL of the server that the global setup started.
process.env.HERALD_TEST_BASE_URL = inject("baseUrl");
