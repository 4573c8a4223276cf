"use client";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createContext, useContext, useState, type ReactNode } from "react";
import { ApiFailure, setRequestEnvironment } from "./api";
import { ENVIRONMENT_COOKIE } from "./constants";

export type ConsoleEnvironment = { id: string; name: string; role: "owner" | "admin" | "viewer" };
export type ConsoleUser = { id: string; email: string; name: string | null };

type ConsoleState = {
  user: ConsoleUser;
  environments: ConsoleEnvironment[];
  environment: ConsoleEnvironment;
  /** Owners and admins change things; viewers read. The server enforces it, the UI just says so. */
  canWrite: boolean;
  switchEnvironment: (id: string) => void;
};

const Ctx = createContext<ConsoleState | null>(null);

export function useConsole(): ConsoleState {
  const c = useContext(Ctx);
  if (!c) throw new Error("useConsole outside the console layout");
  return c;
}

export function ConsoleProviders({
  user,
  environments,
  initialEnvironmentId,
  children,
}: {
  user: ConsoleUser;
  environments: ConsoleEnvironment[];
  initialEnvironmentId: string;
  children: ReactNode;
}) {
  const [client] = useState(
    () =>
      new QueryClient({
        defaultOptions: {
          queries: {
            staleTime: 5_000,
            refetchOnWindowFocus: true,
            retry: (count, err) => !(err instanceof ApiFailure && err.status < 500) && count < 2,
          },
        },
      }),
  );
  const [currentId, setCurrentId] = useState(initialEnvironmentId);
  const environment = environments.find((e) => e.id === currentId) ?? environments[0]!;
  // Before the first query of this render: every request names the environment it is for.
  setRequestEnvironment(environment.id);

  const switchEnvironment = (id: string) => {
    setRequestEnvironment(id);
    // Remembered for the next visit (the layout reads it); not a credential.
    document.cookie = `${ENVIRONMENT_COOKIE}=${encodeURIComponent(id)}; path=/console; max-age=31536000; samesite=lax`;
    client.clear();
    setCurrentId(id);
  };

  return (
    <Ctx.Provider value={{ user, environments, environment, canWrite: environment.role !== "viewer", switchEnvironment }}>
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    </Ctx.Provider>
  );
}
