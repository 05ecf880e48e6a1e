import { RestApi, type RestOptions } from './rest-api.ts'
import { type FrameSink, isRecord, type SignalTransport, type TransportSession } from './transport.ts'

export type { RestOptions } from './rest-api.ts'

/**
 * The signal-cli-rest-api container in json-rpc mode: REST calls to send and list groups, and a
 * websocket at /v1/receive/<number> that carries each receive payload as one text message.
 */
export function restTransport(options: RestOptions): SignalTransport {
  const api = new RestApi(options)
  return {
    address: options.address,
    attachmentUrl: (id) => `${api.base}/v1/attachments/${encodeURIComponent(id)}`,
    dial: (sink) => openReceiveSocket(api, sink, options.requestTimeoutMs),
  }
}

function openReceiveSocket(api: RestApi, sink: FrameSink, timeoutMs: number): Promise<TransportSession> {
  const url = `${api.base.replace(/^http/, 'ws')}/v1/receive/${api.number}`
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers: { ...api.headers } })
    let opened = false
    let settleClosed: (reason: string) => void = () => {}
    const closed = new Promise<string>((settle) => {
      settleClosed = settle
    })
    // An upgrade that never completes would otherwise hold the reconnection loop forever.
    let timedOut = false
    const timer = setTimeout(() => {
      timedOut = true
      socket.close()
    }, timeoutMs)
    socket.addEventListener('open', () => {
      opened = true
      clearTimeout(timer)
      resolve({
        closed,
        close: () => socket.close(1000, 'closed by the hypha'),
        send: (recipient, message) => api.send(recipient, message),
        react: (recipient, reaction) => api.react(recipient, reaction),
        listGroups: () => api.listGroups(),
      })
    })
    socket.addEventListener('message', (event) => {
      const data: unknown = event.data
      receive(typeof data === 'string' ? data : new TextDecoder().decode(data as ArrayBuffer), sink)
    })
    socket.addEventListener('close', (event) => {
      clearTimeout(timer)
      const reason = timedOut
        ? `the receive websocket did not open within ${timeoutMs} ms`
        : `the receive websocket closed (${event.code}${event.reason === '' ? '' : ` ${event.reason}`})`
      if (!opened)
        void api.whyNoWebsocket(reason).then((why) => reject(new Error(`cannot open ${url}: ${why}`)))
      settleClosed(reason)
    })
  })
}

function receive(frame: string, sink: FrameSink): void {
  let payload: unknown
  try {
    payload = JSON.parse(frame)
  } catch (error) {
    sink.unparseable(frame, error instanceof Error ? error.message : String(error))
    return
  }
  // The container forwards signal-cli's own errors on the same socket as `{ error }`.
  if (isRecord(payload) && typeof payload.error === 'string' && !('envelope' in payload)) {
    sink.unparseable(frame, `signal-cli-rest-api reported: ${payload.error}`)
    return
  }
  sink.received(payload)
}
