// A file replaced whole: written to `<file>.<pid>.tmp` beside it and renamed over it, so a reader sees the
// old file or the new one. A writer killed before its rename (SIGKILL, a crash, the machine stopping)
// leaves its temporary file behind; the next write of the same file removes those of processes that no
// longer run, so they cannot pile up. A live process's file is left alone: it may be writing it now.
import { readdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** Writes `path` through `write(tmp)` and renames the temporary file into place; nothing is left on failure. */
export async function replaceFile<T>(path: string, write: (tmp: string) => Promise<T>): Promise<T> {
  await removeStaleTemporaries(path);
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    const result = await write(tmp);
    await rename(tmp, path);
    return result;
  } catch (error) {
    await rm(tmp, { force: true });
    throw error;
  }
}

/** Removes `<file>.<pid>.tmp` files beside `path` whose process is gone. */
export async function removeStaleTemporaries(path: string): Promise<string[]> {
  const prefix = `${basename(path)}.`;
  let names: string[];
  try {
    names = await readdir(dirname(path));
  } catch {
    return []; // no folder yet: nothing stale either
  }
  const removed: string[] = [];
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith('.tmp')) continue;
    const pid = Number(name.slice(prefix.length, -'.tmp'.length));
    if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid || isRunning(pid)) continue;
    await rm(join(dirname(path), name), { force: true });
    removed.push(name);
  }
  return removed;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
