export { CveRecordsClient, type RecordsApi } from './client.js';
export { type ClientErrorCode, CveRecordsError, type CveRecordsErrorInit } from './errors.js';
export type { components, operations, paths, SearchMessages } from './generated/contract.js';
export { BATCH_MAX_IDS, CHANGES_LIMIT_MAX, PAGE_LIMIT_MAX, VERSION_CHECK_MAX_QUERIES } from './generated/contract.js';
export type { ClientOptions, RequestOptions } from './transport.js';
export type {
  BatchResponse,
  Capabilities,
  ChangesParams,
  CveRecord,
  CveRecordDetails,
  CveRecordPage,
  DetailsBatchResponse,
  ErrorResponse,
  ExportRecord,
  FollowedChange,
  FollowParams,
  Health,
  ListFilters,
  ListParams,
  NlwebItem,
  NlwebResponse,
  NlwebResult,
  Pagination,
  ProjectPage,
  ProjectSummary,
  ProjectsParams,
  RecordChange,
  RecordChangesPage,
  RecordStatus,
  Sandbox,
  SearchMessage,
  SearchParams,
  VersionCheckQuery,
  VersionCheckResponse,
  VersionCheckResult,
} from './types.js';
