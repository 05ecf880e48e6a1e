import { describe, expect, it } from 'bun:test'
import { readFileSync } from 'node:fs'
import { compileCatalog, flattenCatalog } from '@mycelo/septum'
import { parse } from 'yaml'
import { OPERATOR_WORDING, type OperatorSentence, worded } from '../src/wording.ts'

const catalog = (locale: string): unknown =>
  parse(readFileSync(new URL(`../translations/${locale}.yaml`, import.meta.url), 'utf8'))

const params = {
  account: '+15550100000',
  daemon: 'Specified account does not exist',
  count: 2,
  seconds: 30,
  limit: 100,
  recipient: 'abc',
}

describe('the signal catalogues', () => {
  it('hold in English exactly the sentences the operator reads in the log, the report and health', () => {
    const english = compileCatalog('en', catalog('en')).messages
    for (const key of Object.keys(OPERATOR_WORDING) as OperatorSentence[]) {
      expect(english.get(`operator.${key}`)?.format(params)).toBe(worded(key, params))
    }
  })

  it('give French every English key, and every key compiles and renders', () => {
    const englishKeys = [...flattenCatalog('en', catalog('en')).keys()].sort()
    expect([...flattenCatalog('fr', catalog('fr')).keys()].sort()).toEqual(englishKeys)
    const french = compileCatalog('fr', catalog('fr')).messages
    for (const key of englishKeys) expect(String(french.get(key)?.format(params))).not.toContain('{')
  })
})
