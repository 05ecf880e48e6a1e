// A sandbox worker that ends its own thread on its first program: the bot loses its transport.
declare const self: Worker
self.onmessage = () => process.exit(3)
