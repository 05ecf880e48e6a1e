#!/usr/bin/env node
// The README's two commands run through here so that a machine with only Node and npm needs no
// other set-up: Bun comes from npm when it is missing, dependencies are installed, then Bun runs.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { delimiter, dirname, isAbsolute, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const BUN_VERSION = '1.4.5'
const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const localBun = join(root, '.tools', 'node_modules', '.bin', 'bun')

const targets = {
  start: (args) => ['--no-install', 'core/boot/main.ts', ...args],
  ci: (args) => ['run', 'ci', ...args],
}

// Set-up steps print to standard error: standard output belongs to Mycelo alone, so that
// `npm start -- --check --json` prints nothing but the JSON.
const SETUP_STDIO = ['inherit', 2, 'inherit']

function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: SETUP_STDIO })
  if (result.error) throw result.error
  return result.status ?? 1
}

function works(command) {
  const result = spawnSync(command, ['--version'], { stdio: 'ignore' })
  return result.status === 0
}

function findBun() {
  if (process.versions.bun) return process.execPath
  if (works('bun')) return 'bun'
  if (existsSync(localBun) && works(localBun)) return localBun
  console.error(`Bun is missing: installing bun@${BUN_VERSION} from npm into .tools/`)
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
  const status = run(npm, [
    'install',
    '--prefix',
    join(root, '.tools'),
    '--no-save',
    '--no-package-lock',
    '--no-audit',
    '--no-fund',
    `bun@${BUN_VERSION}`,
  ])
  if (status !== 0 || !works(localBun)) {
    console.error('Could not install Bun from npm; install it by hand (npm install -g bun) and retry.')
    process.exit(1)
  }
  return localBun
}

const [target = 'start', ...rest] = process.argv.slice(2)
const command = targets[target]
if (!command) {
  console.error(`unknown target "${target}"; expected one of: ${Object.keys(targets).join(', ')}`)
  process.exit(2)
}
const bun = findBun()
// Scripts run by Bun call `bun` by name: a Bun installed here must be found on the PATH too.
if (isAbsolute(bun)) process.env.PATH = `${dirname(bun)}${delimiter}${process.env.PATH ?? ''}`
const install = process.env.CI ? ['install', '--frozen-lockfile'] : ['install']
const installed = run(bun, install)
if (installed !== 0) process.exit(installed)

// The last step runs asynchronously so this process can stay out of the way of shut-down: Ctrl-C
// reaches Bun directly from the terminal, and a SIGTERM sent here is passed on once.
const child = spawn(bun, command(rest), { cwd: root, stdio: 'inherit' })
process.on('SIGINT', () => {})
for (const signal of ['SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal))
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
