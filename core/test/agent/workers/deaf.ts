// A sandbox worker that takes a program and then never yields: no stop flag, no message reaches it.
declare const self: Worker
self.onmessage = () => {
  while (true) {}
}
