// Scenarios that need a process of their own: booting with N spores, and the bot's idle memory.
// Each runs `bun core/boot/main.ts` the way `bun run start` does, on a config in a scratch folder.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { ROOT, writeSpore } from '../core/test/boot/process.ts'
import { scratchFolder } from '../core/test/store/scratch.ts'
import { LAYERS, type Layer, layerScript, releasingPages } from './idle-layers.ts'

const RUNNING = 'Mycelo is running'

interface Started {
  readonly child: ReturnType<typeof Bun.spawn>
  /** Milliseconds from spawning the process to its "running" line. */
  readonly readyMs: number
  /** CPU the process had used by then, on all its threads: on a shared machine, steadier than the wall. */
  readonly cpuMs: number
  /** Of cpuMs, what its main thread and its Worker threads (spore hosts) used; the rest is Bun's own. */
  readonly threads: ThreadCpu
}

/** Where a process's CPU went: its main thread, its Worker threads, and the rest (JIT, GC, allocator). */
export interface ThreadCpu {
  readonly mainMs: number
  readonly workersMs: number
}

/** Spawns the bot and resolves once it says it is running; throws with its output if it ends first. */
async function startBot(configFile: string): Promise<Started> {
  const spawned = performance.now()
  const child = Bun.spawn(['bun', '--no-install', 'core/boot/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, MYCELO_CONFIG: configFile, MYCELO_LOG_LEVEL: 'warn' },
    stdin: 'ignore',
    stdout: 'pipe',
    stderr: 'pipe',
  })
  const stderr = new Response(child.stderr).text()
  const output = await readUntil(child.stdout, RUNNING)
  if (output.includes(RUNNING))
    return {
      child,
      readyMs: performance.now() - spawned,
      cpuMs: cpuMsOf(`/proc/${child.pid}/stat`),
      threads: threadCpuOf(child.pid),
    }
  throw new Error(`bench: the bot ended before it was running:\n${output}\n${await stderr}`)
}

async function drain(reader: { read(): Promise<{ done: boolean }> }): Promise<void> {
  while (!(await reader.read()).done) {
    // Only emptied: what the bot says after it runs is not measured.
  }
}

async function stopBot(started: Started): Promise<void> {
  started.child.kill('SIGTERM')
  await started.child.exited
}

/** An enzyme with a respond: and a code: command, a module and two catalogues, like most spores. */
function generatedSpore(i: number): Record<string, string> {
  const name = `spore${i}`
  return {
    'spore.yaml': `kind: enzyme
name: ${name}
septum: "^1.0"
description: generated spore ${i}
commands:
  - name: hello
    description: hello.description
    respond: hello.text
  - name: say
    description: say.description
    code: say
    args:
      - name: text
        description: say.text
`,
    'src/index.ts': `export default {
  create: () => ({
    handlers: {
      async say(invocation, ctx) {
        await ctx.reply({ text: ctx.t('say.reply', { text: invocation.args.text ?? '' }) })
      },
    },
  }),
}
`,
    'translations/en.yaml':
      'hello:\n  description: Says hello\n  text: Hello!\nsay:\n  description: Repeats\n  text: What to say\n  reply: "{text}"\n',
    'translations/fr.yaml':
      'hello:\n  description: Dit bonjour\n  text: Bonjour !\nsay:\n  description: Répète\n  text: Quoi dire\n  reply: "{text}"\n',
  }
}

export interface BootFigures {
  readonly firstStartMs: number
  readonly laterStartMs: number
  readonly firstCpuMs: number
  readonly laterCpuMs: number
  /** The later start's CPU by thread (no first-start probe in it). */
  readonly laterThreads: ThreadCpu
}

/** CPU time so far (user and system) of a process (every thread) or of one thread, from its stat file. */
function cpuMsOf(statFile: string): number {
  // The fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
  const fields = readFileSync(statFile, 'utf8').split(') ')[1]!.split(' ')
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS
}

/**
 * The main thread's CPU and the Worker threads' (Bun names each "Worker"), from /proc: each thread's
 * run time in nanoseconds (schedstat), since a hundred threads' stat ticks lose up to one tick each.
 */
function threadCpuOf(pid: number): ThreadCpu {
  const runMs = (tid: string) =>
    Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]) / 1e6
  let workersMs = 0
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    if (readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim() === 'Worker') workersMs += runMs(tid)
  }
  return { mainMs: runMs(String(pid)), workersMs }
}
/** Linux's USER_HZ, which /proc counts CPU time in. */
const CLOCK_TICKS = 100

