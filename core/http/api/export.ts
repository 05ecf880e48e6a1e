// The bot's configuration as code: the same YAML `mycelo export` writes, secrets masked as the
// command line masks them without --secrets, and no spore data. There is no chat command for it,
// so it is guarded by `core.export`: no spore may be named `core`, so only a role holding `*` (the
// owner's) covers it unless an owner grants that pattern on purpose.
import { operatorGuard } from '../../mycelium/guards.ts'
import { exportConfiguration } from '../../operations/config-as-code/export.ts'
import { type ApiDeps, type ApiRoute, route } from './route.ts'

export function exportRoutes({ runtime }: ApiDeps): ApiRoute[] {
  return [
    route({
      method: 'get',
      path: '/export',
      summary: 'The configuration as the YAML file `mycelo import` reads; secrets are never included',
      guard: operatorGuard('exportConfiguration'),
      streams: ['application/yaml'],
      async handle({ c }) {
        const text = await exportConfiguration(runtime, { secrets: false })
        return c.body(text, 200, {
          'content-type': 'application/yaml; charset=utf-8',
          'content-disposition': 'attachment; filename="mycelo-config.yaml"',
          'cache-control': 'no-store',
        })
      },
    }),
  ]
}
