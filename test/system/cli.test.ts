import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { runCli, startServer } from '../support/cli.js';

describe('cve-records CLI', () => {
  it('documents every serve option and its environment variable in --help', async () => {
    const { code, stdout } = await runCli(['serve', '--help']);
    expect(code).toBe(0);
    for (const flag of ['--records', '--port', '--host', '--base-url', '--rate-limit-max', '--rate-limit-window'])
      expect(stdout).toContain(flag);
    expect(stdout).toContain('CVE_RECORDS_PORT');
  });

  it('rejects unknown commands and bad option values with exit code 2', async () => {
    expect((await runCli(['frobnicate'])).code).toBe(2);
    const bad = await runCli(['serve', '--port', 'eighty']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--port');
    expect((await runCli(['serve', '--no-such-flag'])).code).toBe(2);
    expect((await runCli(['serve', '--v1-sunset', '2027-01-01'])).stderr).toContain('--v1-deprecation');
  });

  it('refuses to start on a bad catalog, naming the file, the record and the problem', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'cli-')), 'bad.json');
    await writeFile(
      file,
      JSON.stringify({ lastVerified: '2025-01-01', records: [{ id: 'CVE-2024-1', project: 'x', status: 'gone', url: null }] }),
    );
    const { code, stderr } = await runCli(['serve', '--records', file, '--port', '0']);
    expect(code).toBe(1);
    expect(stderr).toContain(file);
    expect(stderr).toContain('/records/0/status (CVE-2024-1)');
  });

  it('fixes the young generation at 8 MB and the malloc mmap threshold at 64 KB when run as a program (npx cve-records, npm start), as docs/PERFORMANCE.md measured', async () => {
    const server = await startServer([], {}, { asProgram: true });
    try {
      expect((await request(`${server.baseUrl}/api/v1/health`)).statusCode).toBe(200);
      const commandLine = readFileSync(`/proc/${server.child.pid}/cmdline`, 'utf8').split('\0');
      expect(commandLine).toContain('--max-semi-space-size=8');
      expect(commandLine).toContain('--min-semi-space-size=8');
      // Read by glibc when the process starts: a server's arenas otherwise keep what each change's columns took.
      expect(readFileSync(`/proc/${server.child.pid}/environ`, 'utf8').split('\0')).toContain('MALLOC_MMAP_THRESHOLD_=65536');
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  it("keeps V8's code of its modules between runs (Node's compile cache, in the temporary directory)", async () => {
    const temporary = await mkdtemp(join(tmpdir(), 'cli-cache-'));
    expect((await runCli(['serve', '--help'], { TMPDIR: temporary })).code).toBe(0);
    expect(readdirSync(join(temporary, 'node-compile-cache')).length).toBeGreaterThan(0);
  });

  it('serves the embedded dataset, configured from the environment, and stops on SIGTERM', async () => {
    const server = await startServer([], { CVE_RECORDS_BASE_URL: 'https://cve.example.org' });
    try {
      const capabilities = await request(`${server.baseUrl}/api/v1/capabilities`);
      const body = (await capabilities.body.json()) as { links: Record<string, string>; dataset: { records: number } };
      expect(body.links.health).toBe('https://cve.example.org/api/v1/health');
      expect(body.dataset.records).toBeGreaterThan(10_000);
      expect(server.output()).toMatch(/serving \d+ records at http:\/\/127\.0\.0\.1:\d+ \(public URL https:\/\/cve\.example\.org\)/);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });
});
