export {
  CALL_CASSETTE_MODES,
  CallCassette,
  type CallCassetteMode,
  type CallCodec,
  type CallEntry,
  type CallRequest,
  CassetteMissError,
  type CassetteUse,
  defineCallCodec,
} from './calls.js';
export { hashOf, stableJson } from './canonical.js';
export { isSecretKey, REDACTED, redactSecrets } from './secrets.js';
export { type CassetteBody, CassetteStore, type EntryFormat } from './store.js';
