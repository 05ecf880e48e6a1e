/**
 * Protocol-faithful stand-ins for signal-cli, for any test that needs a Signal peer on loopback —
 * the hypha's own, and an end-to-end test that boots the core against them.
 */
export { eventually, type LogLine, type RecordingContext, recordingContext } from './context.ts'
export {
  type DaemonRequest,
  FakeDaemon,
  type FakeDaemonOptions,
  type JsonRpcError,
  type RecipientFailure,
} from './daemon.ts'
export * from './frames.ts'
export { type FakePeer, PEER_KINDS, type PeerKind, type SentMessage } from './peers.ts'
export { Recorder } from './recorder.ts'
export {
  FakeRestApi,
  type FakeRestApiOptions,
  type RestCall,
  type RestFailure,
  type RestRoute,
  restGroupId,
} from './rest-api.ts'
