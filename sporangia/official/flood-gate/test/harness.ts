import { join } from 'node:path'
import type { InhibitorContext, OutgoingContent, PushTarget } from '@mycelo/septum'
import {
  type ManualSchedule,
  type MemoryStorage,
  manualSchedule,
  memoryStorage,
} from '@mycelo/septum/conformance'
import { recordingLogger, sporeFiles } from '../../kit/catalogues.ts'
import { settingsFor, sporeContext } from '../../kit/contexts.ts'
import module, { type FloodGateConfig } from '../src/index.ts'

export const files = sporeFiles(join(import.meta.dir, '..'))

export interface FloodWorld {
  readonly storage: MemoryStorage
  readonly schedule: ManualSchedule
  /** What the gate sent through messages.send. */
  readonly told: { target: PushTarget; content: OutgoingContent }[]
  readonly logs: { level: string; message: string }[]
}

export function floodWorld(): FloodWorld {
  return { storage: memoryStorage(), schedule: manualSchedule(), told: [], logs: [] }
}

export function floodContext(
  config: unknown,
  world: FloodWorld,
  locale = 'en',
): InhibitorContext<FloodGateConfig> {
  return {
    ...sporeContext(settingsFor(module.configSchema, config), {
      logger: recordingLogger(world.logs),
      rhiza: <T>(name: string) => {
        if (name !== 'mycelium') throw new Error(`flood-gate requires no rhiza ${name}`)
        return {
          async send(target: PushTarget, content: OutgoingContent) {
            world.told.push({ target, content })
          },
        } as T
      },
      has: (name) => name === 'mycelium',
      storage: world.storage,
      schedule: world.schedule,
    }),
    t: files.translator(locale),
    async groupMembers() {
      return null
    },
    requireCapability() {},
  }
}
