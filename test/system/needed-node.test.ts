// Issue 23: `npm start`, `npx cve-records …` and `npm test` on a machine whose Node is older than the one
// the project needs (bin/needed-node.js). Run with such a Node when the machine has one on PATH (Node 20
// on the project's machines): the command runs again under the needed Node from the cache, says so in one
// line, answers, passes on its exit code and the signals it is stopped by. The Node in the cache is this
// test's own, and a stand-in `npm` plays the registry's install, so nothing is downloaded here
// (`npm run test:fresh-machine` downloads it for real).
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN } from '../support/cli.js';
import { repositoryPath } from '../support/paths.js';

const NEEDED = Number(/\d+/.exec(JSON.parse(readFileSync(repositoryPath('package.json'), 'utf8')).engines.node)![0]);

/** The first `node` on PATH older than the needed one, if the machine has one. */
function olderNode(): { path: string; version: string } | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const path = join(dir, 'node');
    if (!dir || !existsSync(path)) continue;
    const version = execFileSync(path, ['--version'], { encoding: 'utf8' }).trim();
    if (Number(version.slice(1).split('.')[0]) < NEEDED) return { path, version };
  }
  return undefined;
}

const older = olderNode();
const folders: string[] = [];
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** An XDG cache folder; `withNode` puts this test's Node where an earlier install would have put the needed one. */
function cache(withNode: boolean): string {
  const folder = mkdtempSync(join(tmpdir(), 'needed-node-'));
  folders.push(folder);
  if (withNode) {
    const bin = join(folder, 'public-cve-records', `node-${NEEDED}`, 'node_modules', 'node', 'bin');
    mkdirSync(bin, { recursive: true });
    symlinkSync(process.execPath, join(bin, 'node'));
  }
  return folder;
}

/** A folder with a stand-in `npm` that installs `node` as the registry's package lays it out (or fails). */
function fakeNpm(fails: boolean): string {
  const folder = mkdtempSync(join(tmpdir(), 'needed-node-npm-'));
  folders.push(folder);
  const script = fails
    ? '#!/bin/sh\necho "npm error network unreachable" >&2\nexit 1\n'
    : `#!/bin/sh\nwhile [ "$1" != "--prefix" ]; do shift; done\nmkdir -p "$2/node_modules/node/bin" && ln -s "${process.execPath}" "$2/node_modules/node/bin/node"\n`;
  writeFileSync(join(folder, 'npm'), script);
  chmodSync(join(folder, 'npm'), 0o755);
  return folder;
}

interface Ran {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function runOlder(args: string[], env: NodeJS.ProcessEnv): Promise<Ran> {
  const child = spawn(older!.path, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal, stdout, stderr })));
}

/** `cve-records serve` under the older Node, in a process group of its own; resolves once it listens. */
async function serveOlder(xdg: string): Promise<{ child: ChildProcess; baseUrl: string; output: () => string; exited: Promise<Ran> }> {
  const child = spawn(older!.path, [BIN, 'serve', '--port', '0'], {
    env: { ...process.env, XDG_CACHE_HOME: xdg },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk));
  const exited = new Promise<Ran>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal, stdout, stderr })));
  const deadline = Date.now() + 30_000;
  const listening = () => /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
  while (!listening() && child.exitCode === null && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  const match = listening();
  if (!match) throw new Error(`the server did not start:\n${stdout}\n${stderr}`);
  return { child, baseUrl: match[1]!, output: () => stdout + stderr, exited };
}

const runningLine = (xdg: string) =>
  `cve-records: Node.js ${older!.version} is older than the ${NEEDED} this project needs: running under Node.js ${NEEDED} from ${join(xdg, 'public-cve-records', `node-${NEEDED}`)}\n`;

describe.skipIf(!older)(`on a Node older than ${NEEDED} (${older?.path ?? 'none on PATH'})`, () => {
  it('cve-records runs again under the cached Node, says so in one line, and passes on the exit code', async () => {
    const xdg = cache(true);
    const help = await runOlder([BIN, 'help'], { XDG_CACHE_HOME: xdg });
    expect(help).toMatchObject({ code: 0, stderr: runningLine(xdg) });
    expect(help.stdout).toContain('Usage: cve-records <command>');
    const unknown = await runOlder([BIN, 'no-such-command'], { XDG_CACHE_HOME: xdg });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown command "no-such-command"');
  });

  it('installs the needed Node with npm into the cache the first time, saying so in one line', async () => {
    const xdg = cache(false);
    const env = { XDG_CACHE_HOME: xdg, PATH: `${fakeNpm(false)}${delimiter}${process.env.PATH}` };
    const first = await runOlder([BIN, 'help'], env);
    const home = join(xdg, 'public-cve-records', `node-${NEEDED}`);
    expect(first.code).toBe(0);
    expect(first.stderr).toBe(
      `cve-records: Node.js ${older!.version} is older than the ${NEEDED} this project needs: installing node@${NEEDED} from the npm registry into ${home} (once), then running under it\n`,
    );
    expect(readdirSync(join(xdg, 'public-cve-records'))).toEqual([`node-${NEEDED}`]); // no half install left beside it
    expect((await runOlder([BIN, 'help'], env)).stderr).toBe(runningLine(xdg));
  });

  it('says why when npm cannot install it, and leaves nothing half installed', async () => {
    const xdg = cache(false);
    const failed = await runOlder([BIN, 'help'], { XDG_CACHE_HOME: xdg, PATH: `${fakeNpm(true)}${delimiter}${process.env.PATH}` });
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('npm error network unreachable');
    expect(failed.stderr).toContain(`could not install node@${NEEDED} with npm (exit 1)`);
    expect(readdirSync(join(xdg, 'public-cve-records'))).toEqual([]);
  });

  it('npm test runs its command with the needed Node first on PATH', async () => {
    const xdg = cache(true);
    const ran = await runOlder([repositoryPath('bin/needed-node.js'), 'node', '-p', 'process.version'], { XDG_CACHE_HOME: xdg });
    expect(ran.code).toBe(0);
    expect(ran.stdout.trim()).toBe(process.version);
  });

  it('serves, and stops gracefully on SIGTERM sent to it alone or on Ctrl-C sent to its whole process group', async () => {
    const xdg = cache(true);
    for (const stop of ['SIGTERM to the launcher', 'SIGINT to the group'] as const) {
      const server = await serveOlder(xdg);
      const health = await fetch(`${server.baseUrl}/api/v1/health`);
      expect(health.status).toBe(200);
      await health.body?.cancel();
      if (stop === 'SIGTERM to the launcher') server.child.kill('SIGTERM');
      else process.kill(-server.child.pid!, 'SIGINT'); // the launcher and the server both get it, as from a terminal
      const ended = await server.exited;
      expect(ended, `${stop}:\n${server.output()}`).toMatchObject({ code: 0, signal: null });
      expect(server.output()).toContain('stopping: finishing requests in flight');
    }
  }, 90_000);
});
