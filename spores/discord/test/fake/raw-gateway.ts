/** A raw gateway socket, to check the fake's side of the protocol without a library in between. */
export async function rawGateway(url: string): Promise<{
  socket: WebSocket
  frames: { op: number; t?: string | null; d: unknown }[]
  closed: Promise<number>
  next(op: number): Promise<{ op: number; t?: string | null; d: unknown }>
}> {
  const socket = new WebSocket(url)
  const frames: { op: number; t?: string | null; d: unknown }[] = []
  const listeners = new Set<() => void>()
  socket.addEventListener('message', (event) => {
    frames.push(JSON.parse(String(event.data)))
    for (const listener of listeners) listener()
  })
  const closed = new Promise<number>((resolve) =>
    socket.addEventListener('close', (event) => resolve(event.code)),
  )
  const next = (op: number) =>
    new Promise<{ op: number; t?: string | null; d: unknown }>((resolve) => {
      const check = () => {
        const found = frames.find((frame) => frame.op === op)
        if (found === undefined) return
        listeners.delete(check)
        frames.splice(frames.indexOf(found), 1)
        resolve(found)
      }
      listeners.add(check)
      check()
    })
  return { socket, frames, closed, next }
}
