// The files an import reads: directory trees (cvelistV5 checkouts), single JSON files and zip archives
// (release zips, nested zips included), as one stream of entries, one entry in memory at a time.
//
// A tree is walked as untrusted input: symbolic links are followed only when they stay inside the tree
// and lead somewhere not yet visited (so a link loop ends), and only regular files are read (a FIFO
// named `*.json` would block the import forever). Text must be valid UTF-8 (checked where it is decoded,
// by unpackText); nothing of a file that fails is echoed back, since a link may point at a file that was
// never meant to be read.
import type { Stats } from 'node:fs';
import { lstat, readdir, readFile, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, relative } from 'node:path';
import { MAX_ENTRY_BYTES, readZipEntries, type ZipEntry } from './zip-entries.js';

/**
 * An input as read: an entry's bytes as stored (decoded where it is mapped), why one entry could not be
 * read, or why a whole input could not be (which the mapping reports too, so problems keep input order).
 */
export type InputEntry = ZipEntry | { name: string; inputError: string };

export async function* readInputs(paths: readonly string[]): AsyncGenerator<InputEntry, void, undefined> {
  for (const path of paths) yield* readInput(path);
}

async function* readInput(path: string): AsyncGenerator<InputEntry, void, undefined> {
  let info: Stats;
  try {
    info = await stat(path);
  } catch (err) {
    yield { name: path, inputError: `cannot read: ${(err as NodeJS.ErrnoException).code ?? 'error'}` };
    return;
  }
  if (info.isDirectory()) {
    const root = await realpath(path);
    yield* readTree(path, root, new Set([root]));
  } else if (!info.isFile()) {
    yield { name: path, inputError: 'not a regular file, directory or zip archive' };
  } else if (path.toLowerCase().endsWith('.zip')) {
    yield* readZip(path);
  } else {
    yield await readJsonFile(path);
  }
}

async function* readZip(path: string): AsyncGenerator<InputEntry, void, undefined> {
  try {
    for await (const entry of readZipEntries(path)) yield { ...entry, name: `${path}!/${entry.name}` };
  } catch (err) {
    // Hostile or damaged structure at any level (an ArchiveDamage), or no zip at all: the archive is
    // unreadable input, which a sync refuses whole; an import keeps the entries yielded before it.
    yield { name: path, inputError: `archive is unreadable: ${(err as Error).message}` };
  }
}

/** Every `*.json` and `*.zip` below `dir`, in sorted order so that an import is reproducible. */
async function* readTree(dir: string, root: string, visited: Set<string>): AsyncGenerator<InputEntry, void, undefined> {
  let names: string[];
  try {
    names = (await readdir(dir)).sort();
  } catch (err) {
    yield { name: dir, inputError: `cannot list: ${(err as NodeJS.ErrnoException).code ?? 'error'}` };
    return;
  }
  for (const name of names) {
    if (name.startsWith('.')) continue; // .git and friends
    const path = join(dir, name);
    const lower = name.toLowerCase();
    const wanted = lower.endsWith('.json') || lower.endsWith('.zip');
    const link = await lstat(path).then(
      (info) => info.isSymbolicLink(),
      () => false,
    );
    let target = path;
    if (link) {
      const real = await realpath(path).catch(() => undefined);
      if (real === undefined || !inside(root, real)) {
        if (wanted) yield { name: path, error: 'symbolic link leads outside the tree or nowhere: not followed' };
        continue;
      }
      target = real;
    }
    const info = await stat(target).catch(() => undefined);
    if (info?.isDirectory()) {
      const real = link ? target : await realpath(path).catch(() => path);
      if (visited.has(real)) continue; // a link back to a directory already walked
      visited.add(real);
      yield* readTree(path, root, visited);
    } else if (!wanted) {
    } else if (!info?.isFile()) {
      yield { name: path, error: 'not a regular file: not read' };
    } else if (info.size > MAX_ENTRY_BYTES) {
      yield { name: path, error: `file is ${info.size} bytes, over the ${MAX_ENTRY_BYTES} byte limit` };
    } else if (lower.endsWith('.zip')) {
      yield* readZip(path);
    } else {
      yield await readJsonFile(path);
    }
  }
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** A file's bytes, packed as a stored entry: its text is decoded where it is mapped. */
async function readJsonFile(path: string): Promise<ZipEntry> {
  try {
    const data = await readFile(path);
    return { name: path, packed: { data, method: 0, size: data.length } };
  } catch (err) {
    return { name: path, error: `cannot read: ${(err as NodeJS.ErrnoException).code ?? 'error'}` };
  }
}
