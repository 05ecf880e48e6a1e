import type { Invocation } from '@mycelo/septum'
import { answer, arg, listing, principalOf, say, usage, words, yesNo } from './answers.ts'
import { type AdminContext, type Handlers, myceliumOf } from './mycelium.ts'

/** A role name and its patterns, or undefined when the reader left either out. */
function roleAndPatterns(invocation: Invocation): { role: string; patterns: string[] } | undefined {
  const role = arg(invocation, 'role')
  const patterns = words(invocation.args.patterns)
  return role === undefined || patterns.length === 0 ? undefined : { role, patterns }
}

function grantee(invocation: Invocation, ctx: AdminContext): { principal: string; role: string } | undefined {
  const word = arg(invocation, 'principal')
  const role = arg(invocation, 'role')
  return word === undefined || role === undefined ? undefined : { principal: principalOf(word, ctx), role }
}

/** Roles, the command patterns they grant, and who holds them. */
export const roleHandlers: Handlers = {
  async roles(_invocation, ctx) {
    const roles = await myceliumOf(ctx).listRoles()
    const lines = roles.map((role) =>
      ctx.t('roles.line', {
        name: role.name,
        patterns: role.patterns.join(' '),
        count: role.patterns.length,
        builtin: yesNo(role.builtin),
      }),
    )
    await say(ctx, listing(ctx.t('roles.title', { count: roles.length }), lines, ctx.t('roles.empty')))
  },

  async roleCreate(invocation, ctx) {
    const wanted = roleAndPatterns(invocation)
    if (wanted === undefined) return usage(invocation, ctx)
    const outcome = await myceliumOf(ctx).createRole(wanted.role, wanted.patterns)
    await answer(ctx, outcome, () =>
      ctx.t('roleCreate.done', { role: wanted.role, patterns: wanted.patterns.join(' ') }),
    )
  },

  async roleSet(invocation, ctx) {
    const wanted = roleAndPatterns(invocation)
    if (wanted === undefined) return usage(invocation, ctx)
    const outcome = await myceliumOf(ctx).setRoleCommands(wanted.role, wanted.patterns)
    await answer(ctx, outcome, () =>
      ctx.t('roleSet.done', { role: wanted.role, patterns: wanted.patterns.join(' ') }),
    )
  },

  async roleDelete(invocation, ctx) {
    const role = arg(invocation, 'role')
    if (role === undefined) return usage(invocation, ctx)
    const outcome = await myceliumOf(ctx).deleteRole(role)
    await answer(ctx, outcome, () => ctx.t('roleDelete.done', { role }))
  },

  async grant(invocation, ctx) {
    const wanted = grantee(invocation, ctx)
    if (wanted === undefined) return usage(invocation, ctx)
    const outcome = await myceliumOf(ctx).assignRole(wanted.principal, wanted.role)
    await answer(ctx, outcome, () => ctx.t('grant.done', wanted))
  },

  async revoke(invocation, ctx) {
    const wanted = grantee(invocation, ctx)
    if (wanted === undefined) return usage(invocation, ctx)
    const outcome = await myceliumOf(ctx).revokeRole(wanted.principal, wanted.role)
    await answer(ctx, outcome, () => ctx.t('revoke.done', wanted))
  },
}
