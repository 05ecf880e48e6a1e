// The contexts the bot hands an official spore, built on the septum kit's storage and schedule
// doubles, so each spore's tests state only what its spore reads differently.
import type { ConfigSchema, EnzymeContext, SporeContext, Translate } from '@mycelo/septum'
import { manualSchedule, memoryStorage } from '@mycelo/septum/conformance'
import { recordingLogger } from './catalogues.ts'

/** `raw` read through the spore's own schema, as the bot reads settings; a test's bad settings throw. */
export function settingsFor<C>(schema: ConfigSchema<C>, raw: unknown): C {
  const parsed = schema.safeParse(raw)
  if (!parsed.success) throw new Error(JSON.stringify(parsed.error.issues))
  return parsed.data
}

/** What every kind's context carries: no rhiza, and fresh storage and schedule unless `parts` share some. */
export function sporeContext<C>(config: C, parts: Partial<SporeContext<C>> = {}): SporeContext<C> {
  return {
    config,
    logger: recordingLogger(),
    rhiza: () => ({}) as never,
    has: () => false,
    storage: memoryStorage(),
    schedule: manualSchedule(),
    ...parts,
  }
}

export interface EnzymeParts<C> extends Partial<EnzymeContext<C>> {
  readonly config: C
  readonly t: Translate
  /** Receives the text of every reply. */
  readonly replies?: string[]
}

/** One invocation's context: replies recorded as text, no capabilities, the reader's locale 'en' unless given. */
export function enzymeContext<C>({ replies = [], ...parts }: EnzymeParts<C>): EnzymeContext<C> {
  const none = { has: () => false, list: () => [] }
  return {
    ...sporeContext(parts.config),
    async reply(content) {
      replies.push(content.text ?? '')
    },
    async push() {},
    capabilities: none,
    capabilitiesOf: () => none,
    principal: { id: 'p1', identities: [], roles: [] },
    locale: 'en',
    on() {},
    localeFor: () => Promise.resolve('en'),
    ...parts,
  }
}
