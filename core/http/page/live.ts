// One EventSource on /api/v1/events for the whole page; screens listen to the events they show.
import { useEffect, useRef } from 'react'
import type { ApiEvent } from '../api/event.ts'

/** The hub's own event type: the page reads exactly what core/http/api/events.ts sends. */
export type LiveEvent = ApiEvent

type Listener = (event: LiveEvent) => void

const listeners = new Set<Listener>()
let source: EventSource | undefined

/** Opened once the session may read states (admin.plugins); it reconnects by itself. */
export function openLive(): void {
  if (source) return
  source = new EventSource('/api/v1/events')
  for (const type of ['state', 'install', 'log'] as const) {
    source.addEventListener(type, (message) => {
      let event: LiveEvent
      try {
        event = JSON.parse((message as MessageEvent<string>).data) as LiveEvent
      } catch {
        return
      }
      for (const listener of listeners) listener(event)
    })
  }
}

/** Calls `listener` with each live event while the component is shown. */
export function useLive(listener: Listener): void {
  const latest = useRef(listener)
  latest.current = listener
  useEffect(() => {
    const relay: Listener = (event) => latest.current(event)
    listeners.add(relay)
    return () => {
      listeners.delete(relay)
    }
  }, [])
}
