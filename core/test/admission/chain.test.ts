import { describe, expect, it } from 'bun:test'
import type { IncomingMessage, InhibitorContext, Logger, Verdict } from '@mycelo/septum'
import { AdmissionChain, type AdmissionMember } from '../../admission/chain.ts'

const lines: { level: string; message: string; meta?: Record<string, unknown> }[] = []
const logger: Logger = {
  debug: (message, meta) => lines.push({ level: 'debug', message, meta }),
  info: (message, meta) => lines.push({ level: 'info', message, meta }),
  warn: (message, meta) => lines.push({ level: 'warn', message, meta }),
  error: (message, meta) => lines.push({ level: 'error', message, meta }),
  child: () => logger,
}

const message = (channel = 'console'): IncomingMessage => ({
  channel,
  conversationId: 'c1',
  messageId: 'm1',
  sender: { channel, externalId: 'u1' },
  text: 'hi',
  attachments: [],
  raw: null,
  receivedAt: new Date(),
})

const member = (
  name: string,
  enforcing: boolean,
  inspect: () => Verdict | Promise<Verdict>,
): AdmissionMember => ({
  name,
  enforcing,
  usable: true,
  inhibitor: { inspect },
  context: {} as InhibitorContext,
})

const chain = (members: AdmissionMember[], confined: Record<string, string[]> = {}) =>
  new AdmissionChain({ members: () => members, confinedTo: (name) => confined[name] ?? [], logger })

const allow = (): Verdict => ({ allow: true })
const deny = (): Verdict => ({ allow: false, reason: 'not on the list' })
const boom = (): Verdict => {
  throw new Error('database down')
}

describe('the enforcing table', () => {
  it('a refusal is final, advisory or enforcing', async () => {
    expect(await chain([member('a', false, deny)]).admit(message())).toEqual({
      admitted: false,
      by: 'a',
      reason: 'not on the list',
    })
    expect((await chain([member('a', true, deny)]).admit(message())).admitted).toBe(false)
  })

  it('a throwing advisory inhibitor is skipped with a warning', async () => {
    lines.length = 0
    expect(await chain([member('a', false, boom), member('b', false, allow)]).admit(message())).toEqual({
      admitted: true,
    })
    expect(lines.find((l) => l.level === 'warn')?.meta).toMatchObject({
      inhibitor: 'a',
      error: 'database down',
    })
  })

  it('a throwing enforcing inhibitor refuses all traffic', async () => {
    const result = await chain([member('a', true, boom)]).admit(message())
    expect(result).toMatchObject({ admitted: false, by: 'a' })
    if (!result.admitted) expect(result.reason).toContain('database down')
  })

  it('an unusable enforcing inhibitor refuses all traffic; an advisory one is absent', async () => {
    const unusable = (enforcing: boolean): AdmissionMember => ({
      name: 'gate',
      enforcing,
      usable: false,
      reason: 'start() threw',
    })
    expect((await chain([unusable(true)]).admit(message())).admitted).toBe(false)
    expect((await chain([unusable(false)]).admit(message())).admitted).toBe(true)
  })

  it('a refusal without a reason is still a refusal, advisory or enforcing', async () => {
    for (const verdict of [{ allow: false }, { allow: false, reason: '' }, { allow: false, reason: 7 }]) {
      const noReason = () => verdict as unknown as Verdict
      for (const enforcing of [false, true]) {
        const judged = await chain([member('a', enforcing, noReason)]).admit(message())
        expect(judged).toEqual({ admitted: false, by: 'a', reason: 'refused without giving a reason' })
      }
    }
  })

  it('anything else an inspect() answers is its failure: skipped when advisory, refusing all when enforcing', async () => {
    for (const verdict of [undefined, null, 'no', { allow: 'false' }, {}]) {
      const odd = () => verdict as unknown as Verdict
      expect((await chain([member('a', false, odd)]).admit(message())).admitted).toBe(true)
      expect((await chain([member('a', true, odd)]).admit(message())).admitted).toBe(false)
    }
  })
})

describe('order and confinement', () => {
  it('runs in name order, whatever the discovery order', async () => {
    const seen: string[] = []
    const spy = (name: string) =>
      member(name, false, () => {
        seen.push(name)
        return { allow: true }
      })
    await chain([spy('zeta'), spy('alpha'), spy('mid')]).admit(message())
    expect(seen).toEqual(['alpha', 'mid', 'zeta'])
  })

  it('a confined inhibitor, even an enforcing one, only judges its channels', async () => {
    const confined = { gate: ['discord'] }
    const gate = member('gate', true, deny)
    expect((await chain([gate], confined).admit(message('signal'))).admitted).toBe(true)
    expect((await chain([gate], confined).admit(message('discord'))).admitted).toBe(false)
  })

  it('asks where each inhibitor is confined only while some inhibitor is', async () => {
    const confined: Record<string, string[]> = {}
    const asked: string[] = []
    const admission = new AdmissionChain({
      members: () => [member('gate', true, deny)],
      confinedTo: (name) => {
        asked.push(name)
        return confined[name] ?? []
      },
      confinesAny: () => Object.keys(confined).length > 0,
      logger,
    })
    expect((await admission.admit(message('signal'))).admitted).toBe(false)
    expect(asked).toEqual([])
    confined.gate = ['discord']
    expect((await admission.admit(message('signal'))).admitted).toBe(true)
    expect(asked).toEqual(['gate'])
  })
})

describe('sync and async verdicts', () => {
  it('answers at once, with no promise, while every verdict is synchronous', () => {
    const admission = chain([member('a', true, allow), member('b', false, allow)]).admit(message())
    expect(admission).not.toBeInstanceOf(Promise)
    expect(admission).toEqual({ admitted: true })
    const refused = chain([member('a', false, allow), member('b', true, deny)]).admit(message())
    expect(refused).toEqual({ admitted: false, by: 'b', reason: 'not on the list' })
  })

  it('waits for a promised verdict and judges the rest after it, in name order', async () => {
    const seen: string[] = []
    const later = (name: string, verdict: Verdict) =>
      member(name, true, async () => {
        seen.push(name)
        return verdict
      })
    const now = (name: string, verdict: Verdict) =>
      member(name, true, () => {
        seen.push(name)
        return verdict
      })
    const admission = chain([
      now('c', { allow: false, reason: 'no' }),
      later('b', { allow: true }),
      now('a', { allow: true }),
    ]).admit(message())
    expect(admission).toBeInstanceOf(Promise)
    expect(await admission).toEqual({ admitted: false, by: 'c', reason: 'no' })
    expect(seen).toEqual(['a', 'b', 'c'])
    const rejected = chain([
      member('a', true, () => Promise.reject(new Error('gone'))),
      member('b', false, allow),
    ]).admit(message())
    expect((await rejected).admitted).toBe(false)
  })

  it('sorts a list once and reads a new list as soon as the members change', async () => {
    let members = [member('b', false, deny), member('a', false, allow)]
    const admission = new AdmissionChain({ members: () => members, confinedTo: () => [], logger })
    expect(await admission.admit(message())).toEqual({ admitted: false, by: 'b', reason: 'not on the list' })
    members = [member('b', false, allow), member('a', false, deny)]
    expect(await admission.admit(message())).toEqual({ admitted: false, by: 'a', reason: 'not on the list' })
  })
})
