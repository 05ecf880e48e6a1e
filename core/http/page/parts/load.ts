// Reading from the API for a screen: the answer, the error in words, and a way to read again.
import { useCallback, useEffect, useState } from 'react'
import { ApiError } from '../api.ts'
import type { Words } from '../words.ts'

export interface Loaded<T> {
  readonly data: T | undefined
  readonly error: string | undefined
  readonly loading: boolean
  reload(): void
}

export function useLoad<T>(read: () => Promise<T>, deps: readonly unknown[], words: Words): Loaded<T> {
  const [data, setData] = useState<T>()
  const [error, setError] = useState<string>()
  const [loading, setLoading] = useState(true)
  const [round, setRound] = useState(0)
  // biome-ignore lint/correctness/useExhaustiveDependencies: the caller names what the read depends on
  useEffect(() => {
    let current = true
    setLoading(true)
    read().then(
      (value) => {
        if (!current) return
        setData(value)
        setError(undefined)
        setLoading(false)
      },
      (problem: unknown) => {
        if (!current) return
        setError(describe(problem, words))
        setLoading(false)
      },
    )
    return () => {
      current = false
    }
  }, [...deps, round])
  const reload = useCallback(() => setRound((value) => value + 1), [])
  return { data, error, loading, reload }
}

/** A problem in the reader's words: the API's own reason, or what to do when the bot is unreachable. */
export function describe(problem: unknown, words: Words): string {
  if (problem instanceof ApiError) {
    if (problem.status === 0) return words.t('problem.network')
    if (problem.message !== '') return problem.message
    return words.t('problem.status', { status: problem.status })
  }
  // A fault in the page itself: the console keeps the detail for whoever debugs it.
  console.error(problem)
  return words.t('problem.unexpected')
}

/** Runs a write, remembers its outcome for a notice, and reads again when it worked. */
export function useAction(words: Words, after?: () => void) {
  const [busy, setBusy] = useState<string>()
  const [notice, setNotice] = useState<{ kind: 'ok' | 'error'; text: string }>()
  const run = useCallback(
    async (label: string, work: () => Promise<unknown>, success?: string): Promise<boolean> => {
      setBusy(label)
      setNotice(undefined)
      try {
        await work()
        if (success) setNotice({ kind: 'ok', text: success })
        after?.()
        return true
      } catch (problem) {
        setNotice({ kind: 'error', text: describe(problem, words) })
        return false
      } finally {
        setBusy(undefined)
      }
    },
    [words, after],
  )
  return { run, busy, notice, clear: () => setNotice(undefined) }
}
