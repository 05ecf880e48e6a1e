// Principals and their identities, roles and grants, through the functions chat's admin spore
// calls: the role ceiling and the last-owner rule are theirs, answered here in the reader's words.

import { z } from 'zod'
import { guardOf } from '../../mycelium/guards.ts'
import { principalsManage, principalsRead } from '../../mycelium/principals.ts'
import { rolesAssign, rolesManage, rolesRead } from '../../mycelium/roles.ts'
import { answerOutcome, notFound } from './answer.ts'
import { type ApiDeps, type ApiRoute, route } from './route.ts'

const nameBody = z.strictObject({ displayName: z.string() })
const grantBody = z.strictObject({ role: z.string().min(1) })
const newRole = z.strictObject({ name: z.string(), patterns: z.array(z.string()) })
const patternsBody = z.strictObject({ patterns: z.array(z.string()) })

export function peopleRoutes({ runtime }: ApiDeps): ApiRoute[] {
  const read = principalsRead(runtime)
  const manage = principalsManage(runtime)
  const roles = rolesRead(runtime)
  const assign = rolesAssign(runtime)
  const roleAdmin = rolesManage(runtime)
  return [
    route({
      method: 'get',
      path: '/me',
      summary: 'Who this session acts as: the principal, their roles and the command patterns they hold',
      async handle({ c, principalId }) {
        const principal = await read.getPrincipal(principalId)
        const snapshot = runtime.directory.load(principalId)
        return c.json({ principal, patterns: [...(snapshot?.patterns ?? [])].sort() })
      },
    }),
    route({
      method: 'get',
      path: '/principals',
      summary: 'Every principal with their identities and roles',
      guard: guardOf('principals.read', 'listPrincipals'),
      handle: async ({ c }) => c.json({ principals: await read.listPrincipals() }),
    }),
    route({
      method: 'get',
      path: '/principals/:id',
      summary: 'One principal',
      guard: guardOf('principals.read', 'getPrincipal'),
      async handle({ c, param }) {
        const principal = await read.getPrincipal(param('id'))
        if (principal === null)
          return notFound(runtime, c, 'api.principalUnknown', { principal: param('id') })
        return c.json({ principal })
      },
    }),
    route({
      method: 'get',
      path: '/identities/:channel/:externalId',
      summary: 'The principal a channel identity belongs to',
      guard: guardOf('principals.read', 'findByIdentity'),
      async handle({ c, param }) {
        const [channel, externalId] = [param('channel'), param('externalId')]
        const principal = await read.findByIdentity(channel, externalId)
        if (principal === null) return notFound(runtime, c, 'api.identityUnknown', { channel, externalId })
        return c.json({ principal })
      },
    }),
    route({
      method: 'post',
      path: '/principals/:id/review',
      summary: 'Mark a principal as reviewed',
      guard: guardOf('principals.manage', 'markReviewed'),
      handle: async ({ c, param }) => answerOutcome(runtime, c, await manage.markReviewed(param('id'))),
    }),
    route({
      method: 'put',
      path: '/principals/:id/name',
      summary: "Set a principal's display name; an empty one shows the channel's again",
      guard: guardOf('principals.manage', 'setDisplayName'),
      body: nameBody,
      handle: async ({ c, param, body }) =>
        answerOutcome(runtime, c, await manage.setDisplayName(param('id'), body.displayName)),
    }),
    route({
      method: 'get',
      path: '/principals/:id/roles',
      summary: 'The roles a principal holds',
      guard: guardOf('roles.read', 'rolesOf'),
      handle: async ({ c, param }) => c.json({ roles: await roles.rolesOf(param('id')) }),
    }),
    route({
      method: 'post',
      path: '/principals/:id/roles',
      summary: 'Grant a role, within what the session’s own roles cover',
      guard: guardOf('roles.assign', 'assignRole'),
      body: grantBody,
      handle: async ({ c, param, body }) =>
        answerOutcome(runtime, c, await assign.assignRole(param('id'), body.role)),
    }),
    route({
      method: 'delete',
      path: '/principals/:id/roles/:role',
      summary: 'Revoke a role; the last owner keeps theirs',
      guard: guardOf('roles.assign', 'revokeRole'),
      handle: async ({ c, param }) =>
        answerOutcome(runtime, c, await assign.revokeRole(param('id'), param('role'))),
    }),
    route({
      method: 'get',
      path: '/roles',
      summary: 'Every role and its command patterns',
      guard: guardOf('roles.read', 'listRoles'),
      handle: async ({ c }) => c.json({ roles: await roles.listRoles() }),
    }),
    route({
      method: 'post',
      path: '/roles',
      summary: 'Create a role, with patterns the session’s own roles cover',
      guard: guardOf('roles.manage', 'createRole'),
      body: newRole,
      handle: async ({ c, body }) =>
        answerOutcome(runtime, c, await roleAdmin.createRole(body.name, body.patterns)),
    }),
    route({
      method: 'put',
      path: '/roles/:name',
      summary: "Replace a role's command patterns",
      guard: guardOf('roles.manage', 'setRoleCommands'),
      body: patternsBody,
      handle: async ({ c, param, body }) =>
        answerOutcome(runtime, c, await roleAdmin.setRoleCommands(param('name'), body.patterns)),
    }),
    route({
      method: 'delete',
      path: '/roles/:name',
      summary: 'Delete a role (never a role that is built in, nor the default role)',
      guard: guardOf('roles.manage', 'deleteRole'),
      handle: async ({ c, param }) => answerOutcome(runtime, c, await roleAdmin.deleteRole(param('name'))),
    }),
  ]
}
