// The least a spore host can be: a worker that says it is ready and then listens, as a host does.
const scope = globalThis as unknown as { onmessage: unknown; postMessage(message: unknown): void }
scope.onmessage = () => {}
scope.postMessage('ready')
