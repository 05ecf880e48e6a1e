export {
  SIGNATURE_HEADERS,
  type SignatureCheck,
  type SignatureScheme,
  verifySignature,
} from './signature.ts'
