import { describe, expect, it } from 'bun:test'
import { isRefusalError, RefusalError, SCOPE_METHODS } from '../src/index.ts'

const ref = { domain: 'common', key: 'refusal.inhibitor_unknown', params: { inhibitor: 'ghost' } }

describe('RefusalError', () => {
  it('is an Error carrying the refusal, its message English for a log', () => {
    const error = new RefusalError(ref, 'No inhibitor named "ghost" is installed.')
    expect(error).toBeInstanceOf(Error)
    expect(error.name).toBe('RefusalError')
    expect(error.refusal).toEqual(ref)
    expect(error.message).toBe('No inhibitor named "ghost" is installed.')
    expect(new RefusalError(ref).message).toBe('refused: common/refusal.inhibitor_unknown')
  })

  it('is recognised without instanceof, so a rejection from another copy of septum still reads as one', () => {
    expect(isRefusalError(new RefusalError(ref))).toBe(true)
    const elsewhere = Object.assign(new Error('refused'), { name: 'RefusalError', refusal: ref })
    expect(isRefusalError(elsewhere)).toBe(true)
  })

  it('is not mistaken for a fault', () => {
    expect(isRefusalError(new Error('disk full'))).toBe(false)
    expect(isRefusalError(Object.assign(new Error('x'), { name: 'RefusalError' }))).toBe(false)
    expect(isRefusalError(Object.assign(new Error('x'), { name: 'RefusalError', refusal: 'no' }))).toBe(false)
    expect(isRefusalError({ name: 'RefusalError', refusal: ref })).toBe(false)
    expect(isRefusalError(undefined)).toBe(false)
  })
})

describe('restrictions.manage method names', () => {
  it('mounts setInhibitorChannels beside confineInhibitor', () => {
    expect(SCOPE_METHODS['restrictions.manage']).toContain('setInhibitorChannels')
    expect(SCOPE_METHODS['restrictions.manage']).toContain('confineInhibitor')
  })
})
