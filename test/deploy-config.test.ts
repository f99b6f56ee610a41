// Issue 28: the proxy configuration docs/OPERATIONS.md shows is deploy/haproxy.cfg as it is (the file the
// deployment test runs), and HAProxy accepts it.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { repositoryPath } from './support/paths.js';

const CONFIG = readFileSync(repositoryPath('deploy/haproxy.cfg'), 'utf8');
const HAPROXY = ['/usr/sbin/haproxy', '/usr/local/sbin/haproxy'].find((path) => existsSync(path));

describe('deploy/haproxy.cfg', () => {
  it('is shown whole in docs/OPERATIONS.md', () => {
    const docs = readFileSync(repositoryPath('docs/OPERATIONS.md'), 'utf8');
    expect(docs).toContain(`\`\`\`haproxy\n${CONFIG}\`\`\``);
  });

  it.skipIf(HAPROXY === undefined)('is valid for HAProxy with the addresses set', () => {
    const env = {
      ...process.env,
      CVE_RECORDS_LISTEN: '127.0.0.1:8080',
      CVE_RECORDS_REPLICA_1: '127.0.0.1:8081',
      CVE_RECORDS_REPLICA_2: '127.0.0.1:8082',
      CVE_RECORDS_REPLICA_3: '127.0.0.1:8083',
    };
    expect(execFileSync(HAPROXY!, ['-c', '-f', repositoryPath('deploy/haproxy.cfg')], { env, encoding: 'utf8' })).toContain(
      'Configuration file is valid',
    );
  });
});
