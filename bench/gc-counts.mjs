// Preloaded into the layers bench's servers (`node --import ./gc-counts.mjs`): the collections the process
// has made so far, young and full, with their pause time, written to stderr as one line when the process
// gets SIGUSR2. The bench reads it before and after each measured window (layers.ts), so that a row's CPU
// per request can be told apart from the collections that fell in its seconds (docs/PERFORMANCE.md, "Hot
// path, stop 36"). Node's own `--trace-gc` lines cannot do this: written through a buffered stdout, they
// reach a pipe seconds after the collection.
import { constants, PerformanceObserver } from 'node:perf_hooks';

const counts = { young: 0, youngMs: 0, full: 0, fullMs: 0 };
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    if (entry.detail?.kind === constants.NODE_PERFORMANCE_GC_MINOR) {
      counts.young++;
      counts.youngMs += entry.duration;
    } else if (entry.detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) {
      counts.full++;
      counts.fullMs += entry.duration;
    }
  }
}).observe({ entryTypes: ['gc'] });
process.on('SIGUSR2', () => process.stderr.write(`gc-counts ${JSON.stringify(counts)}\n`));
