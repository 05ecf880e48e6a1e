// A sandbox worker that answers its first program with something that is not the protocol.
declare const self: Worker
self.onmessage = () => self.postMessage({ kind: 'result', runId: 'seven', outcome: 'fine' })
