// What the tests need from the machine beyond npm packages: Debian's chromium, redis-server and, when no
// PostgreSQL answers, postgresql's binaries. A missing one is installed when this user may install
// packages (root, as in CI); anyone else gets one line naming the command to run.
import { execFileSync } from 'node:child_process';

/** Makes sure `present()` holds, installing Debian's `pkg` if it does not; `what` names it in messages. */
export function ensureDebianPackage(what: string, pkg: string, present: () => boolean): void {
  if (present()) return;
  const command = `apt-get install -y ${pkg}`;
  if (process.getuid?.() !== 0) {
    throw new Error(`${what} is missing: install Debian's ${pkg} package (\`sudo ${command}\`), see docs/OPERATIONS.md.`);
  }
  process.stdout.write(`${what} is missing: installing Debian's ${pkg} package (${command})\n`);
  const options = { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } } as const;
  try {
    execFileSync('apt-get', ['update', '-qq'], options);
    execFileSync('apt-get', ['install', '-y', '-qq', pkg], options);
  } catch (error) {
    throw new Error(`${what} is missing and \`${command}\` failed: ${(error as Error).message}`);
  }
  if (!present()) throw new Error(`${what} is still missing after \`${command}\`.`);
}

/** True when `command` is found on PATH. */
export function onPath(command: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
