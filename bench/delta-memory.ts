// What applying many small changes allocates, in process and independent of the machine's load: a
// synthetic catalog's snapshot takes DELTA_COUNT changes of DELTA_RECORDS records each (half changed, half
// new ids), each prepared and served as a server does (its search overlay merged when large), and every
// typed array allocated meanwhile is counted by the line of src/ that made it. Then the process's memory
// after full collections, every DELTA_EVERY changes and at the end against after the first change.
//   node --expose-gc --import tsx bench/delta-memory.ts   (DELTA_CATALOG=340000 DELTA_COUNT=100 DELTA_RECORDS=500)
import { readFileSync } from 'node:fs';
import type { CatalogRecord } from '../src/contract/index.js';
import { createSnapshot, prepareSnapshot, type Snapshot } from '../src/core/snapshot.js';
import { applyChange } from '../src/core/snapshot-delta.js';
import { SnapshotStore } from '../src/core/snapshot-store.js';
import { syntheticRecord } from './synthetic-catalog.js';

const size = Number(process.env.DELTA_CATALOG ?? 340_000);
const count = Number(process.env.DELTA_COUNT ?? 100);
const every = Number(process.env.DELTA_EVERY ?? 10);
const perDelta = Number(process.env.DELTA_RECORDS ?? 500);
const merging = process.env.DELTA_MERGE !== '0';
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with node --expose-gc');

/** Bytes of typed arrays allocated, by the first frame of src/ that allocated them. */
const allocated = new Map<string, number>();
let counting = false;
const counted = <T extends new (...args: never[]) => ArrayBufferView>(Base: T): T => {
  const Counting = class extends (Base as unknown as new (...args: unknown[]) => ArrayBufferView) {
    constructor(...args: unknown[]) {
      super(...args);
      // A view on an existing buffer allocates nothing.
      if (counting && !(args[0] instanceof ArrayBuffer || args[0] instanceof SharedArrayBuffer)) {
        const site =
          new Error().stack
            ?.split('\n')
            .find((line) => line.includes('/src/'))
            ?.replace(/^.*\/src\//, '')
            .replace(/\)$/, '') ?? 'elsewhere';
        allocated.set(site, (allocated.get(site) ?? 0) + this.byteLength);
      }
    }
  };
  return Counting as unknown as T;
};
for (const name of ['Int32Array', 'Uint32Array', 'Uint16Array', 'Uint8Array', 'Float64Array', 'BigUint64Array', 'Float32Array'] as const) {
  (globalThis as Record<string, unknown>)[name] = counted(globalThis[name] as never);
}

const mb = (bytes: number) => (bytes / 1048576).toFixed(1);
const memory = () => {
  gc();
  gc();
  const usage = process.memoryUsage();
  // Where the resident memory is: malloc's main arena, and anonymous mappings (V8's heap, large blocks, other arenas).
  let arena = 0;
  let anonymous = 0;
  let inArena = false;
  let inAnonymous = false;
  for (const line of readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
    const mapping = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ (\d+)\s*(.*)$/.exec(line);
    if (mapping) {
      inArena = mapping[2] === '[heap]';
      inAnonymous = mapping[1] === '0' && mapping[2] === '';
    } else if (line.startsWith('Rss:')) {
      const kb = Number(line.split(/\s+/)[1]) * 1024;
      if (inArena) arena += kb;
      if (inAnonymous) anonymous += kb;
    }
  }
  return {
    rss: usage.rss,
    heap: usage.heapUsed,
    heapTotal: usage.heapTotal,
    external: usage.external,
    arrayBuffers: usage.arrayBuffers,
    arena,
    anonymous,
  };
};

const records = Array.from({ length: size }, (_, i) => syntheticRecord(i));
let snapshot: Snapshot = createSnapshot({ lastVerified: '2025-01-24', records });
await prepareSnapshot(snapshot);
const store = new SnapshotStore(snapshot);

function delta(n: number): CatalogRecord[] {
  const changed = Array.from({ length: perDelta / 2 }, (_, i) => {
    const record = syntheticRecord((n * 7919 + i * 613) % size);
    return { ...record, summary: `${record.summary} (changed ${n})`, modified: `2026-01-01T${String(n % 24).padStart(2, '0')}:00:00.000Z` };
  });
  const fresh = Array.from({ length: perDelta / 2 }, (_, i) => ({ ...syntheticRecord(i), id: `CVE-2026-${1_000_000 + n * 1000 + i}` }));
  return [...changed, ...fresh];
}

const show = (m: ReturnType<typeof memory>) =>
  `rss ${mb(m.rss)} MB ([heap] ${mb(m.arena)}, anonymous ${mb(m.anonymous)}), V8 heap ${mb(m.heap)} of ${mb(m.heapTotal)}, arrayBuffers ${mb(m.arrayBuffers)}`;
let first: ReturnType<typeof memory> | undefined;
const perChange: number[] = [];
for (let n = 0; n < count; n++) {
  allocated.clear();
  counting = true;
  snapshot = applyChange(snapshot, { sequence: n + 1, lastVerified: '2025-01-24', upserted: delta(n), removed: [] });
  await prepareSnapshot(snapshot);
  counting = false;
  // Served as a server serves it: an overlay grown large is merged (in steps) before the next change.
  if (merging) {
    store.replace(snapshot);
    await store.merging;
    snapshot = store.current;
  }
  perChange.push([...allocated.values()].reduce((a, b) => a + b, 0));
  if ((n + 1) % every === 0) console.log(`after change ${n + 1}: ${show(memory())}`);
  if (n === 0) {
    first = memory();
    const sites = [...allocated].sort((a, b) => b[1] - a[1]).slice(0, 20);
    console.log(`typed arrays allocated by one change of ${perDelta} records at ${size}: ${mb(perChange[0]!)} MB`);
    for (const [site, bytes] of sites) console.log(`  ${mb(bytes).padStart(7)} MB  ${site}`);
  }
}
const last = memory();
console.log(`per change: ${perChange.map((bytes) => mb(bytes)).join(' ')} MB`);
console.log(`after change 1:   ${show(first!)}`);
console.log(`after change ${count}: ${show(last)} (rss ${(((last.rss - first!.rss) / first!.rss) * 100).toFixed(0)}%)`);
if (process.env.DELTA_MAPS === '1') {
  // The largest resident mappings: malloc's thread arenas are 64 MB-aligned mappings of up to 64 MB.
  const maps: { line: string; size: number; rss: number }[] = [];
  let current: { line: string; size: number; rss: number } | undefined;
  for (const line of readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
    if (/^[0-9a-f]+-[0-9a-f]+ /.test(line)) {
      current = { line, size: 0, rss: 0 };
      maps.push(current);
    } else if (current && line.startsWith('Size:')) current.size = Number(line.split(/\s+/)[1]);
    else if (current && line.startsWith('Rss:')) current.rss = Number(line.split(/\s+/)[1]);
  }
  for (const map of maps.sort((a, b) => b.rss - a.rss).slice(0, 25))
    console.log(`${(map.rss / 1024).toFixed(1).padStart(7)} MB of ${(map.size / 1024).toFixed(1).padStart(7)}  ${map.line}`);
}
