// The layers of docs/ARCHITECTURE.md, read from the import lines of src/: the contract imports nothing of
// the project, the core nothing outside it and the contract, each surface only the shared floor, the
// edge, the core and the contract (never another surface), and no file imports itself around a circle.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repositoryPath } from './support/paths.js';

const SRC = repositoryPath('src');
const SURFACES = ['rest', 'ask', 'mcp', 'a2a', 'web', 'discovery', 'feeds'] as const;
/** Leaf modules every layer may read: the settings' types and the service's version. */
const LEAVES = ['config.ts', 'version.ts'];

/** Every module of src/ (path relative to src/) with the modules of src/ it imports, type imports included. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const entry of readdirSync(SRC, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
    const file = relative(SRC, join(entry.parentPath, entry.name));
    const text = readFileSync(join(SRC, file), 'utf8');
    const targets = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s+'(\.[^']+)'|import\(\s*'(\.[^']+)'\s*\)/g)]
      .map((match) => match[1] ?? match[2]!)
      .map((specifier) => normalize(join(dirname(file), specifier.replace(/\.js$/, '.ts'))));
    graph.set(file, targets);
  }
  return graph;
}

/** The layer a module belongs to, e.g. `contract`, `core`, `http/mcp`, `http/server.ts`. */
function layerOf(file: string): string {
  const parts = file.split('/');
  if (parts[0] === 'http') return parts.length > 2 ? `http/${parts[1]}` : file;
  return parts.length > 1 ? parts[0]! : file;
}

/** What each layer may import, besides itself and the leaves. */
function allowed(layer: string): (target: string) => boolean {
  const is =
    (...layers: string[]) =>
    (target: string) =>
      layers.includes(layerOf(target));
  if (layer === 'contract') return is();
  if (layer === 'core' || layer === 'import') return is('contract', 'core');
  if (layer === 'catalog') return is('contract', 'core');
  if (layer === 'sources') return is('contract', 'core', 'catalog');
  if (layer === 'http/shared') return is('contract', 'core');
  if (layer === 'http/edge') return is('contract', 'core', 'http/shared');
  if ((SURFACES as readonly string[]).some((surface) => layer === `http/${surface}`))
    return is('contract', 'core', 'http/shared', 'http/edge');
  return () => true; // the assembly (http/server.ts) and the command line (cli/) put the layers together
}

const graph = importGraph();

describe('the layers of src/, from its import lines', () => {
  it('finds the modules and their imports', () => {
    expect(graph.size).toBeGreaterThan(80);
    expect(graph.get('http/server.ts')).toContain('http/mcp/mcp-surface.ts');
  });

  it('every import resolves to a module of src/', () => {
    const dangling = [...graph].flatMap(([file, targets]) =>
      targets.filter((target) => !graph.has(target)).map((target) => `${file} -> ${target}`),
    );
    expect(dangling).toEqual([]);
  });

  it('no layer imports what it must not: the contract nothing, the core no outer layer, no surface another surface', () => {
    const violations = [...graph].flatMap(([file, targets]) => {
      const layer = layerOf(file);
      const ok = allowed(layer);
      return targets
        .filter((target) => layerOf(target) !== layer && !LEAVES.includes(target) && !ok(target))
        .map((target) => `${file} -> ${target}`);
    });
    expect(violations).toEqual([]);
  });

  it('the leaves import nothing of the project', () => {
    for (const leaf of LEAVES) expect(graph.get(leaf), leaf).toEqual([]);
  });

  it('has no import circle between files', () => {
    const cycles: string[][] = [];
    const state = new Map<string, 'open' | 'done'>();
    const stack: string[] = [];
    const visit = (file: string): void => {
      state.set(file, 'open');
      stack.push(file);
      for (const target of graph.get(file) ?? []) {
        if (state.get(target) === 'open') cycles.push([...stack.slice(stack.indexOf(target)), target]);
        else if (!state.has(target)) visit(target);
      }
      stack.pop();
      state.set(file, 'done');
    };
    for (const file of graph.keys()) if (!state.has(file)) visit(file);
    expect(cycles.map((cycle) => cycle.join(' -> '))).toEqual([]);
  });
});
