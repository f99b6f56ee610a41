import { readFileSync } from 'node:fs';

/** The service version is the package version: one number for health, capabilities and logs. */
export const SERVICE_NAME = 'public-cve-records';
export const SERVICE_VERSION: string = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
/** The `info.version` of the OpenAPI document: the version of the v1 contract. */
export const API_VERSION = '1.0.0';
