// A steady load of reads through the proxy, every answer checked: a record (four in five requests) or the
// first page of the list (the fifth), each record in it one of the versions that existed (dataset.ts). Each
// request names a random client address (X-Forwarded-For, which the replicas believe of the proxy), so the
// load spends no single address's budget.
import { Agent, request } from 'undici';
import type { Dataset } from './dataset.js';

export interface Outcome {
  /** When it was sent (ms since the epoch). */
  readonly at: number;
  readonly result: 'ok' | 'failed' | 'wrong';
  /** Why it failed or was wrong. */
  readonly why?: string;
}

export interface Load {
  readonly outcomes: Outcome[];
  stop(): Promise<void>;
}

const randomAddress = () => `198.18.${Math.floor(Math.random() * 256)}.${Math.floor(Math.random() * 256)}`;

/** `pauseMs` between one client's answer and its next request: a steady load that leaves the cores room. */
export function startLoad(proxyUrl: string, dataset: Dataset, clients: number, { pauseMs = 0 } = {}): Load {
  const outcomes: Outcome[] = [];
  const dispatcher = new Agent({ connections: clients, keepAliveTimeout: 5000 });
  let stopping = false;
  const one = async (): Promise<Outcome> => {
    const at = Date.now();
    const listing = Math.random() < 0.2;
    const id = dataset.ids[Math.floor(Math.random() * dataset.ids.length)]!;
    const path = listing ? '/api/v1/cve-records?limit=20' : `/api/v1/cve-records/${id}`;
    try {
      const response = await request(`${proxyUrl}${path}`, {
        dispatcher,
        headers: { 'x-forwarded-for': randomAddress() },
        headersTimeout: 10_000,
        bodyTimeout: 10_000,
      });
      const text = await response.body.text();
      if (response.statusCode !== 200) return { at, result: 'failed', why: `${response.statusCode} ${text.slice(0, 160)}` };
      const body = JSON.parse(text) as { id?: unknown; project?: unknown; status?: unknown; records?: Array<Record<string, unknown>> };
      const problems = listing
        ? (body.records ?? []).map((record) => dataset.wrong(String(record.id), record)).filter(Boolean)
        : [dataset.wrong(id, body)].filter(Boolean);
      if (listing && (body.records?.length ?? 0) !== 20) problems.push(`a page of ${body.records?.length} records`);
      return problems.length > 0 ? { at, result: 'wrong', why: problems.join('; ') } : { at, result: 'ok' };
    } catch (error) {
      return { at, result: 'failed', why: `${(error as { code?: string }).code ?? ''} ${(error as Error).message}` };
    }
  };
  const loops = Array.from({ length: clients }, async () => {
    while (!stopping) {
      outcomes.push(await one());
      if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
  });
  return {
    outcomes,
    async stop() {
      stopping = true;
      await Promise.all(loops);
      await dispatcher.close();
    },
  };
}

/** Counts of the outcomes sent from `from` to `to`, and the first reasons of each kind. */
export function tally(outcomes: readonly Outcome[], from: number, to: number) {
  const within = outcomes.filter((outcome) => outcome.at >= from && outcome.at < to);
  const of = (result: Outcome['result']) => within.filter((outcome) => outcome.result === result);
  const reasons = (list: Outcome[]) => [...new Set(list.map((outcome) => outcome.why!))].slice(0, 5);
  return {
    requests: within.length,
    failed: of('failed').length,
    wrong: of('wrong').length,
    failures: reasons(of('failed')),
    wrongs: reasons(of('wrong')),
  };
}
