// The projects an agent is pointed at when the project it named, or its whole question, matches nothing:
// the names the text or one of its words begins or misspells, most records first, read from no more of
// the text than a search reads (issue 24, item 1).
import { describe, expect, it } from 'vitest';
import type { CatalogRecord } from '../../src/contract/index.js';
import { closestProjects } from '../../src/core/project-list.js';
import { createSnapshot } from '../../src/core/snapshot.js';

const record = (n: number, project: string): CatalogRecord => ({
  id: `CVE-2025-${1000 + n}`,
  project,
  status: 'public',
  url: `https://www.cve.org/CVERecord?id=CVE-2025-${1000 + n}`,
});
const counts: Record<string, number> = { OpenSSL: 3, OpenSSH: 2, 'OpenSC Smart Card': 1, curl: 4, Linux: 1 };
const snapshot = createSnapshot({
  lastVerified: '2025-01-24',
  projects: [{ name: 'Linux', aliases: ['Linux kernel'] }],
  records: Object.entries(counts).flatMap(([project, count], p) => Array.from({ length: count }, (_, i) => record(p * 10 + i, project))),
});
/** Distinct words that name nothing. */
const unknown = (count: number) => Array.from({ length: count }, (_, i) => `zq${i}xv`).join(' ');

describe('closestProjects', () => {
  it('names the projects a text or its words begin, alias or misspell, most records first', async () => {
    expect(await closestProjects(snapshot, 'open', 5)).toEqual(['OpenSSL', 'OpenSSH', 'OpenSC Smart Card']);
    expect(await closestProjects(snapshot, 'open', 2)).toEqual(['OpenSSL', 'OpenSSH']);
    expect(await closestProjects(snapshot, 'is there anything for opnessl or curll', 5)).toEqual(['curl', 'OpenSSL']);
    expect(await closestProjects(snapshot, 'LINUX KERNEL', 5)).toEqual(['Linux']);
    expect(await closestProjects(snapshot, unknown(3), 5)).toEqual([]);
  });

  it('reads the first 32 distinct words of the first 512 characters, as a search does, whatever the text holds', async () => {
    // Repeated words are read once: the name after them is still among the first 32.
    expect(await closestProjects(snapshot, `${'zq '.repeat(150)}curl`, 5)).toEqual(['curl']);
    // But not a name after 32 other words, or after 512 characters.
    expect(await closestProjects(snapshot, `${unknown(32)} curl`, 5)).toEqual([]);
    expect(await closestProjects(snapshot, `${unknown(31)} curl`, 5)).toEqual(['curl']);
    expect(await closestProjects(snapshot, `${'z'.repeat(512)} curl`, 5)).toEqual([]);
  });
});
