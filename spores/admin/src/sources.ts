import {
  type OfferedSpore,
  type OfferedStrain,
  SEPTUM_VERSION,
  type SourceInfo,
  type SourcePatch,
  septumIncompatibility,
} from '@mycelo/septum'
import { arg, listing, say, usage, yesNo } from './answers.ts'
import { type AdminContext, type Handlers, myceliumOf } from './mycelium.ts'
import { answerSettled } from './settled.ts'

/** What an operator may change on a source, by the word they type, and how the value is read. */
const FIELDS: Readonly<Record<string, (value: string) => SourcePatch>> = {
  label: (label) => ({ label }),
  url: (url) => ({ url }),
  // `-` removes the token (an empty token is what the core reads as "none").
  token: (token) => ({ token: token === '-' ? '' : token }),
  key: (publisherKey) => ({ publisherKey }),
}

const KEY_PREFIX = 'ed25519:'

function sourceLine(source: SourceInfo, ctx: AdminContext): string {
  return ctx.t('sources.line', {
    id: source.id,
    label: source.label,
    url: source.url,
    trust: source.trust,
    enabled: yesNo(source.enabled),
    // Only ever the mask: the core never reads a token back.
    token: source.token ?? '',
    tokened: yesNo(source.token !== undefined),
    key: source.publisherKey ?? '',
    keyed: yesNo(source.publisherKey !== undefined),
  })
}

/** Whether this bot's septum admits a strain: the same check germination applies. */
export function admitsHere(strain: OfferedStrain): boolean {
  return septumIncompatibility(strain.septum, SEPTUM_VERSION) === undefined
}

function offeredLines(spore: OfferedSpore, ctx: AdminContext): string[] {
  const kind = ctx.t('kind', { kind: spore.kind })
  const head =
    spore.description === undefined
      ? ctx.t('offered.spore', { name: spore.name, kind })
      : ctx.t('offered.described', { name: spore.name, kind, description: spore.description })
  const strains = spore.strains.map((strain) => {
    // A date the source wrote that is no date is left out rather than failing the whole listing.
    const published = new Date(strain.published ?? Number.NaN)
    return ctx.t('offered.strain', {
      strain: strain.strain,
      septum: strain.septum,
      dated: yesNo(!Number.isNaN(published.getTime())),
      published: Number.isNaN(published.getTime()) ? new Date(0) : published,
      admitted: yesNo(admitsHere(strain)),
    })
  })
  return [head, ...strains]
}

/** A spore matches a search when its name or description holds every word. */
function matches(spore: OfferedSpore, search: string | undefined): boolean {
  if (search === undefined) return true
  const text = `${spore.name} ${spore.description ?? ''}`.toLowerCase()
  return search
    .toLowerCase()
    .split(/\s+/)
    .every((word) => text.includes(word))
}

/** The sporangia spores are installed from: listed, added, changed, switched, removed, searched. */
export const sourceHandlers: Handlers = {
  async sources(_invocation, ctx) {
    const sources = await myceliumOf(ctx).listSources()
    const lines = sources.map((source) => sourceLine(source, ctx))
    await say(ctx, listing(ctx.t('sources.title', { count: sources.length }), lines, ctx.t('sources.empty')))
  },

  async sourceAdd(invocation, ctx) {
    const url = arg(invocation, 'url')
    const words = arg(invocation, 'label')?.split(/\s+/) ?? []
    // The label takes the rest of the line; a last word that is a key pins it from the start.
    const last = words.at(-1)
    const publisherKey = last?.startsWith(KEY_PREFIX) ? last : undefined
    const label = (publisherKey === undefined ? words : words.slice(0, -1)).join(' ')
    if (url === undefined || label === '') return usage(invocation, ctx)
    const added = myceliumOf(ctx).addSource({ url, label, ...(publisherKey ? { publisherKey } : {}) })
    await answerSettled(ctx, added, (source) => ctx.t('sourceAdd.done', { line: sourceLine(source, ctx) }))
  },

  async sourceSet(invocation, ctx) {
    const id = arg(invocation, 'source')
    const field = arg(invocation, 'field')?.toLowerCase()
    const value = arg(invocation, 'value')
    const patch = field === undefined ? undefined : FIELDS[field]
    if (id === undefined || patch === undefined || value === undefined) return usage(invocation, ctx)
    const updated = myceliumOf(ctx).updateSource(id, patch(value))
    await answerSettled(ctx, updated, (source) => ctx.t('sourceSet.done', { line: sourceLine(source, ctx) }))
  },

  async sourceEnable(invocation, ctx) {
    const id = arg(invocation, 'source')
    if (id === undefined) return usage(invocation, ctx)
    const updated = myceliumOf(ctx).updateSource(id, { enabled: true })
    await answerSettled(ctx, updated, () => ctx.t('sourceEnable.done', { source: id }))
  },

  async sourceDisable(invocation, ctx) {
    const id = arg(invocation, 'source')
    if (id === undefined) return usage(invocation, ctx)
    const updated = myceliumOf(ctx).updateSource(id, { enabled: false })
    await answerSettled(ctx, updated, () => ctx.t('sourceDisable.done', { source: id }))
  },

  async sourceDelete(invocation, ctx) {
    const id = arg(invocation, 'source')
    if (id === undefined) return usage(invocation, ctx)
    const deleted = myceliumOf(ctx).deleteSource(id)
    await answerSettled(ctx, deleted, () => ctx.t('sourceDelete.done', { source: id }))
  },

  async offered(invocation, ctx) {
    const source = arg(invocation, 'source')
    if (source === undefined) return usage(invocation, ctx)
    const search = arg(invocation, 'search')
    await answerSettled(ctx, myceliumOf(ctx).offered(source), (spores) => {
      const found = spores.filter((spore) => matches(spore, search))
      const lines = found.flatMap((spore) => offeredLines(spore, ctx))
      const title = ctx.t('offered.title', { source, count: found.length, septum: SEPTUM_VERSION })
      return listing(title, lines, ctx.t('offered.empty', { source, searched: yesNo(search !== undefined) }))
    })
  },
}
