import { defineConfig } from '@mycelo/septum'
import { z } from 'zod'

/** Where a signal-cli daemon listens: its unix socket, or a TCP host and port. */
export type DaemonEndpoint = { readonly unix: string } | { readonly hostname: string; readonly port: number }

const HOST_PORT = /^(\[[0-9a-fA-F:.]+\]|[^\s:/[\]]+):(\d{1,5})$/

/** Reads a daemon address: an absolute path is a unix socket, anything else must be host:port. */
export function parseDaemonAddress(address: string): DaemonEndpoint | undefined {
  if (address.startsWith('/')) return { unix: address }
  const match = HOST_PORT.exec(address)
  if (match === null) return undefined
  const port = Number(match[2])
  if (port < 1 || port > 65_535) return undefined
  const hostname = match[1]!.replace(/^\[(.*)\]$/, '$1')
  return { hostname, port }
}

/** The signal-cli-rest-api base URL, without a trailing slash; undefined when it is not http(s). */
export function parseRestAddress(address: string): string | undefined {
  if (!URL.canParse(address)) return undefined
  const url = new URL(address)
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined
  return url.href.replace(/\/+$/, '')
}

const settings = z.strictObject({
  account: z
    .string()
    .regex(/^\+[1-9]\d{6,14}$/)
    .describe('settings.account'),
  transport: z.enum(['jsonrpc', 'rest']).default('jsonrpc').describe('settings.transport'),
  address: z.string().min(1).describe('settings.address'),
  token: z.string().min(1).optional().describe('settings.token'),
  username: z.string().min(1).optional().describe('settings.username'),
  password: z.string().min(1).optional().describe('settings.password'),
  checkSeconds: z.number().int().min(1).max(3600).optional().describe('settings.checkSeconds'),
})

type Settings = z.output<typeof settings>

// Each refusal's message is a catalogue key of this spore (translations/), so the operator reads it
// in their language; the English lives in en.yaml.
function checkSettings(value: Settings, issues: (issue: { path: string[]; message: string }) => void): void {
  if (value.transport === 'jsonrpc') {
    if (parseDaemonAddress(value.address) === undefined) {
      issues({ path: ['address'], message: 'config.address.jsonrpc' })
    }
    for (const key of ['token', 'username', 'password'] as const) {
      if (value[key] !== undefined) issues({ path: [key], message: 'config.auth.rest_only' })
    }
    return
  }
  if (parseRestAddress(value.address) === undefined)
    issues({ path: ['address'], message: 'config.address.rest' })
  if ((value.username === undefined) !== (value.password === undefined)) {
    issues({ path: [value.username === undefined ? 'username' : 'password'], message: 'config.auth.pair' })
  }
  if (value.token !== undefined && value.username !== undefined) {
    issues({ path: ['token'], message: 'config.auth.either' })
  }
}

const checked = settings.superRefine((value, ctx) => {
  checkSettings(value, ({ path, message }) => ctx.addIssue({ code: 'custom', path, message }))
})

export type SignalConfig = z.output<typeof checked>

export const configSchema = defineConfig(checked, { secrets: ['token', 'password'] })
