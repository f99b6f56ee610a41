// Vitest global setup: tests that start `bin/cve-records.js` run the compiled service in dist/, so a
// dist/ older than any source file is rebuilt before they run. Without it, a test run right after an
// edit would exercise yesterday's code and pass or fail for the wrong reason.
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

export default function setup(): void {
  const sources = Math.max(newest(repositoryPath('src'), '.ts'), statSync(repositoryPath('package.json')).mtimeMs);
  let built = 0;
  try {
    built = newest(repositoryPath('dist'), '.js');
  } catch {
    // no dist/ yet
  }
  if (built >= sources) return;
  process.stdout.write('dist/ is older than src/: building it first (npm run build)\n');
  execFileSync('npm', ['run', 'build'], { cwd: repositoryPath('.'), stdio: 'inherit' });
}
