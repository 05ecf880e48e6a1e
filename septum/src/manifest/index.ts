export { ManifestError } from './error.ts'
export { manifestErrorOf, parseManifest } from './parse.ts'
