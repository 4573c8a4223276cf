export function freePort(): Promise<number>;
export function deleteKeys(redis: string | Record<string, string | undefined>, prefix: string): Promise<void>;
export function isolatedRun(
  kind: string,
  settings: Record<string, string>,
): Promise<{ env: Record<string, string>; prepare(): Promise<void>; cleanup(): Promise<void> }>;
