// The deployment's own processes (replicas, the sync, the proxy): spawned with their output kept (but for
// per-request log lines, which would fill memory under load), waited for by a line, killed by signal.
import { type ChildProcess, spawn } from 'node:child_process';
import { BIN } from '../cli.js';

export interface Process {
  readonly child: ChildProcess;
  /** What it printed so far, request log lines left out. */
  output(): string;
  /** Resolves once its output (from the start) matches `pattern`; rejects if it exits first or `timeoutMs` passes. */
  waitFor(pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray>;
  /** Sends `signal` and resolves once it has exited. */
  kill(signal: NodeJS.Signals): Promise<void>;
  readonly exited: Promise<void>;
}

const REQUEST_LINE = /"(incoming request|request completed)"/;

export function spawnProcess(file: string, args: string[], env: NodeJS.ProcessEnv = {}): Process {
  const child = spawn(file, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  let partial = '';
  const waiters = new Set<() => void>();
  const take = (chunk: Buffer) => {
    const lines = (partial + chunk.toString()).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) if (!REQUEST_LINE.test(line)) output += `${line}\n`;
    for (const check of waiters) check();
  };
  child.stdout!.on('data', take);
  child.stderr!.on('data', take);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  return {
    child,
    output: () => output + partial,
    exited,
    waitFor(pattern, timeoutMs) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => finish(new Error(`no ${pattern} within ${timeoutMs} ms:\n${output.slice(-4000)}`)), timeoutMs);
        const finish = (error?: Error, match?: RegExpExecArray) => {
          clearTimeout(timer);
          waiters.delete(check);
          if (error) reject(error);
          else resolve(match!);
        };
        const check = () => {
          const match = pattern.exec(output + partial);
          if (match) finish(undefined, match);
          else if (gone()) finish(new Error(`exited (${child.exitCode ?? child.signalCode}) before ${pattern}:\n${output.slice(-4000)}`));
        };
        waiters.add(check);
        void exited.then(check);
        check();
      });
    },
    async kill(signal) {
      if (!gone()) child.kill(signal);
      await exited;
    },
  };
}

/** `cve-records <args>` with this Node. */
export const spawnCli = (args: string[], env: NodeJS.ProcessEnv = {}): Process => spawnProcess(process.execPath, [BIN, ...args], env);
