import { mkdir, open, readdir, stat, unlink } from "node:fs/promises";
import path from "node:path";
import { env } from "../env";
import { logger } from "../logger";

// Export files live under HERALD_DATA_DIR/exports, one per task, and are deleted by the worker
// HERALD_EXPORT_RETENTION_HOURS after they were last written.

export const EXPORT_EXTENSIONS = { ndjson: "ndjson", csv: "csv" } as const;
export type ExportFormat = keyof typeof EXPORT_EXTENSIONS;

export const exportsDir = () => path.resolve(env().HERALD_DATA_DIR, "exports");

/** The file of a task. Task ids are [a-z0-9_] only, so this cannot leave the exports folder. */
export function exportPath(taskId: string, format: ExportFormat): string {
  if (!/^[a-z0-9_]+$/.test(taskId)) throw new Error(`not a task id: ${taskId}`);
  return path.join(exportsDir(), `${taskId}.${EXPORT_EXTENSIONS[format]}`);
}

/** Cuts the file back to `bytes` (what the last committed batch left) before appending again. */
export async function openForAppend(file: string, bytes: number) {
  await mkdir(path.dirname(file), { recursive: true });
  const fh = await open(file, "a+");
  await fh.truncate(bytes);
  return fh;
}

/** Deletes export files older than the retention; returns how many it removed. */
export async function deleteExpiredExports(now = Date.now()): Promise<number> {
  const dir = exportsDir();
  const maxAge = env().HERALD_EXPORT_RETENTION_HOURS * 3_600_000;
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    const file = path.join(dir, name);
    try {
      const s = await stat(file);
      if (s.isFile() && now - s.mtimeMs > maxAge) {
        await unlink(file);
        removed++;
      }
    } catch (err) {
      logger.warn({ err, file }, "could not check or delete an export file");
    }
  }
  if (removed > 0) logger.info({ removed }, "deleted expired export files");
  return removed;
}
