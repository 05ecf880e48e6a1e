// The first-start probe's own process: imports each spore's module, checks its stored settings,
// and prints one JSON line with every verdict. Nothing it imports stays in the bot's memory.
import type { Manifest } from '@mycelo/septum'
import { checkConfiguration } from './configuration.ts'
import { loadModule } from './module-loading.ts'
import type { ProbeRequest, ProbeVerdicts } from './probe.ts'

// A bot killed mid-start leaves no probe behind: once its parent is gone, the probe ends too.
const parent = process.ppid
setInterval(() => {
  if (process.ppid !== parent) process.exit(1)
}, 200).unref()

const request = JSON.parse(await new Response(Bun.stdin.stream()).text()) as ProbeRequest
const verdicts: ProbeVerdicts = {}
for (const spore of request.spores) {
  const loaded = await loadModule(spore.dir, spore.manifest as Manifest, { deadlineMs: request.deadlineMs })
  if (!loaded.ok) {
    // Only a settings refusal is conclusive here: a load that failed, or ran out of time in this
    // cold process, is tried again in the bot, which decides as it would without a probe.
    verdicts[spore.name] = null
    continue
  }
  const checked = await checkConfiguration(loaded.module?.exported.configSchema, spore.settings, spore.name)
  verdicts[spore.name] = checked.ok ? null : checked.reason
}
process.stdout.write(`${JSON.stringify(verdicts)}\n`)
// A module may leave timers or sockets open: the verdicts are written, so the probe is done.
process.exit(0)
