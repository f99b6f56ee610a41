// Issue 25: a writer killed with SIGKILL before its rename leaves `<file>.<pid>.tmp`; the next write of
// the file removes it, and leaves alone the temporary file of a writer that still runs.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { writeCatalogFile } from '../../src/catalog/json/catalog-writer.js';
import { repositoryPath } from '../support/paths.js';

const WRITER = pathToFileURL(repositoryPath('dist/catalog/json/catalog-writer.js')).href;

async function until(condition: () => boolean, what: string): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > 60_000) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('a catalog file written whole', () => {
  it('the next write removes what a writer killed with SIGKILL left, and not what a running writer holds', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'atomic-'));
    const path = join(dir, 'catalog.json.gz');
    // A writer slow enough to be caught in the middle: 300,000 records at gzip level 9.
    const script = `
      const { writeCatalogFile } = await import(${JSON.stringify(WRITER)});
      const records = Array.from({ length: 300000 }, (_, i) => ({
        id: 'CVE-2026-' + (10000 + i), project: 'p' + (i % 977), status: 'public',
        url: 'https://www.cve.org/CVERecord?id=CVE-2026-' + (10000 + i), summary: 'A flaw number ' + i + ' in something.',
      }));
      await writeCatalogFile(${JSON.stringify(path)}, { lastVerified: '2026-11-20', records });`;
    const writer = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: 'ignore' });
    const exited = new Promise((resolve) => writer.once('exit', resolve));
    const left = `catalog.json.gz.${writer.pid}.tmp`;
    await until(() => existsSync(join(dir, left)) || writer.exitCode !== null, 'the writer to start writing');
    writer.kill('SIGKILL');
    await exited;
    expect(readdirSync(dir)).toEqual([left]);

    // A writer that still runs (this test's own child, asleep) keeps its temporary file.
    const sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    const running = `catalog.json.gz.${sleeper.pid}.tmp`;
    writeFileSync(join(dir, running), 'being written');
    try {
      await writeCatalogFile(path, { lastVerified: '2026-11-20', records: [] });
      expect(readdirSync(dir).sort()).toEqual(['catalog.json.gz', running].sort());
    } finally {
      sleeper.kill('SIGKILL');
    }
  }, 90_000);
});
