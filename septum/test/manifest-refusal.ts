import { expect } from 'bun:test'
import { ManifestError, parseManifest } from '../src/manifest/index.ts'

/** The ManifestError parseManifest throws for `value`; fails the test when it parses or throws anything else. */
export function refusalOf(value: unknown): ManifestError {
  let thrown: unknown
  try {
    parseManifest(value)
  } catch (error) {
    thrown = error
  }
  expect(thrown).toBeInstanceOf(ManifestError)
  return thrown as ManifestError
}

/** Asserts the refusal names `path` and says `fragment`, and that the message leads with the path. */
export function expectRefusal(value: unknown, path: string, fragment: string): ManifestError {
  const error = refusalOf(value)
  expect(error.path).toBe(path)
  expect(error.message).toContain(fragment)
  if (path !== '') expect(error.message.startsWith(`${path}: `)).toBe(true)
  return error
}

export const enzyme = (fields: Record<string, unknown> = {}): Record<string, unknown> => ({
  kind: 'enzyme',
  name: 'radarr-helper',
  septum: '^1.0',
  commands: [{ name: 'help', description: 'command.help.description', respond: 'help.text' }],
  ...fields,
})

export const rhiza = (fields: Record<string, unknown> = {}): Record<string, unknown> => ({
  kind: 'rhiza',
  name: 'radarr',
  septum: '^1.0',
  ...fields,
})
