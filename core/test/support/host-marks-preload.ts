// Preloaded (BUN_OPTIONS) into the processes a test starts while the suites run isolated: a bot
// there marks the spores its hosts created in the file the test process reads (host-marks.ts).
import { appendFileSync } from 'node:fs'
import { markHostedSpores } from './host-marks.ts'

const marks = process.env.MYCELO_HOST_MARKS
if (marks !== undefined) markHostedSpores((line) => appendFileSync(marks, line))
