import { expect, it } from 'bun:test'
import { isRolePattern, patternsAllow } from '../../identity/patterns.ts'

it('recognises the three pattern forms and nothing else', () => {
  for (const ok of ['*', 'admin.*', 'radarr-helper.add']) expect(isRolePattern(ok)).toBe(true)
  for (const bad of ['', 'admin', '*.add', 'Admin.*', 'a.b.c', 'admin.', '.add'])
    expect(isRolePattern(bad)).toBe(false)
})

it('allows by wildcard, plugin wildcard or exact command', () => {
  expect(patternsAllow(['*'], 'admin', 'grant')).toBe(true)
  expect(patternsAllow(['admin.*'], 'admin', 'grant')).toBe(true)
  expect(patternsAllow(['admin.grant'], 'admin', 'grant')).toBe(true)
  expect(patternsAllow(['admin.revoke', 'help.*'], 'admin', 'grant')).toBe(false)
  expect(patternsAllow([], 'help', 'help')).toBe(false)
})
