// Whether a run was quiet. On a shared machine req/s measure the neighbours as much as the service, so every
// wrk run records the load average before and after and how much of a core other processes held meanwhile;
// a section's table is marked "noisy" when either is over its bound, and only quiet runs are figures
// (docs/PERFORMANCE.md). CPU time per request (from /proc) and instructions per request (instructions.ts)
// are printed beside req/s: the first moves little with the load, the second not at all.
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';

/** A run is noisy above this one-minute load average... */
export const MAX_LOAD_AVERAGE = 1.0;
/** ...or when processes other than the server, wrk and this one held more than this share of a core. */
export const MAX_OTHERS_CORE_SHARE = 0.1;

/** Clock ticks (USER_HZ) of user, nice and system time of all cores; softirq time (the loopback's) left out. */
function busyTicks(): number {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/).slice(1).map(Number);
  return fields[0]! + fields[1]! + fields[2]!;
}

/** User + system clock ticks a process has used so far; 0 once it is gone. */
export function processTicks(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

function ownTicks(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 10_000;
}

export interface Quietness {
  loadBefore: number;
  loadAfter: number;
  /** Share of a core (1 = one whole core) that processes outside the measurement held during it. */
  othersCoreShare: number;
}

/**
 * Starts watching; `finish` is given the clock ticks the measured processes (server, load generator) used
 * meanwhile, and returns how quiet the machine was.
 */
export function watchQuietness(): { finish(measuredTicks: number): Quietness } {
  const loadBefore = loadavg()[0]!;
  const busy = busyTicks();
  const own = ownTicks();
  const started = performance.now();
  return {
    finish(measuredTicks: number): Quietness {
      const seconds = (performance.now() - started) / 1000;
      const others = busyTicks() - busy - measuredTicks - (ownTicks() - own);
      return { loadBefore, loadAfter: loadavg()[0]!, othersCoreShare: Math.max(0, others / 100 / seconds) };
    },
  };
}

export function isNoisy(q: Quietness): boolean {
  return Math.max(q.loadBefore, q.loadAfter) > MAX_LOAD_AVERAGE || q.othersCoreShare > MAX_OTHERS_CORE_SHARE;
}

/** Every measurement of this process so far, for the section's verdict. */
const seen: Quietness[] = [];

export function record(q: Quietness): void {
  seen.push(q);
}

/**
 * The lines that go under a section's heading: load average at its first and last measurement, the
 * largest share other processes held, and a warning when the section was noisy. Starts a new section.
 */
export function quietnessVerdict(): { noisy: boolean; text: string } {
  const runs = seen.splice(0);
  if (runs.length === 0) return { noisy: false, text: '' };
  const noisy = runs.some(isNoisy);
  const worstOthers = Math.max(...runs.map((q) => q.othersCoreShare));
  const worstLoad = Math.max(...runs.map((q) => Math.max(q.loadBefore, q.loadAfter)));
  const text =
    `load average ${runs[0]!.loadBefore.toFixed(2)} before, ${runs.at(-1)!.loadAfter.toFixed(2)} after (highest ${worstLoad.toFixed(2)}); ` +
    `other processes held up to ${(worstOthers * 100).toFixed(0)}% of a core` +
    (noisy
      ? `\n**NOISY: load average over ${MAX_LOAD_AVERAGE} or others over ${MAX_OTHERS_CORE_SHARE * 100}% of a core. These req/s are not figures; rerun on a quiet machine (CPU and instructions per request hold better).**`
      : ' (quiet)');
  return { noisy, text };
}

/** A section heading, marked "(noisy)" when the measurements under it were, followed by the verdict. */
export function heading(title: string, level = 3): string {
  const { noisy, text } = quietnessVerdict();
  return `\n${'#'.repeat(level)} ${title}${noisy ? ' (noisy)' : ''}\n\n${text}\n`;
}
