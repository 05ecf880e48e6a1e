// An install's progress as the API streams it: JSON lines, each a step, the last the outcome.
import { ApiError, request } from '../api.ts'

export interface Step {
  readonly received: number
  readonly total?: number
}

type Line =
  | { type: 'progress'; received: number; total?: number }
  | { type: 'done' }
  | { type: 'refused'; error: string; key: string }

/** Posts an install-side step with progress as JSON lines; resolves when done, throws a refusal. */
export async function withProgress(path: string, body: unknown, onStep: (step: Step) => void): Promise<void> {
  const answer = await request(`/api/v1${path}`, {
    method: 'POST',
    ...(body === undefined ? {} : { body }),
    accept: 'application/x-ndjson',
  })
  const reader = answer.body?.getReader()
  if (!reader) throw new ApiError(0, 'network', '')
  const decoder = new TextDecoder()
  let buffered = ''
  let outcome: Line | undefined
  for (;;) {
    const { value, done } = await reader.read()
    if (value) buffered += decoder.decode(value, { stream: true })
    const lines = buffered.split('\n')
    buffered = lines.pop() ?? ''
    for (const text of lines) {
      if (text.trim() === '') continue
      const line = JSON.parse(text) as Line
      if (line.type === 'progress')
        onStep({ received: line.received, ...(line.total ? { total: line.total } : {}) })
      else outcome = line
    }
    if (done) break
  }
  if (outcome?.type === 'refused') throw new ApiError(409, outcome.key, outcome.error)
  if (outcome?.type !== 'done') throw new ApiError(0, 'network', '')
}
