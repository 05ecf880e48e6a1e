// The fakes' shared log that tests read in order or wait on.
export { Recorder } from '../../../../../spores/discord/test/fake/recorder.ts'
