import { describe, expect, it } from "vitest";
import pg from "pg";
import { Prisma } from "./generated/prisma/client";
import { outageOf, sqlStateOf } from "./outage";

// The error shapes node-postgres, Prisma's pg adapter and ioredis throw when a store is away
// (as seen against a stopped server, a restart and pg_terminate_backend; the fault suite,
// test/infra-faults.integration.test.ts, produces them for real), and errors that are bugs or
// bad input and must stay what they are.

const prismaError = (code: string, meta?: Record<string, unknown>) =>
  new Prisma.PrismaClientKnownRequestError("Invalid invocation", { code, clientVersion: "6.19.3", meta });
const pgError = (code: string, message: string) => Object.assign(new pg.DatabaseError(message, 0, "error"), { code });
const socketError = (code: string) => Object.assign(new Error(`connect ${code} 127.0.0.1:5432`), { code, syscall: "connect", errno: -111 });

describe("outageOf", () => {
  it("recognises PostgreSQL being unreachable, restarting or failing over", () => {
    expect(outageOf(pgError("57P01", "terminating connection due to administrator command"))).toBe("database");
    expect(outageOf(pgError("57P03", "the database system is starting up"))).toBe("database");
    expect(outageOf(pgError("25006", "cannot execute INSERT in a read-only transaction"))).toBe("database");
    expect(outageOf(socketError("ECONNREFUSED"))).toBe("database");
    expect(outageOf(new Error("Connection terminated unexpectedly"))).toBe("database");
    expect(outageOf(new Error("timeout exceeded when trying to connect"))).toBe("database");
    expect(outageOf(new Error("Client has encountered a connection error and is not queryable"))).toBe("database");
    expect(outageOf(prismaError("P1001"))).toBe("database");
    expect(outageOf(prismaError("P2024"))).toBe("database");
    expect(outageOf(prismaError("P2010", { code: "57P01", message: "terminating connection due to administrator command" }))).toBe("database");
    expect(outageOf(prismaError("P2010", { code: "N/A", message: "Can't reach database server at 127.0.0.1:1" }))).toBe("database");
    expect(outageOf(new Error("wrapped", { cause: socketError("ECONNRESET") }))).toBe("database");
  });

  it("recognises Redis being unreachable", () => {
    expect(outageOf(new Error("Stream isn't writeable and enableOfflineQueue options is false"))).toBe("redis");
    expect(outageOf(Object.assign(new Error("Reached the max retries per request limit (which is 2)."), { name: "MaxRetriesPerRequestError" }))).toBe("redis");
    expect(outageOf(new Error("Connection is closed."))).toBe("redis");
    expect(outageOf(new Error("LOADING Redis is loading the dataset in memory"))).toBe("redis");
  });

  it("leaves bugs and bad input alone", () => {
    expect(outageOf(pgError("23505", "duplicate key value violates unique constraint"))).toBeNull();
    expect(outageOf(pgError("42P01", 'relation "nope" does not exist'))).toBeNull();
    expect(outageOf(prismaError("P2002", { target: ["uid"] }))).toBeNull();
    expect(outageOf(prismaError("P2010", { code: "22P02", message: "invalid input syntax for type integer" }))).toBeNull();
    expect(outageOf(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBeNull();
    expect(outageOf("a string")).toBeNull();
    expect(outageOf(null)).toBeNull();
  });
});

describe("sqlStateOf", () => {
  it("finds PostgreSQL's SQLSTATE however the driver wraps it", () => {
    expect(sqlStateOf(pgError("57014", "canceling statement due to statement timeout"))).toBe("57014");
    expect(sqlStateOf(new Error("adapter", { cause: pgError("57014", "canceling statement") }))).toBe("57014");
    expect(sqlStateOf(Object.assign(new Error("driver adapter error"), { originalCode: "57014" }))).toBe("57014");
    expect(sqlStateOf(prismaError("P2010", { code: "23505", message: "duplicate key" }))).toBe("23505");
    // Prisma 6's raw query error: the adapter's error in meta, PostgreSQL's code in its cause.
    const adapterError = Object.assign(new Error("DriverAdapterError"), {
      cause: { kind: "postgres", originalCode: "57014", originalMessage: "canceling statement due to statement timeout" },
    });
    expect(sqlStateOf(prismaError("P2010", { driverAdapterError: adapterError }))).toBe("57014");
  });

  it("is null for Prisma's own codes, socket codes and plain errors", () => {
    expect(sqlStateOf(prismaError("P2024"))).toBeNull();
    expect(sqlStateOf(socketError("EPIPE"))).toBeNull();
    expect(sqlStateOf(new Error("boom"))).toBeNull();
    expect(sqlStateOf("not an error")).toBeNull();
  });
});
