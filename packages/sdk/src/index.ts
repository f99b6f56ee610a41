export { CveRecordsClient, type RecordsApi } from './client.js';
export { type ClientErrorCode, CveRecordsError, type CveRecordsErrorInit } from './errors.js';
export type { components, operations, paths } from './generated/contract.js';
export { BATCH_MAX_IDS, PAGE_LIMIT_MAX } from './generated/contract.js';
export type { ClientOptions, RequestOptions } from './transport.js';
export type {
  BatchResponse,
  Capabilities,
  CveRecord,
  CveRecordPage,
  ErrorResponse,
  ExportRecord,
  Health,
  ListFilters,
  ListParams,
  NlwebResponse,
  NlwebResult,
  Pagination,
  RecordStatus,
  Sandbox,
  SearchEvent,
  SearchParams,
} from './types.js';
