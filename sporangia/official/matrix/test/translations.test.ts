import { describe, expect, it } from 'bun:test'
import { join } from 'node:path'
import { compileCatalog } from '@mycelo/septum'
import { sporeFiles } from '../../kit/catalogues.ts'
import { OPERATOR_WORDING, type OperatorSentence, worded } from '../src/wording.ts'

const files = sporeFiles(join(import.meta.dir, '..'))
const params = {
  reason: 'M_UNKNOWN_TOKEN: x',
  homeserver: 'https://m',
  room: '!r:m',
  inviter: '@a:m',
  policy: 'listed',
  count: 2,
  seconds: 3,
  limit: 100,
}

describe('the matrix catalogues', () => {
  it('hold in English exactly the sentences the log and health() give', () => {
    const english = compileCatalog('en', files.catalogs.en).messages
    for (const key of Object.keys(OPERATOR_WORDING) as OperatorSentence[]) {
      expect(english.get(`operator.${key}`)?.format(params)).toBe(worded(key, params))
    }
  })

  it('give French every English key, each compiling and filling every placeholder', () => {
    expect(files.keysOf('fr')).toEqual(files.keysOf('en'))
    const french = compileCatalog('fr', files.catalogs.fr).messages
    for (const key of files.keysOf('en')) expect(String(french.get(key)?.format(params))).not.toContain('{')
  })
})
