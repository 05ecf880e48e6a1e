import type { MyceloConfig } from '../../boot/config.ts'
import { carriedFolderOf } from '../official.ts'
import type { SourceRow } from '../source-rows.ts'
import type { UrlPolicy } from '../url-policy.ts'
import { withCarried } from './carried.ts'
import type { SporangiumDriver } from './driver.ts'
import { gitHubDriver } from './github.ts'
import { staticIndexDriver } from './static-index.ts'

/** What every driver works with: its source and the core's bounds on what it may fetch. */
export interface DriverContext {
  readonly source: SourceRow
  readonly githubApi: string
  readonly bounds: { readonly policy: UrlPolicy; readonly maxBytes: number; readonly deadlineMs: number }
}

/** A source at https://github.com/<owner>/<repo> is read through GitHub's releases; any other is an index. */
export function driverFor(source: SourceRow, config: Pick<MyceloConfig, 'sporangia'>): SporangiumDriver {
  const { sporangia } = config
  const context: DriverContext = {
    source,
    githubApi: sporangia.githubApi,
    bounds: {
      policy: { allowLoopbackHttp: sporangia.allowLoopbackHttp },
      maxBytes: sporangia.limits.downloadBytes,
      deadlineMs: sporangia.limits.downloadMs,
    },
  }
  const remote =
    new URL(source.url).hostname === 'github.com' ? gitHubDriver(context) : staticIndexDriver(context)
  const carried = source.trust === 'official' ? carriedFolderOf(source.id) : undefined
  return carried === undefined ? remote : withCarried(remote, carried, source.id)
}
