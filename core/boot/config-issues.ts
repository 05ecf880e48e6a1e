import type { z } from 'zod'

/** One validation issue as lines an operator reads: the key path first, then what is wrong. */
export function describeIssue(issue: z.core.$ZodIssue): string[] {
  const at = keyPath(issue.path)
  const prefix = at === '' ? '' : `${at}: `
  switch (issue.code) {
    case 'unrecognized_keys':
      return issue.keys.map((key) => `${prefix}unknown key "${key}"`)
    case 'invalid_type':
      return [
        issue.input === undefined
          ? `${prefix}required (expected ${article(issue.expected)})`
          : `${prefix}expected ${article(issue.expected)}, received ${received(issue.input)}`,
      ]
    case 'too_small':
      return [`${prefix}${tooSmall(issue)}`]
    case 'too_big':
      return [`${prefix}must be at most ${String(issue.maximum)}`]
    default:
      return [`${prefix}${issue.message.replace(/^Invalid (input|option): /, '')}`]
  }
}

function tooSmall(issue: z.core.$ZodIssueTooSmall): string {
  const minimum = String(issue.minimum)
  if (issue.origin === 'string') return 'must not be empty'
  if (issue.origin === 'array') return `must list at least ${minimum}`
  return issue.inclusive === false ? `must be more than ${minimum}` : `must be at least ${minimum}`
}

function keyPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((joined, part) => {
    if (typeof part === 'number') return `${joined}[${part}]`
    return joined === '' ? String(part) : `${joined}.${String(part)}`
  }, '')
}

function article(expected: string): string {
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`
}

function received(input: unknown): string {
  if (input === null) return 'nothing (null)'
  if (Array.isArray(input)) return 'a list'
  if (typeof input === 'object') return 'a mapping'
  if (typeof input === 'string') return `the text ${JSON.stringify(input)}`
  return `${article(typeof input)} (${String(input)})`
}
