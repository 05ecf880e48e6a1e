import { expect, it } from 'bun:test'
import { SEPTUM_VERSION } from '@mycelo/septum'
import pkg from '../package.json' with { type: 'json' }

it('SEPTUM_VERSION is the package version, 1.1.0', () => {
  expect(SEPTUM_VERSION).toBe(pkg.version)
  expect(SEPTUM_VERSION).toBe('1.1.0')
})
