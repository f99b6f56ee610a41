// The Node.js this project needs (package.json "engines"), for whatever Node started the command.
// `npm start`, `npx cve-records …` and `npm test` must work on a machine with an older Node and npm: there
// the command runs again under the needed major, taken from the npm registry's `node` package (which ships
// the binary) into a cache outside the clone, so the machine's own Node is left as it is. Plain JavaScript
// that any Node with npm parses and runs.
//
// As a program: `node bin/needed-node.js <command> [args…]` runs the command with the needed Node first
// on PATH (`npm test` runs its steps so).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ENGINES = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).engines.node;
const NEEDED_MAJOR = Number(/^>=\s*(\d+)$/.exec(ENGINES)?.[1]);
if (!Number.isInteger(NEEDED_MAJOR)) throw new Error(`package.json engines.node is "${ENGINES}"; this file reads ">=N"`);

/** True when the running Node is the needed major or later. */
export const runsNeededNode = () => Number(process.versions.node.split('.')[0]) >= NEEDED_MAJOR;

/** Where the needed Node is kept: `$XDG_CACHE_HOME/public-cve-records/node-<major>` (~/.cache by default). */
function cacheDirectory() {
  return join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'public-cve-records', `node-${NEEDED_MAJOR}`);
}

/**
 * The folder of the needed Node's binary, installed on first use. Says what it does in one line on stderr,
 * named for the command (`who`); ends the process, saying why, when npm cannot install it.
 */
function neededNodeBin(who) {
  const home = cacheDirectory();
  const bin = join(home, 'node_modules', 'node', 'bin');
  const older = `${who}: Node.js ${process.version} is older than the ${NEEDED_MAJOR} this project needs`;
  if (existsSync(join(bin, 'node'))) {
    process.stderr.write(`${older}: running under Node.js ${NEEDED_MAJOR} from ${home}\n`);
    return bin;
  }
  process.stderr.write(`${older}: installing node@${NEEDED_MAJOR} from the npm registry into ${home} (once), then running under it\n`);
  // Installed beside and renamed into place, so that two commands starting at once never run half an install.
  const partial = `${home}.partial-${process.pid}`;
  mkdirSync(partial, { recursive: true });
  const npm = spawnSync(
    'npm',
    [
      'install',
      '--prefix',
      partial,
      '--no-save',
      '--no-package-lock',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      `node@${NEEDED_MAJOR}`,
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  if (npm.status !== 0 || !existsSync(join(partial, 'node_modules', 'node', 'bin', 'node'))) {
    rmSync(partial, { recursive: true, force: true });
    process.stderr.write(`${who}: could not install node@${NEEDED_MAJOR} with npm (${npm.error?.message ?? `exit ${npm.status}`})\n`);
    process.exit(1);
  }
  try {
    renameSync(partial, home);
  } catch (error) {
    rmSync(partial, { recursive: true, force: true });
    if (!existsSync(join(bin, 'node'))) throw error; // else another command installed it first
  }
  return bin;
}

/** Signals a command is stopped or reloaded by, passed on to the command running under the needed Node. */
const RELAYED = ['SIGTERM', 'SIGINT', 'SIGHUP'];

/**
 * Runs `command args` with `binDirectory` first on PATH, and ends this process as the command ends (its
 * exit code, or the signal that ended it). Never returns.
 */
function runWithNodeFirst(binDirectory, command, args) {
  const env = binDirectory ? { ...process.env, PATH: `${binDirectory}${delimiter}${process.env.PATH ?? ''}` } : process.env;
  const child = spawn(command, args, { stdio: 'inherit', env });
  // A signal sent to this process alone is passed on; one sent to the process group (Ctrl-C in a terminal)
  // reaches the command twice, which cve-records treats as once.
  for (const signal of RELAYED) process.on(signal, () => child.kill(signal));
  child.once('error', (error) => {
    process.stderr.write(`${command}: ${error.message}\n`);
    process.exit(127);
  });
  child.once('exit', (code, signal) => {
    if (signal === null) process.exit(code ?? 1);
    for (const relayed of RELAYED) process.removeAllListeners(relayed);
    process.kill(process.pid, signal);
  });
  return new Promise(() => {});
}

/** Runs this Node program again under the needed Node, with the same flags and arguments. Never returns. */
export function rerunUnderNeededNode(who, programFile) {
  const bin = neededNodeBin(who);
  return runWithNodeFirst(bin, join(bin, 'node'), [...process.execArgv, programFile, ...process.argv.slice(2)]);
}

if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [command, ...args] = process.argv.slice(2);
  if (!command) {
    process.stderr.write('usage: node bin/needed-node.js <command> [args…]\n');
    process.exit(2);
  }
  await runWithNodeFirst(runsNeededNode() ? undefined : neededNodeBin('public-cve-records'), command, args);
}
