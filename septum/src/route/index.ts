export {
  DELIVERY_WINDOW_MS,
  type DeliveryCheck,
  type DeliveryRefusal,
  type DeliveryVerdict,
  ReplayGuard,
  type ReplayGuardOptions,
} from './replay.ts'
export {
  SIGNATURE_HEADERS,
  type SignatureCheck,
  type SignatureScheme,
  verifySignature,
} from './signature.ts'
