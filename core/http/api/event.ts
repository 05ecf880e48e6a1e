// One event on /events, as the hub sends it and the page reads it: types only, so the page's bundle
// shares them without pulling in the server.
import type { PluginInfo } from '@mycelo/septum'

export type ApiEvent =
  /** The spores whose state, switch or reason changed since the last look. */
  | { readonly type: 'state'; readonly spores: readonly PluginInfo[] }
  | {
      readonly type: 'install'
      readonly spore: string
      readonly phase: 'progress' | 'done' | 'refused'
      readonly received?: number
      readonly total?: number
      readonly strain?: string
      /** The refusal in English, for a log; the page words its own from `key`. */
      readonly key?: string
    }
  /** One log line as the logger wrote it, secrets already masked. */
  | { readonly type: 'log'; readonly record: Readonly<Record<string, unknown>> }
