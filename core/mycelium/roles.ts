import type { RolesAssign, RolesManage, RolesRead } from '@mycelo/septum'
import { audited } from '../audit/audited.ts'
import { isRolePattern } from '../identity/patterns.ts'
import type { CoreRuntime } from '../rhizomorph/runtime.ts'
import { grantRole, roleNamesOf } from '../store/index.ts'
import { principalExists } from '../store/people.ts'
import {
  createRole,
  deleteRole,
  holdersOf,
  listRoleInfos,
  replaceRolePatterns,
  revokeRole,
  roleNamed,
} from '../store/role-admin.ts'
import { isOwnerRole, RoleCeiling } from './ceiling.ts'
import { DONE, type Refusal, refused } from './outcome.ts'

/** The same shape the config file demands of the default role. */
const ROLE_NAME = /^[a-z0-9][a-z0-9-]*$/

export function rolesRead(runtime: CoreRuntime): RolesRead {
  return {
    async listRoles() {
      return listRoleInfos(runtime.store)
    },
    // An unknown principal holds no role either way.
    async rolesOf(principalId) {
      return roleNamesOf(runtime.store, principalId)
    },
  }
}

export function rolesAssign(runtime: CoreRuntime): RolesAssign {
  const { store, directory } = runtime
  const ceiling = new RoleCeiling(runtime)
  const find = (principalId: string, roleName: string) => {
    if (!principalExists(store, principalId)) return refused('principal_unknown', { principal: principalId })
    return roleNamed(store, roleName) ?? refused('role_unknown', { role: roleName })
  }
  return audited(runtime, 'roles.assign', {
    async assignRole(principalId, roleName) {
      const role = find(principalId, roleName)
      if ('refusal' in role) return role
      const capped = ceiling.wields(role)
      if (capped) return capped
      grantRole(store, principalId, role.id)
      directory.invalidate()
      return DONE
    },
    async revokeRole(principalId, roleName) {
      const role = find(principalId, roleName)
      if ('refusal' in role) return role
      const capped = ceiling.wields(role) ?? ceiling.outranks(principalId)
      if (capped) return capped
      // Whoever acts, the bot always keeps someone who can administer it from chat.
      const holders = isOwnerRole(role) ? holdersOf(store, role.id) : []
      if (holders.length === 1 && holders[0] === principalId) {
        return refused('owner_last', { principal: principalId })
      }
      if (!revokeRole(store, principalId, role.id)) {
        return refused('role_not_held', { principal: principalId, role: roleName })
      }
      directory.invalidate()
      return DONE
    },
  })
}

export function rolesManage(runtime: CoreRuntime): RolesManage {
  const { store, directory, config } = runtime
  const ceiling = new RoleCeiling(runtime)
  /** A role the actor may rewrite or delete, or why not. */
  const editable = (name: string) => {
    const role = roleNamed(store, name)
    if (!role) return refused('role_unknown', { role: name })
    if (role.builtin) return refused('role_builtin', { role: name })
    return ceiling.wields(role) ?? role
  }
  return audited(runtime, 'roles.manage', {
    async createRole(name, patterns) {
      if (name.trim() === '') return refused('role_name_empty')
      if (!ROLE_NAME.test(name)) return refused('role_name_invalid', { role: name })
      if (roleNamed(store, name)) return refused('role_taken', { role: name })
      const problem = patternProblem(patterns) ?? ceiling.covers(patterns)
      if (problem) return problem
      createRole(store, name, patterns)
      directory.invalidate()
      return DONE
    },
    async setRoleCommands(name, patterns) {
      const role = editable(name)
      if ('refusal' in role) return role
      const problem = patternProblem(patterns) ?? ceiling.covers(patterns)
      if (problem) return problem
      replaceRolePatterns(store, role.id, patterns)
      directory.invalidate()
      return DONE
    },
    async deleteRole(name) {
      const role = editable(name)
      if ('refusal' in role) return role
      // Newcomers receive it: deleting it would leave first contact granting nothing useful.
      if (name === config.defaultRole) return refused('role_default', { role: name })
      deleteRole(store, role.id)
      directory.invalidate()
      return DONE
    },
  })
}

function patternProblem(patterns: readonly string[]): Refusal | undefined {
  const seen = new Set<string>()
  for (const pattern of patterns) {
    if (seen.has(pattern)) return refused('pattern_duplicate', { pattern })
    if (!isRolePattern(pattern)) return refused('pattern_invalid', { pattern })
    seen.add(pattern)
  }
  return undefined
}
