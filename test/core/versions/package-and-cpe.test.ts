// How a purl names the package a record names by collectionURL and packageName, per ecosystem, and how CPE
// names are read and compared (whole-value wildcards, 2.2 URIs of older records).
import { describe, expect, it } from 'vitest';
import { matchesProduct, parseCpeQuery, parseRecordCpe } from '../../../src/core/versions/cpe-name.js';
import { productPackageKey, purlPackage } from '../../../src/core/versions/package-key.js';

const product = (collectionURL: string, packageName: string, packageURL: string | null = null) => ({
  collectionURL,
  packageName,
  packageURL,
});

describe('package keys', () => {
  it.each([
    ['pkg:npm/%40angular/core@1.2.3', product('https://registry.npmjs.org/', '@angular/core'), '1.2.3'],
    ['pkg:npm/libxmljs2', product('https://www.npmjs.com', 'libxmljs2'), undefined],
    ['pkg:pypi/Apache_Airflow@2.7.0', product('https://pypi.python.org', 'apache-airflow'), '2.7.0'],
    ['pkg:pypi/deeplake', product('https://pypi.org/project/pip', 'deeplake'), undefined],
    [
      'pkg:maven/org.apache.kafka/kafka-clients@3.5.1',
      product('https://repo.maven.apache.org/maven2', 'org.apache.kafka:kafka-clients'),
      '3.5.1',
    ],
    ['pkg:golang/github.com/go-resty/resty/v2@v2.10.0', product('https://pkg.go.dev', 'github.com/go-resty/resty/v2'), 'v2.10.0'],
    ['pkg:golang/archive/zip', product('https://pkg.go.dev', 'archive/zip'), undefined],
    ['pkg:cargo/hyper', product('https://crates.io', 'hyper'), undefined],
    ['pkg:nuget/Newtonsoft.Json@13.0.1', product('https://www.nuget.org/packages', 'newtonsoft.json'), '13.0.1'],
    ['pkg:gem/rails', product('https://rubygems.org', 'rails'), undefined],
    ['pkg:composer/laravel/framework', product('https://packagist.org', 'laravel/framework'), undefined],
    ['pkg:wordpress/plugin/anyguide', product('https://wordpress.org/plugins', 'anyguide'), undefined],
    ['pkg:wordpress/anyguide', product('https://wordpress.org/plugins/anyguide/', 'anyguide'), undefined],
    ['pkg:wordpress/theme/olivia@0.9.5', product('https://wordpress.org/themes/', 'olivia'), '0.9.5'],
    ['pkg:npm/left-pad', product('ftp://elsewhere.example', 'x', 'pkg:npm/left-pad@1.0.0'), undefined],
  ])('%s names the package of the record', (purl, named, version) => {
    const found = purlPackage(purl);
    expect(found.version).toBe(version);
    expect(productPackageKey(named)).toBe(found.key);
  });

  it('keeps ecosystems, WordPress kinds and names apart', () => {
    expect(productPackageKey(product('https://wordpress.org/themes', 'anyguide'))).not.toBe(
      purlPackage('pkg:wordpress/plugin/anyguide').key,
    );
    expect(productPackageKey(product('https://pypi.org', 'rails'))).not.toBe(purlPackage('pkg:gem/rails').key);
    expect(productPackageKey(product('https://www.npmjs.com', 'libxmljs'))).not.toBe(purlPackage('pkg:npm/libxmljs2').key);
    expect(productPackageKey(product('https://github.com/cesanta/mongoose', 'mongoose'))).toBeUndefined();
    expect(productPackageKey({ collectionURL: null, packageName: 'x', packageURL: null })).toBeUndefined();
  });

  it('refuses what is no purl, and types no record names packages in', () => {
    for (const text of ['nonsense', 'pkg:npm/', 'pkg:deb/debian/curl', 'pkg:wordpress/core/core'])
      expect(() => purlPackage(text), text).toThrow();
  });
});

describe('CPE names', () => {
  const query = (text: string) => parseCpeQuery(text);
  const name = (text: string) => parseRecordCpe(text)!;

  it('reads 2.3 formatted strings with escapes, and 2.2 URIs with missing components as ANY', () => {
    expect(name('cpe:2.3:a:oracle:mysql_connector\\/python:9.1.0:*:*:*:*:*:*:*').slice(0, 4)).toEqual([
      'a',
      'oracle',
      'mysql_connector/python',
      '9.1.0',
    ]);
    expect(name('cpe:/a:redhat:jboss_data_grid:7')).toEqual(['a', 'redhat', 'jboss_data_grid', '7', '*', '*', '*', '*', '*', '*', '*']);
    expect(parseRecordCpe('cpe:2.3:a:short')).toBeUndefined();
    expect(parseRecordCpe('not a cpe')).toBeUndefined();
  });

  it('matches ANY to any value, NA to NA and ANY, and other values by equal text in any case', () => {
    const openssl = query('cpe:2.3:a:OpenSSL:openssl:*:*:*:*:*:*:*:*');
    expect(matchesProduct(openssl, name('cpe:2.3:a:openssl:openssl:3.0.0:*:*:*:*:*:*:*'))).toBe(true);
    expect(matchesProduct(openssl, name('cpe:2.3:*:openssl:openssl:*:*:*:*:*:*:*:*'))).toBe(true);
    expect(matchesProduct(openssl, name('cpe:2.3:o:openssl:openssl:*:*:*:*:*:*:*:*'))).toBe(false);
    expect(matchesProduct(openssl, name('cpe:2.3:a:openssl:libssl:*:*:*:*:*:*:*:*'))).toBe(false);
    const noUpdate = query('cpe:2.3:a:openssl:openssl:*:-:*:*:*:*:*:*');
    expect(matchesProduct(noUpdate, name('cpe:2.3:a:openssl:openssl:*:-:*:*:*:*:*:*'))).toBe(true);
    expect(matchesProduct(noUpdate, name('cpe:2.3:a:openssl:openssl:*:*:*:*:*:*:*:*'))).toBe(true);
    expect(matchesProduct(noUpdate, name('cpe:2.3:a:openssl:openssl:*:beta1:*:*:*:*:*:*'))).toBe(false);
  });

  it('refuses queries that are no 2.3 formatted string, partial wildcards, and no vendor nor product', () => {
    for (const text of [
      'cpe:/a:openssl:openssl',
      'cpe:2.3:a:openssl:openssl',
      'cpe:2.3:x:openssl:openssl:*:*:*:*:*:*:*:*',
      'cpe:2.3:a:openssl:open*:*:*:*:*:*:*:*:*',
      'cpe:2.3:a:openssl:openss?:*:*:*:*:*:*:*:*',
      'cpe:2.3:a:*:*:1.0:*:*:*:*:*:*:*',
    ]) {
      expect(() => parseCpeQuery(text), text).toThrow();
    }
    expect(parseCpeQuery('cpe:2.3:a:vendor:name\\*:*:*:*:*:*:*:*:*')[2]).toBe('name*');
  });
});
