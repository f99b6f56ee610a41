// The `cve-records` command.
import { CatalogError } from '../catalog/json/catalog-file.js';
import { DatabaseError } from '../catalog/postgres/database.js';
import { boundHeapGrowth } from './batch-heap.js';
import { parseServeOptions, serveHelp, UsageError } from './serve-options.js';

// Each command's modules are loaded when it runs: a sync step is a process of its own, and loading the server
// with it (Fastify, the surfaces, their schemas) cost it half a second of CPU and 20 MB more of heap, whose
// full collection then fell in the step (docs/PERFORMANCE.md, "The sync step and the start, stop 38").

const USAGE = `Usage: cve-records <command> [options]

Commands:
  serve       serve the public CVE records API (the default)
  import      import CVE JSON 5 records into a catalog file or PostgreSQL
  sync        apply upstream changes (release zips, a URL, a cvelistV5 checkout) to a catalog, once or --follow
  validate    check a catalog file and print every problem
  db migrate  create or upgrade the PostgreSQL schema

Run "cve-records <command> --help" for the options of a command.
`;

export async function main(argv: string[]): Promise<number> {
  const [command = 'serve', ...rest] = argv[0]?.startsWith('-') ? ['serve', ...argv] : argv;
  try {
    switch (command) {
      case 'serve': {
        const config = parseServeOptions(rest, process.env);
        if (config === 'help') {
          process.stdout.write(serveHelp());
          return 0;
        }
        const { isClusterWorker, runPrimary } = await import('./cluster.js');
        if (config.workers > 1 && !isClusterWorker()) return await runPrimary(config);
        const { serve, stopGracefully } = await import('./serve.js');
        const app = await serve(config);
        let stopping = false;
        // SIGINT from a terminal reaches every worker as well as the primary's SIGTERM, and on an older Node
        // a signal to the group reaches this process directly and through bin/needed-node.js: stop once,
        // and a signal repeated while stopping is not the default action (exit at once).
        const stop = (): void => {
          if (stopping) return;
          stopping = true;
          void stopGracefully(app, config.timeouts.shutdownMs).then(
            () => process.exit(0),
            (error: unknown) => {
              process.stderr.write(`cve-records: error while stopping: ${String(error)}\n`);
              process.exit(1);
            },
          );
        };
        process.on('SIGTERM', stop);
        process.on('SIGINT', stop);
        return -1;
      }
      case 'import':
        boundHeapGrowth();
        return await (await import('./import-command.js')).runImport(rest, process.env);
      case 'sync':
        return await (await import('./sync-command.js')).runSync(rest, process.env);
      case 'validate':
        return await (await import('./catalog-commands.js')).runValidate(rest);
      case 'db':
        return await (await import('./catalog-commands.js')).runDb(rest, process.env);
      case 'help':
      case '--help':
        process.stdout.write(USAGE);
        return 0;
      default:
        process.stderr.write(`cve-records: unknown command "${command}"\n\n${USAGE}`);
        return 2;
    }
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`cve-records ${command}: ${(error as Error).message}\n`);
      return 2;
    }
    if (error instanceof DatabaseError) {
      process.stderr.write(`cve-records: ${error.message}\n`);
      return 1;
    }
    if (error instanceof CatalogError) {
      process.stderr.write(`cve-records: cannot serve the catalog\n${error.message}\n`);
      return 1;
    }
    throw error;
  }
}
