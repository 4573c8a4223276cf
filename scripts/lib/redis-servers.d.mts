export type RedisEnv = { REDIS_URL: string; HERALD_REDIS_MODE: string; HERALD_REDIS_SENTINEL_NAME?: string };

export function startRedisCluster(opts?: { masters?: number; nodeTimeoutMs?: number }): Promise<{
  ports: number[];
  env: RedisEnv;
  restartNode(i: number, opts?: { downMs?: number }): Promise<void>;
  stop(): Promise<void>;
}>;

export function startRedisSentinel(opts?: { name?: string; downAfterMs?: number }): Promise<{
  name: string;
  sentinelPorts: number[];
  env: RedisEnv;
  masterPort(): number;
  failover(): Promise<{ from: number; to: number }>;
  stop(): Promise<void>;
}>;
