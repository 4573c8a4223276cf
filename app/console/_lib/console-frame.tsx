"use client";
import { signOut } from "next-auth/react";
import { usePathname } from "next/navigation";
import type { ReactNode } from "react";
import { ConsoleShell } from "@/components/console/console-shell";
import { useConsole } from "./providers";

export function ConsoleFrame({ children }: { children: ReactNode }) {
  const c = useConsole();
  const pathname = usePathname();
  return (
    <ConsoleShell
      pathname={pathname}
      userEmail={c.user.email}
      environments={c.environments}
      environment={c.environment}
      onSwitchEnvironment={c.switchEnvironment}
      onSignOut={() => void signOut({ callbackUrl: "/sign-in" })}
    >
      {/* Remounted per environment: no page keeps state from the previous one. */}
      <div key={c.environment.id}>{children}</div>
    </ConsoleShell>
  );
}
