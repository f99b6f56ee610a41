// A cvelistV5 checkout as an upstream (kept current by `git pull`, by the operator or a timer): the first
// sync reads its whole `cves/` tree; each later one reads only the record files changed between the last
// commit applied and HEAD. Deleted files change nothing (upstream never deletes a published record; a
// rejection is a changed file). A cursor commit the checkout no longer has (a re-clone, a rewritten history)
// falls back to the whole tree, which the merge makes harmless.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { readInputs } from '../inputs.js';
import { type Upstream, UpstreamError, type UpstreamStep } from './upstream.js';

const run = promisify(execFile);
const RECORDS_DIR = 'cves';
/** A diff of a month of upstream changes names tens of thousands of files. */
const MAX_OUTPUT_BYTES = 256 * 1024 * 1024;

export function checkout(dir: string): Upstream {
  const git = async (...args: string[]): Promise<string> => {
    try {
      return (await run('git', ['-C', dir, ...args], { maxBuffer: MAX_OUTPUT_BYTES, encoding: 'utf8' })).stdout;
    } catch (error) {
      throw new UpstreamError(`git ${args[0]} in ${dir} failed: ${(error as Error).message.split('\n')[0]}`);
    }
  };
  const hasCommit = (commit: string) =>
    git('cat-file', '-e', `${commit}^{commit}`).then(
      () => true,
      () => false,
    );

  return {
    name: dir,
    async *steps(cursor) {
      const head = (await git('rev-parse', 'HEAD')).trim();
      if (head === cursor?.commit) return;
      const since = cursor?.commit !== undefined && (await hasCommit(cursor.commit)) ? cursor.commit : undefined;
      const step: UpstreamStep = since
        ? {
            label: `${since.slice(0, 12)}..${head.slice(0, 12)}`,
            whole: false,
            entries: async function* () {
              const changed = (await git('diff', '--name-only', '--diff-filter=AMR', '-z', since, head, '--', RECORDS_DIR))
                .split('\0')
                .filter((path) => path.endsWith('.json'));
              yield* readInputs(changed.map((path) => join(dir, path)));
            },
            reaches: { commit: head },
            release: async () => {},
          }
        : {
            label: `${RECORDS_DIR}/ at ${head.slice(0, 12)}`,
            whole: true,
            entries: () => readInputs([join(dir, RECORDS_DIR)]),
            reaches: { commit: head },
            release: async () => {},
          };
      yield step;
    },
  };
}
