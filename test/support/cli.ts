import { type ChildProcess, spawn } from 'node:child_process';
import { delimiter, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../../bin/cve-records.js', import.meta.url));

/**
 * Every CLI process started here that has not exited: killed when the test process ends, so a test that
 * timed out (a slow machine) leaves no server or sync running after the suite (a loaded CI run left six).
 */
const children = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

function tracked<Child extends ChildProcess>(child: Child): Child {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

export interface Running {
  child: ChildProcess;
  baseUrl: string;
  output: () => string;
  stop: () => Promise<number | null>;
}

/**
 * Starts `cve-records serve` on a free port and resolves once it listens: with this test's Node, or, as
 * `asProgram`, by running the program file itself as operators do (its first line names Node and its flags).
 */
export function startServer(args: string[] = [], env: NodeJS.ProcessEnv = {}, { asProgram = false } = {}): Promise<Running> {
  const serveArgs = ['serve', '--port', '0', ...args];
  // The program finds `node` on the PATH: this test's own comes first.
  const path = `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}`;
  const child = tracked(
    spawn(asProgram ? BIN : process.execPath, asProgram ? serveArgs : [BIN, ...serveArgs], {
      env: { ...process.env, ...(asProgram ? { PATH: path } : {}), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL'); // not left to start later, unseen, after the test has failed
      reject(new Error(`server did not start:\n${output}`));
      // Generous: the whole suite on two cores starts servers side by side (a fresh clone's CI once took
      // more than 20 s for one, at a load average of 9); a server that cannot start still fails the test.
    }, 45_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({
          child,
          baseUrl: match[1]!,
          output: () => output,
          stop: () =>
            new Promise((done) => {
              child.once('exit', (code) => done(code));
              child.kill('SIGTERM');
            }),
        });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
}

/** Runs the CLI to completion. */
export function runCli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = tracked(spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] }));
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
}
