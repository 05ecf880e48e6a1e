import type { EnzymeContext, Invocation } from '@mycelo/septum'
import type { RadarrApi } from '../../radarr/src/index.ts'
import { MAX_DAYS, type MoviesConfig } from './config.ts'
import { label, releaseDay, releasesWithin, typedCommand } from './render.ts'

type Context = EnzymeContext<MoviesConfig>

const DAY_MS = 24 * 60 * 60 * 1000

/** Runs `work` against Radarr; a Radarr fault is answered in the reader's words, anything else rethrown. */
async function withRadarr(ctx: Context, work: (api: RadarrApi) => Promise<string>): Promise<void> {
  const api = ctx.rhiza<RadarrApi>('radarr')
  let text: string
  try {
    text = await work(api)
  } catch (error) {
    // Awaited: across a host, every api method answers a promise.
    const fault = await api.faultOf(error)
    if (fault === undefined) throw error
    text = ctx.t(fault)
  }
  await ctx.reply({ text })
}

/** `/movie <title>` searches; `/movie add <TMDb id>` adds. */
export async function movie(invocation: Invocation, ctx: Context): Promise<void> {
  const command = typedCommand(invocation.message.text, '/movie')
  const request = (invocation.args.request ?? '').trim()
  const adding = /^add(?:\s+(.*))?$/i.exec(request)
  if (request === '') return ctx.reply({ text: ctx.t('usage.movie', { command }) })
  if (adding !== null) {
    const id = (adding[1] ?? '').trim()
    if (!/^\d{1,9}$/.test(id)) return ctx.reply({ text: ctx.t('usage.add', { command }) })
    return withRadarr(ctx, async (api) => {
      const added = await api.add(Number(id))
      return added.ok ? ctx.t('add.done', { movie: label(added.value, ctx.t) }) : ctx.t(added.refusal)
    })
  }
  return withRadarr(ctx, async (api) => {
    const found = (await api.lookup(request)).slice(0, ctx.config.results)
    if (found.length === 0) return ctx.t('search.none', { term: request })
    const lines = found.map((one) =>
      one.inLibrary
        ? ctx.t('search.inLibrary', { movie: label(one, ctx.t) })
        : ctx.t('search.addable', { movie: label(one, ctx.t), command, id: one.tmdbId }),
    )
    return [ctx.t('search.header', { count: found.length, term: request }), ...lines].join('\n')
  })
}

/** `/upcoming [days]`: releases of the library's movies from now to that many days ahead. */
export async function upcoming(invocation: Invocation, ctx: Context): Promise<void> {
  const command = typedCommand(invocation.message.text, '/upcoming')
  const asked = (invocation.args.days ?? '').trim()
  const days = asked === '' ? ctx.config.days : Number(asked)
  if (!/^\d*$/.test(asked) || !Number.isInteger(days) || days < 1 || days > MAX_DAYS)
    return ctx.reply({ text: ctx.t('usage.upcoming', { command, max: MAX_DAYS }) })
  return withRadarr(ctx, async (api) => {
    const start = new Date()
    const end = new Date(start.getTime() + days * DAY_MS)
    const releases = releasesWithin(await api.calendar({ start, end }), start, end)
    if (releases.length === 0) return ctx.t('upcoming.none', { days })
    const lines = releases.map((release) =>
      ctx.t(`upcoming.${release.kind}`, {
        day: releaseDay(release.at, ctx.locale),
        movie: label(release.movie, ctx.t),
      }),
    )
    return [ctx.t('upcoming.header', { days }), ...lines].join('\n')
  })
}
