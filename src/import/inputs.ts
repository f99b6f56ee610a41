// The files an import reads: directory trees (cvelistV5 checkouts), single JSON files and zip archives
// (release zips, nested zips included), as one stream of entries, one entry in memory at a time.
import { readFile, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { readZipJsonEntries, type ZipJsonEntry } from './zip-entries.js';

/** An entry, or a whole input that could not be read (a truncated archive, a missing path). */
export type InputEntry = ZipJsonEntry | { name: string; inputError: string };

export async function* readInputs(paths: readonly string[]): AsyncGenerator<InputEntry, void, undefined> {
  for (const path of paths) yield* readInput(path);
}

async function* readInput(path: string): AsyncGenerator<InputEntry, void, undefined> {
  let kind: 'dir' | 'file';
  try {
    kind = (await stat(path)).isDirectory() ? 'dir' : 'file';
  } catch (err) {
    yield { name: path, inputError: `cannot read: ${(err as Error).message}` };
    return;
  }
  if (kind === 'dir') {
    yield* readTree(path);
  } else if (path.toLowerCase().endsWith('.zip')) {
    try {
      for await (const entry of readZipJsonEntries(path)) yield { ...entry, name: `${path}!/${entry.name}` };
    } catch (err) {
      // The entries before the damage have been yielded and are kept; the rest of the archive is lost.
      yield { name: path, inputError: `archive is unreadable: ${(err as Error).message}` };
    }
  } else {
    yield* readJsonFile(path);
  }
}

/** Every `*.json` below `dir`, in sorted order so that an import is reproducible. */
async function* readTree(dir: string): AsyncGenerator<InputEntry, void, undefined> {
  let names: string[];
  try {
    names = (await readdir(dir)).sort();
  } catch (err) {
    yield { name: dir, inputError: `cannot list: ${(err as Error).message}` };
    return;
  }
  for (const name of names) {
    if (name.startsWith('.')) continue; // .git and friends
    const path = join(dir, name);
    const info = await stat(path).catch(() => undefined);
    if (info?.isDirectory()) yield* readTree(path);
    else if (name.toLowerCase().endsWith('.json')) yield* readJsonFile(path);
    else if (name.toLowerCase().endsWith('.zip')) yield* readInput(path);
  }
}

async function* readJsonFile(path: string): AsyncGenerator<InputEntry, void, undefined> {
  try {
    yield { name: path, text: await readFile(path, 'utf8') };
  } catch (err) {
    yield { name: path, error: `cannot read: ${(err as Error).message}` };
  }
}
