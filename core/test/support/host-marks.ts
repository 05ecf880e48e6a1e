// How a run of the spores' suites isolated shows that their spores really ran in hosts: each time a
// spore's create() is answered from its host's worker (the keeper adopts what it gave), a line names
// the spore. In the test process it goes to standard error, under the test file bun test is running;
// a bot a test starts in a process of its own appends it to the file MYCELO_HOST_MARKS names (see
// host-marks-preload.ts), which the test process copies to its standard error after each test.

import { hostKeeper } from '../../hosts/keeper.ts'

/** The line said for each spore whose create() a host answered. */
export const HOST_MARK = 'spore created in a host: '

/** Calls `say` with a mark line each time a host answers a spore's create(). */
export function markHostedSpores(say: (line: string) => void): void {
  const adopt = hostKeeper.adopt.bind(hostKeeper)
  hostKeeper.adopt = (host, instance) => {
    adopt(host, instance)
    say(`${HOST_MARK}${host.spore}\n`)
  }
}
