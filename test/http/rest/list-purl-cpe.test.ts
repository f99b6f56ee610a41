// `purl=` and `cpe=` on the list (issue 27): over the shipped catalog, the records naming a package or a CPE,
// those saying a version of it is affected, cursors bound to them, and a 400 for what cannot be read.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CveRecordDetails, CveRecordPage } from '../../../src/contract/index.js';
import { checkRecord } from '../../../src/core/versions/record-check.js';
import { buildTestApp, loadDefaultCatalog } from '../../support/app.js';

let app: FastifyInstance;

beforeAll(async () => {
  app = await buildTestApp({ catalog: await loadDefaultCatalog() });
});
afterAll(() => app.close());

async function walk(query: string): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = '';
  while (cursor !== null) {
    const response = await app.inject(`/api/v1/cve-records?limit=4&${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(response.statusCode, response.body).toBe(200);
    const page = response.json() as CveRecordPage;
    ids.push(...page.records.map((record) => record.id));
    cursor = page.pagination.nextCursor;
  }
  return ids;
}

const details = async (id: string) => (await app.inject(`/api/v1/cve-records/${id}/details`)).json() as CveRecordDetails;
const q = encodeURIComponent;

describe('GET /api/v1/cve-records?purl=', () => {
  it('lists the records naming a package, and of them those whose ranges hold the version', async () => {
    const all = await walk(`purl=${q('pkg:pypi/apache-airflow')}`);
    expect(all).toEqual(expect.arrayContaining(['CVE-2024-45784', 'CVE-2024-45034', 'CVE-2023-50944']));
    for (const id of all)
      expect(
        (await details(id)).affected.some((product) => product.packageName === 'apache-airflow'),
        id,
      ).toBe(true);
    const at270 = await walk(`purl=${q('pkg:pypi/Apache_Airflow@2.7.0')}`);
    expect(at270).toEqual(expect.arrayContaining(['CVE-2024-45784', 'CVE-2023-50944']));
    for (const id of all.filter((id) => !at270.includes(id)))
      expect(checkRecord(await details(id), '2.7.0').status, id).not.toBe('affected');
    const fixed = await walk(`purl=${q('pkg:pypi/apache-airflow@2.10.3')}`);
    expect(fixed).not.toContain('CVE-2024-45784');
    expect(await walk(`purl=${q('pkg:pypi/apache-airflow')}&version=2.7.0`)).toEqual(at270);
  });

  it.each([
    ['pkg:maven/org.apache.kafka/kafka-clients@3.5.1', 'CVE-2024-31141'],
    ['pkg:golang/archive/zip@1.21.1', 'CVE-2024-24789'],
    ['pkg:golang/github.com/go-resty/resty/v2@v2.10.0', 'CVE-2023-45286'],
    ['pkg:npm/libxmljs2@0.33.0', 'CVE-2024-34393'],
    ['pkg:wordpress/plugin/anyguide@1.3.2', 'CVE-2025-23996'],
    ['pkg:wordpress/theme/olivia@0.9.5', 'CVE-2024-56014'],
  ])('%s lists %s, and not past its ranges', async (purl, id) => {
    expect(await walk(`purl=${q(purl)}`)).toContain(id);
    expect(await walk(`purl=${q(purl.replace(/@.*/, '@999.0.0'))}`)).not.toContain(id);
  });

  it('combines with the other filters, and binds cursors to the purl', async () => {
    const withProject = (
      await app.inject(`/api/v1/cve-records?purl=${q('pkg:pypi/apache-airflow')}&project=Linux`)
    ).json() as CveRecordPage;
    expect(withProject.records).toEqual([]);
    const page = (await app.inject(`/api/v1/cve-records?purl=${q('pkg:pypi/apache-airflow')}&limit=1`)).json() as CveRecordPage;
    const other = await app.inject(
      `/api/v1/cve-records?purl=${q('pkg:pypi/apache-airflow@2.7.0')}&limit=1&cursor=${q(page.pagination.nextCursor!)}`,
    );
    expect(other.json().error.code).toBe('invalid_cursor');
  });
});

describe('GET /api/v1/cve-records?cpe=', () => {
  it('lists the records naming a CPE, and those saying its version is affected by the CPE version or the ranges', async () => {
    const any = await walk(`cpe=${q('cpe:2.3:a:openssl:openssl:*:*:*:*:*:*:*:*')}`);
    expect(any).toContain('CVE-2024-6119');
    const at307 = await walk(`cpe=${q('cpe:2.3:a:openssl:openssl:3.0.7:*:*:*:*:*:*:*')}`);
    expect(at307).toContain('CVE-2024-6119');
    expect(await walk(`cpe=${q('cpe:2.3:a:openssl:openssl:3.0.15:*:*:*:*:*:*:*')}`)).not.toContain('CVE-2024-6119');
    expect(await walk(`cpe=${q('cpe:2.3:a:openssl:openssl:*:*:*:*:*:*:*:*')}&version=3.0.7`)).toEqual(at307);
    // A record whose CPE name carries the version itself: Ubiquiti's U6-LR firmware 6.6.65.
    const ubiquiti = await walk(`cpe=${q('cpe:2.3:o:ui:u6-lr_firmware:6.6.65:*:*:*:*:*:*:*')}`);
    expect(ubiquiti.length).toBeGreaterThan(0);
    expect(await walk(`cpe=${q('cpe:2.3:o:ui:u6-lr_firmware:-:*:*:*:*:*:*:*')}`)).toEqual([]);
  });

  it('lists the unknown ones only when asked', async () => {
    const cpe = `cpe=${q('cpe:2.3:o:linux:linux_kernel:*:*:*:*:*:*:*:*')}&version=6.1.5`;
    const affected = await walk(cpe);
    const withUnknown = await walk(`${cpe}&include_unknown=true`);
    expect(withUnknown.length).toBeGreaterThan(affected.length);
    for (const id of affected) expect(withUnknown).toContain(id);
  });
});

describe('bad purl and cpe values', () => {
  it.each([
    ['purl=nonsense', 'pattern'],
    ['purl=pkg%3Anpm%2F', 'package URL'],
    ['purl=pkg%3Adeb%2Fdebian%2Fcurl', 'type'],
    [`purl=pkg%3Anpm%2F${'a'.repeat(510)}`, 'must NOT have more than 512'],
    [`purl=${q('pkg:npm/left-pad@1 or 1')}`, 'pattern'],
    [`purl=${q('pkg:npm/left-pad@1%27')}`, 'no version'],
    [`purl=${q('pkg:npm/left-pad@1.0.0')}&version=1.0.0`, 'twice'],
    [`purl=${q('pkg:npm/left-pad')}&include_unknown=true`, 'include_unknown'],
    [`cpe=${q('cpe:2.3:a:openssl')}`, '13'],
    [`cpe=${q('cpe:/a:openssl:openssl')}`, 'pattern'],
    [`cpe=${q('cpe:2.3:a:openssl:open*:*:*:*:*:*:*:*:*')}`, 'wildcards'],
    [`cpe=${q('cpe:2.3:a:*:*:*:*:*:*:*:*:*:*')}`, 'vendor or a product'],
    [`cpe=${q('cpe:2.3:a:openssl:openssl:3.0.7:*:*:*:*:*:*:*')}&version=3.0.7`, 'twice'],
    [`cpe=${q(`cpe:2.3:a:openssl:openssl:${'9'.repeat(129)}:*:*:*:*:*:*:*`)}`, 'no version'],
    ['version=1.0', 'project'],
  ])('%s is a 400 invalid_parameter naming what is wrong', async (query, words) => {
    const response = await app.inject(`/api/v1/cve-records?${query}`);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().error.code).toBe('invalid_parameter');
    expect(response.json().error.message).toContain(words);
  });
});
