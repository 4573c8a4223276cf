export type RedisEnv = { REDIS_URL: string; HERALD_REDIS_MODE: string; HERALD_REDIS_SENTINEL_NAME?: string };

export function startRedisCluster(opts?: { masters?: number; replicas?: number; nodeTimeoutMs?: number }): Promise<{
  ports: number[];
  env: RedisEnv;
  masterPorts(): number[];
  restartNode(i: number, opts?: { downMs?: number }): Promise<void>;
  failOverMaster(port: number): Promise<number>;
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
