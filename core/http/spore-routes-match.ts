import type { RouteDeclaration } from '@mycelo/septum'

/** The route a request's method and path (below `/spores/<name>`) reach, with its params. */
export interface RouteMatch {
  readonly route: RouteDeclaration
  readonly params: Readonly<Record<string, string>>
}

/**
 * The declared route whose method and segments fit, literal segments exactly and `:param` any one
 * non-empty segment. A HEAD is answered by the GET route, as HTTP asks. Undefined when none fits.
 */
export function matchRoute(
  routes: readonly RouteDeclaration[],
  method: string,
  path: string,
): RouteMatch | undefined {
  const wanted = method === 'HEAD' ? 'GET' : method
  const segments = segmentsOf(path)
  if (segments === undefined) return undefined
  for (const route of routes) {
    if (route.method !== wanted) continue
    const params = paramsOf(segmentsOf(route.path) ?? [], segments)
    if (params !== undefined) return { route, params }
  }
  return undefined
}

function paramsOf(
  pattern: readonly string[],
  segments: readonly string[],
): Record<string, string> | undefined {
  if (pattern.length !== segments.length) return undefined
  const params: Record<string, string> = {}
  for (const [index, part] of pattern.entries()) {
    const segment = segments[index]!
    if (part.startsWith(':')) {
      if (segment === '') return undefined
      params[part.slice(1)] = segment
    } else if (part !== segment) return undefined
  }
  return params
}

/** `/a/b/` and `/a/b` alike; undefined for a segment that does not decode (a stray `%`). */
function segmentsOf(path: string): string[] | undefined {
  const trimmed = path.replace(/^\/+|\/+$/g, '')
  if (trimmed === '') return []
  try {
    return trimmed.split('/').map((segment) => decodeURIComponent(segment))
  } catch {
    return undefined
  }
}
