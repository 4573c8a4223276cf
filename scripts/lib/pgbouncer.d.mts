export function hasPgBouncer(): string | null;
export function startPgBouncer(upstreamUrl: string): Promise<{
  port: number;
  via(url: string): string;
  adminUrl(): string;
  stop(): Promise<void>;
}>;
