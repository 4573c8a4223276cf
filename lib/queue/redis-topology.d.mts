import type { Cluster, Redis, RedisOptions } from "ioredis";

export type RedisMode = "standalone" | "cluster" | "sentinel";
export const REDIS_MODES: RedisMode[];

export type RedisTopology = {
  mode: RedisMode;
  /** The first URL as given (standalone: the server's). */
  url: string;
  nodes: { host: string; port: number }[];
  username?: string;
  password?: string;
  tls: boolean;
  db: number;
  sentinelName?: string;
  sentinelPassword?: string;
};

export class RedisConfigError extends Error {
  variable: string;
  detail: string;
}

export function parseRedisTopology(input?: {
  mode?: string;
  url?: string;
  sentinelName?: string;
  sentinelPassword?: string;
}): RedisTopology;
export function topologyFromEnv(env: Record<string, string | undefined>): RedisTopology;
export function createRedisClient(topology: RedisTopology, options?: RedisOptions): Redis | Cluster;
export function masterConnections(client: Redis | Cluster): Redis[];
