import { expect, it } from 'bun:test'
import {
  guardOf,
  isRolePattern,
  patternCovers,
  patternsAllow,
  uncoveredPatterns,
} from '../../identity/patterns.ts'

it('recognises the three pattern forms and nothing else', () => {
  for (const ok of ['*', 'admin.*', 'radarr-helper.add']) expect(isRolePattern(ok)).toBe(true)
  for (const bad of ['', 'admin', '*.add', 'Admin.*', 'a.b.c', 'admin.', '.add'])
    expect(isRolePattern(bad)).toBe(false)
})

it('allows by wildcard, plugin wildcard or exact command', () => {
  const grant = guardOf('admin', 'grant')
  expect(patternsAllow(new Set(['*']), grant)).toBe(true)
  expect(patternsAllow(new Set(['admin.*']), grant)).toBe(true)
  expect(patternsAllow(new Set(['admin.grant']), grant)).toBe(true)
  expect(patternsAllow(new Set(['admin.revoke', 'help.*']), grant)).toBe(false)
  expect(patternsAllow(new Set(['admin-tools.*', 'admin.grants']), grant)).toBe(false)
  expect(patternsAllow(new Set(), guardOf('help', 'help'))).toBe(false)
})

it('covers a pattern by `*`, by its plugin wildcard, or by itself, and nothing wider', () => {
  for (const wanted of ['*', 'admin.*', 'admin.grant']) expect(patternCovers('*', wanted)).toBe(true)
  expect(patternCovers('admin.*', 'admin.*')).toBe(true)
  expect(patternCovers('admin.*', 'admin.grant')).toBe(true)
  expect(patternCovers('admin.*', '*')).toBe(false)
  expect(patternCovers('admin.*', 'admin-tools.grant')).toBe(false)
  expect(patternCovers('admin.grant', 'admin.grant')).toBe(true)
  expect(patternCovers('admin.grant', 'admin.*')).toBe(false)
  expect(patternCovers('admin.grant', 'admin.grants')).toBe(false)
  expect(uncoveredPatterns(['admin.grant', 'help.*'], ['help.help', 'admin.*', '*', 'admin.grant'])).toEqual([
    'admin.*',
    '*',
  ])
})
