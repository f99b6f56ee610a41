// Vitest global setup: tests that start `bin/cve-records.js` run the compiled service in dist/, and the SDK's
// tests (and its API report) read packages/sdk/dist/, so a dist/ older than any source file of either is
// rebuilt before they run. Without it, a test run right after an edit would exercise yesterday's code and
// pass or fail for the wrong reason.
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { repositoryPath } from './paths.js';

function newest(directory: string, suffix: string): number {
  let latest = 0;
  for (const entry of readdirSync(directory, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name.endsWith(suffix)) latest = Math.max(latest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return latest;
}

/** The newest compiled file under `dist`, 0 when there is none yet. */
function built(dist: string): number {
  try {
    return newest(repositoryPath(dist), '.js');
  } catch {
    return 0; // not built yet
  }
}

export default function setup(): void {
  // The SDK is generated from the service's contract, so a change of src/ makes it stale too.
  const service = Math.max(newest(repositoryPath('src'), '.ts'), statSync(repositoryPath('package.json')).mtimeMs);
  const sdk = Math.max(service, newest(repositoryPath('packages/sdk/src'), '.ts'));
  if (built('dist') >= service && built('packages/sdk/dist') >= sdk) return;
  process.stdout.write('dist/ is older than its sources: building it first (npm run build)\n');
  execFileSync('npm', ['run', 'build'], { cwd: repositoryPath('.'), stdio: 'inherit' });
}