/** From spawning the process to "running", with `count` generated spores: first start, then later. */
export async function bootWith(
  count: number,
  isolation: 'worker' | 'inline' = 'inline',
): Promise<BootFigures> {
  const scratch = scratchFolder(`bench-boot${count}`)
  try {
    const spores = join(scratch.path, 'spores')
    mkdirSync(spores, { recursive: true })
    for (let i = 0; i < count; i++) writeSpore(spores, `spore${i}`, generatedSpore(i))
    const configFile = join(scratch.path, 'mycelo.yaml')
    // Spores in a scratch folder would run in hosts by default: each figure says which it measures.
    const hosts = `isolation: { default: ${isolation} }\n`
    writeFileSync(configFile, `spores: [${spores}]\ndatabase: ${join(scratch.path, 'mycelo.db')}\n${hosts}`)
    const first = await startBot(configFile)
    await stopBot(first)
    const later = await startBot(configFile)
    await stopBot(later)
    return {
      firstStartMs: first.readyMs,
      laterStartMs: later.readyMs,
      firstCpuMs: first.cpuMs,
      laterCpuMs: later.cpuMs,
      laterThreads: later.threads,
    }
  } finally {
    scratch.remove()
  }
}

/** A process's resident memory, and how much of it is mapped files (mostly Bun's own executable). */
export interface Resident {
  readonly totalMiB: number
  readonly fileMiB: number
  readonly anonymousMiB: number
}

export interface IdleFigures {
  readonly firstStart: Resident
  readonly laterStart: Resident
  /** A bare `bun` process idling: the floor no code of the bot's can go below. */
  readonly bareBun: Resident
  /** The same, once it released the pages of Bun's executable it read (as the bot does). */
  readonly bareBunReleased: Resident
  /** Processes that stop short of the bot, one layer more each (see idle-layers.ts). */
  readonly layers: Readonly<Record<Layer, Resident>>
}

/**
 * Resident memory of the bot on its own first-party spores, idle, after a first and a later start.
 * Read 10 s after each process is ready: the bot releases start-up's pages of the executable a
 * second after it runs, and what its idle timers map again in the seconds after is counted.
 */
export async function idleMemory(settleMs = 10_000): Promise<IdleFigures> {
  const scratch = scratchFolder('bench-idle')
  try {
    const configFile = join(scratch.path, 'mycelo.yaml')
    writeFileSync(
      configFile,
      `spores: [${join(ROOT, 'spores')}]\ndatabase: ${join(scratch.path, 'mycelo.db')}\n`,
    )
    const measure = async () => {
      const started = await startBot(configFile)
      await Bun.sleep(settleMs)
      const rss = resident(started.child.pid)
      await stopBot(started)
      return rss
    }
    const firstStart = await measure()
    const laterStart = await measure()
    const bareBun = await idleProcess(
      ['bun', '-e', 'console.log("ready"); setInterval(() => {}, 60_000)'],
      settleMs,
    )
    // The same process releasing the executable's pages it read, as the bot does: how much of the
    // floor is start-up's code, shown beside it so that the figure over the floor is read fairly.
    const bareBunReleased = await idleProcess(
      ['bun', '-e', `${releasingPages(ROOT)}; console.log("ready"); setInterval(() => {}, 60_000)`],
      settleMs,
    )
    const layers = {} as Record<Layer, Resident>
    for (const layer of LAYERS) {
      layers[layer] = await idleProcess(['bun', layerScript(ROOT, scratch.path, layer)], settleMs)
    }
    return { firstStart, laterStart, bareBun, bareBunReleased, layers }
  } finally {
    scratch.remove()
  }
}

/** A process that prints `ready` once loaded, measured after it has idled as long as the bot. */
async function idleProcess(command: readonly string[], settleMs: number): Promise<Resident> {
  const child = Bun.spawn([...command], { cwd: ROOT, stdin: 'ignore', stdout: 'pipe', stderr: 'pipe' })
  const stderr = new Response(child.stderr).text()
  try {
    const stdout = await readUntil(child.stdout, 'ready')
    if (!stdout.includes('ready')) throw new Error(`bench: ${command.join(' ')} ended:\n${await stderr}`)
    await Bun.sleep(settleMs)
    return resident(child.pid)
  } finally {
    child.kill('SIGTERM')
    await child.exited
  }
}

/**
 * What a process printed up to `text` (or all of it, if it ended first). The rest is read to the
 * end in the background: a pipe nobody drains would block the process's writes.
 */
async function readUntil(stream: ReadableStream<Uint8Array>, text: string): Promise<string> {
  let output = ''
  const decoder = new TextDecoder()
  const reader = stream.getReader()
  while (!output.includes(text)) {
    const { done, value } = await reader.read()
    if (done) break
    output += decoder.decode(value, { stream: true })
  }
  void drain(reader)
  return output
}

function resident(pid: number): Resident {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const mib = (field: string) => {
    const kib = Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1])
    if (!Number.isFinite(kib)) throw new Error(`bench: no ${field} for process ${pid}`)
    return kib / 1024
  }
  return { totalMiB: mib('VmRSS'), fileMiB: mib('RssFile'), anonymousMiB: mib('RssAnon') }
}
