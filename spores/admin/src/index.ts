import type { EnzymeModule } from '@mycelo/septum'
import { installHandlers } from './installs.ts'
import { localeHandlers } from './locale.ts'
import { peopleHandlers } from './people.ts'
import { pluginHandlers } from './plugins.ts'
import { restrictionHandlers } from './restrictions.ts'
import { roleHandlers } from './roles.ts'
import { sourceHandlers } from './sources.ts'
import { webHandlers } from './web.ts'

export type { AdminMycelium, AdminScope } from './mycelium.ts'

export default {
  create: () => ({
    handlers: {
      ...peopleHandlers,
      ...pluginHandlers,
      ...roleHandlers,
      ...restrictionHandlers,
      ...localeHandlers,
      ...sourceHandlers,
      ...installHandlers,
      ...webHandlers,
    },
  }),
} satisfies EnzymeModule
