// septum's own range matcher, so the package behaves the same on Node as on Bun. It follows node-semver
// for the forms it accepts, including the prerelease rule: 1.2.3-beta matches only a range naming a
// prerelease of 1.2.3.
export {
  checkRange,
  lowestAdmittedBelow,
  type RangeCheck,
  satisfiesRange,
  septumIncompatibility,
} from './check.ts'
export type { SemverRange } from './parse.ts'
