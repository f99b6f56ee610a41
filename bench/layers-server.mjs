// The service built by its own code (http/server.js's buildServer, the catalog loaded as `serve` loads it)
// with only some of the edge's layers, for the ablation benchmark (layers.ts):
//   node bench/layers-server.mjs <layer,layer,...|none> <serve options>
// The layers are those of EDGE_LAYERS; "none" is the REST routes alone. It prints the line the benchmarks
// wait for once its snapshot is fully prepared (search index and derived tables), so that no preparation
// runs between measured requests, and, given --expose-gc, once what the start left is collected.

import { openSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { parseServeOptions } from '../dist/cli/serve-options.js';
import { serviceLog } from '../dist/cli/service-log.js';
import { createCursorCodec } from '../dist/core/cursor.js';
import { prepareSnapshot } from '../dist/core/snapshot.js';
import { SnapshotStore } from '../dist/core/snapshot-store.js';
import { buildServer, EDGE_LAYERS } from '../dist/http/server.js';
import { loadSnapshot } from '../dist/sources/catalog-source.js';
import { fileSource } from '../dist/sources/file-source.js';

const [names = '', ...args] = process.argv.slice(2);
const layers = new Set(names === 'none' ? [] : names.split(','));
for (const layer of layers) if (!EDGE_LAYERS.includes(layer)) throw new Error(`unknown layer "${layer}" (${EDGE_LAYERS.join(', ')})`);
const config = parseServeOptions(args, process.env);
// The log, request lines included, is written as the service writes it, but to /dev/null rather than to the
// bench's pipe: when the bench process, sharing the two cores with wrk and the server, fell behind, the full
// pipe made the log's writes wait (EAGAIN, retried 100 ms later), the lines held meanwhile outlived two
// scavenges, and about 170 bytes a request were promoted against 20 to 30 for a log written to a file,
// full collections following at 340,000 records (docs/PERFORMANCE.md, "Hot path, stop 36").
const log = serviceLog(config.logLevel, Object.assign(new PassThrough(), { fd: openSync('/dev/null', 'w') }));
setInterval(() => log.flush(), 1000).unref();
const snapshot = await loadSnapshot(fileSource(config.recordsFile));
await prepareSnapshot(snapshot);
const store = new SnapshotStore(snapshot);
const app = await buildServer({ config, store, cursors: createCursorCodec(config.cursorSecret) }, { logger: log.logger, layers });
// The start's garbage (the catalog's parse, the index builds) collected now, when the bench starts the server
// with --expose-gc: its first full collection, the costliest, would otherwise fall in a measured window.
globalThis.gc?.();
await app.listen({ host: '127.0.0.1', port: 0 });
console.log(`Server listening at http://127.0.0.1:${app.server.address().port}`);
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
