import type { Translate } from '@mycelo/septum'
import type { PortableTranslate } from './portable-translate.ts'

/** The translator module, loaded once a host first renders: a host that never does never loads it. */
let loading = false
let loaded: typeof import('./local-translate.ts') | undefined

/**
 * A spore's `t` in its host: rendered here from the catalogues' sources, with no call into the core.
 * Until the translator has loaded (the first renders in a host), `call` asks the core as before.
 */
export function hostTranslate(portable: PortableTranslate, call: Translate): Translate {
  let translate: Translate | undefined
  return (key, params, locale) => {
    if (translate === undefined) {
      if (loaded === undefined) {
        if (!loading) {
          loading = true
          // Should it fail to load, t keeps asking the core.
          import('./local-translate.ts').then(
            (module) => {
              loaded = module
            },
            () => undefined,
          )
        }
        return call(key, params, locale)
      }
      translate = loaded.localTranslate(portable)
    }
    return translate(key, params, locale)
  }
}
