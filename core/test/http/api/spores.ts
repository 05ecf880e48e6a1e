// The spores the API tests run: the shipped admin spore (so chat and the API meet the same rules),
// an enzyme with a secret setting, a filter to confine, a rhiza that reports its health.
import { realSpore } from '../../support/real-spores.ts'

/** Stored before the first start; no answer may ever carry it. */
export const VAULT_TOKEN = 'vault-token-7f3a9c1e'

export const VAULT = {
  'spore.yaml': `kind: enzyme
name: vault
septum: "^1.0"
description: Keeps a token
commands:
  - name: peek
    description: command.peek
    respond: peek
`,
  'translations/en.yaml': 'command:\n  peek: Peeks\npeek: nothing to see\n',
  'translations/fr.yaml': 'command:\n  peek: Regarde\npeek: rien à voir\n',
  'src/index.ts': `import { defineConfig } from '@mycelo/septum'
import { z } from 'zod'
export const configSchema = defineConfig(
  z.object({ token: z.string().min(1), port: z.number().int().optional() }),
  { secrets: ['token'] },
)
export default { configSchema, create: () => ({ handlers: {} }) }
`,
}

export const GUARD = {
  'spore.yaml': 'kind: inhibitor\nname: guard\nseptum: "^1.0"\nenforcing: false\n',
  'src/index.ts': 'export default { create: () => ({ inspect: () => ({ allow: true }) }) }\n',
}

export const BEACON = {
  'spore.yaml': 'kind: rhiza\nname: beacon\nseptum: "^1.0"\n',
  'src/index.ts': `export default {
  create: () => ({
    api: {},
    async start() {},
    async stop() {},
    async health() { return { state: 'healthy', detail: 'beacon is lit', checkedAt: new Date(0) } },
  }),
}
`,
}

/** The spores of every API test bot, and what the operator left stored before it started. */
export const API_SPORES = { admin: realSpore('admin'), vault: VAULT, guard: GUARD, beacon: BEACON }

export const API_SEED = {
  secrets: { vault: { token: VAULT_TOKEN } },
  roles: {
    // Some of the admin patterns, not all: the page a moderator sees.
    moderator: ['admin.plugins', 'admin.people', 'admin.enable', 'admin.health'],
    // Hands out roles, but holds less than the owner.
    steward: ['admin.roles', 'admin.grant', 'admin.revoke', 'admin.people'],
  },
  grants: [
    { channel: 'chat', externalId: 'mod', roles: ['moderator'] },
    { channel: 'chat', externalId: 'stew', roles: ['steward'] },
  ],
}
