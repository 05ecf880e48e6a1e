import { describe, expect, it } from 'bun:test'
import { fetchStrain } from '../../sporangium/fetching.ts'
import { refusalText } from '../mycelium/harness.ts'
import { archiveBytes, sporangiumBot } from './sporangium-bot.ts'

const world = sporangiumBot()
const bot = () => world.bot()
const ARCHIVE = '/films-1.0.0.tgz'
const films = (size = 4096) => ({
  spores: { films: { strains: { '1.0.0': { bytes: archiveBytes('films', size) } } } },
})

describe('network faults, each its own refusal', () => {
  it('an error status', async () => {
    const { source, server } = await world.publish(films())
    server.fault('/index.json', { kind: 'status', status: 500 })
    expect(refusalText(bot(), await fetchStrain(world.deps(), { source, spore: 'films' }))).toBe(
      `The server at ${server.url}/index.json answered HTTP 500.`,
    )
  })

  it('a server that is not there', async () => {
    const { source, server } = await world.publish(films())
    await server.stop()
    expect(refusalText(bot(), await fetchStrain(world.deps(), { source, spore: 'films' }))).toBe(
      `The server at ${server.url}/index.json could not be reached.`,
    )
  })

  it('a connection dropped mid-download', async () => {
    const { source, server } = await world.publish(films())
    server.fault(ARCHIVE, { kind: 'drop', after: 1000 })
    expect(refusalText(bot(), await fetchStrain(world.deps(), { source, spore: 'films' }))).toBe(
      `The download from ${server.url}${ARCHIVE} broke off before it was complete.`,
    )
  })

  it('a redirect loop, given up after five redirects', async () => {
    const { source, server } = await world.publish(films())
    server.fault(ARCHIVE, { kind: 'redirect-loop' })
    expect(refusalText(bot(), await fetchStrain(world.deps(), { source, spore: 'films' }))).toBe(
      `The download from ${server.url}${ARCHIVE} was redirected more than 5 times.`,
    )
    expect(server.requests.filter((r) => r.path === ARCHIVE)).toHaveLength(6)
  })

  it('a redirect to plain http off this machine, never followed', async () => {
    const { source, server } = await world.publish(films())
    server.fault(ARCHIVE, { kind: 'redirect', to: 'http://spores.example/films.tgz' })
    expect(refusalText(bot(), await fetchStrain(world.deps(), { source, spore: 'films' }))).toBe(
      'Refused: the download was sent to "http://spores.example/films.tgz", which is not https.',
    )
  })

  it('a server that stalls past the deadline', async () => {
    const { source, server } = await world.publish(films())
    server.fault(ARCHIVE, { kind: 'stall' })
    const outcome = await fetchStrain(world.deps({ downloadMs: 500 }), { source, spore: 'films' })
    expect(refusalText(bot(), outcome)).toBe(
      `The download from ${server.url}${ARCHIVE} took longer than 1 seconds (sporangia.limits.downloadMs).`,
    )
    expect(refusalText(bot(), outcome, 'fr')).toContain('a pris plus de 1 secondes')
  })
})

describe('the download limit', () => {
  it('refuses at once a body announced larger than the limit, reading none of it', async () => {
    const { source, server } = await world.publish(films(8000))
    const progress: number[] = []
    const outcome = await fetchStrain(world.deps({ downloadBytes: 5000 }), {
      source,
      spore: 'films',
      onProgress: (received) => progress.push(received),
    })
    expect(refusalText(bot(), outcome)).toBe(
      `Refused: the download from ${server.url}${ARCHIVE} is larger than the 5000 bytes allowed (sporangia.limits.downloadBytes).`,
    )
    expect(progress).toEqual([])
  })

  it('counts a body sent without its length, and stops past the limit', async () => {
    const { source, server } = await world.publish(films(8000))
    server.fault(ARCHIVE, { kind: 'unannounced' })
    const progress: [number, number | undefined][] = []
    const outcome = await fetchStrain(world.deps({ downloadBytes: 5000 }), {
      source,
      spore: 'films',
      onProgress: (received, total) => progress.push([received, total]),
    })
    expect(refusalText(bot(), outcome)).toContain('is larger than the 5000 bytes allowed')
    for (const [received, total] of progress) {
      expect(received).toBeLessThanOrEqual(5000)
      expect(total).toBeUndefined()
    }
  })

  it('fetches a body sent without its length when it is within the limit', async () => {
    const { source, server } = await world.publish(films(4000))
    server.fault(ARCHIVE, { kind: 'unannounced' })
    const totals: (number | undefined)[] = []
    const outcome = await fetchStrain(world.deps({ downloadBytes: 5000 }), {
      source,
      spore: 'films',
      onProgress: (_received, total) => totals.push(total),
    })
    expect(outcome.ok && outcome.value.bytes.byteLength).toBe(4000)
    // No length was announced: what the limit refused above, it refused by counting.
    expect(totals.length).toBeGreaterThan(0)
    expect(totals.every((total) => total === undefined)).toBe(true)
  })
})
