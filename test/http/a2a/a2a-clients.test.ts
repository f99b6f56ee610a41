// /a2a with the clients people already have, over a real socket and the embedded dataset: the A2A SDK
// 1.x client, and the 0.3 SDK both ways it connects (ClientFactory from the card's base URL, and the
// older A2AClient from a card URL, including 0.3's /.well-known/agent.json). Each one asks every
// example the card advertises and must get records back.
import { Role, type Message as V1Message } from '@a2a-js/sdk';
import { ClientFactory as V1ClientFactory } from '@a2a-js/sdk/client';
import type { Message, MessageSendParams } from 'a2a-sdk-v03';
import { A2AClient, ClientFactory } from 'a2a-sdk-v03/client';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordSearchResults } from '../../../src/contract/index.js';
import { buildListeningApp, loadDefaultCatalog } from '../../support/app.js';

let app: FastifyInstance;
let baseUrl: string;
let examples: string[];
beforeAll(async () => {
  ({ app, baseUrl } = await buildListeningApp({ catalog: await loadDefaultCatalog() }));
  const card = (await app.inject('/.well-known/agent-card.json')).json() as { skills: { examples: string[] }[] };
  examples = card.skills.flatMap((skill) => skill.examples);
});
afterAll(() => app.close());

/** Asks one question and returns the data part of the answer. */
type Ask = (text: string) => Promise<RecordSearchResults>;

const legacyParams = (text: string): MessageSendParams => ({
  message: { kind: 'message', messageId: crypto.randomUUID(), role: 'user', parts: [{ kind: 'text', text }] },
});

function legacyData(answer: unknown): RecordSearchResults {
  const message = answer as Message;
  expect(message.kind).toBe('message');
  const data = message.parts.find((part) => part.kind === 'data');
  return data?.data as unknown as RecordSearchResults;
}

const clients: [name: string, connect: () => Promise<Ask>][] = [
  [
    'A2A SDK 1.x ClientFactory (A2A 1.0)',
    async () => {
      const client = await new V1ClientFactory().createFromUrl(baseUrl);
      expect(client.protocolVersion).toBe('1.0');
      return async (text) => {
        const message: V1Message = {
          messageId: crypto.randomUUID(),
          contextId: '',
          taskId: '',
          role: Role.ROLE_USER,
          parts: [{ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' }],
          metadata: undefined,
          extensions: [],
          referenceTaskIds: [],
        };
        const reply = (await client.sendMessage({ tenant: '', message, configuration: undefined, metadata: undefined })) as V1Message;
        return reply.parts.find((p) => p.content?.$case === 'data')?.content?.value as RecordSearchResults;
      };
    },
  ],
  [
    'A2A SDK 0.3 ClientFactory.createFromUrl',
    async () => {
      const client = await new ClientFactory().createFromUrl(baseUrl);
      return async (text) => legacyData(await client.sendMessage(legacyParams(text)));
    },
  ],
  ...['/.well-known/agent-card.json', '/.well-known/agent.json'].map((path): [string, () => Promise<Ask>] => [
    `A2A SDK 0.3 A2AClient.fromCardUrl(${path})`,
    async () => {
      const client = await A2AClient.fromCardUrl(`${baseUrl}${path}`);
      return async (text) => {
        const response = await client.sendMessage(legacyParams(text));
        if ('error' in response) throw new Error(JSON.stringify(response.error));
        return legacyData(response.result);
      };
    },
  ]),
];

describe.each(clients)('%s', (_name, connect) => {
  let ask: Ask;
  beforeAll(async () => {
    ask = await connect();
  });

  it('gets records for every example on the agent card', async () => {
    expect(examples.length).toBeGreaterThanOrEqual(6);
    for (const example of examples) {
      const found = await ask(example);
      expect(found.query, example).toBe(example);
      expect(found.results.length, `${example}: ${found.understood.join('; ')}`).toBeGreaterThan(0);
    }
  });

  it('checks the versions of package URLs and CPE names, each affected record with the range that matched', async () => {
    const airflow = (await app.inject(`/api/v1/cve-records?limit=100&purl=${encodeURIComponent('pkg:pypi/apache-airflow@2.7.0')}`)).json();
    const found = await ask(
      'Is pkg:pypi/apache-airflow@2.7.0, cpe:2.3:a:openssl:openssl:3.0.15:*:*:*:*:*:*:* or pkg:deb/debian/curl@1.0 affected?',
    );
    expect(found.results.map((r) => r.record.id)).toEqual(airflow.records.map((r: { id: string }) => r.id));
    expect(found.results.find((r) => r.record.id === 'CVE-2024-45784')?.snippet).toBe('Apache Airflow: affected before 2.10.3 (semver)');
    expect(found.understood).toEqual([
      `pkg:pypi/apache-airflow@2.7.0: affected, by ${airflow.records.length} records`,
      'cpe:2.3:a:openssl:openssl:3.0.15:*:*:*:*:*:*:*: no record says this version is affected',
      expect.stringMatching(/^pkg:deb\/debian\/curl@1\.0: not checked: .*purl type "deb"/),
    ]);
  });

  it('gets the record of an id as the 1.0 client does', async () => {
    const found = await ask('CVE-2024-6119');
    expect(found.results.map((r) => r.record)).toEqual([
      { id: 'CVE-2024-6119', project: 'OpenSSL', status: 'public', url: 'https://www.cve.org/CVERecord?id=CVE-2024-6119' },
    ]);
  });
});

describe('the 0.3 client beyond sending', () => {
  it('gets a 0.3 TaskNotFound (-32001) for a task: answers are messages, no task is ever kept', async () => {
    const client = await new ClientFactory().createFromUrl(baseUrl);
    await expect(client.getTask({ id: 'no-such-task' })).rejects.toThrow(/-32001|not found/i);
  });

  it('speaks 0.3 JSON-RPC method names on the wire, with no A2A-Version header', async () => {
    const response = await fetch(`${baseUrl}/a2a`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'message/send', params: legacyParams('records assigned but not yet public') }),
    });
    const body = (await response.json()) as { id: number; result: Message };
    expect(body.id).toBe(7);
    expect(body.result).toMatchObject({ kind: 'message', role: 'agent' });
    expect(legacyData(body.result).results.every((r) => r.record.status === 'assigned-no-public-record')).toBe(true);
  });
});
