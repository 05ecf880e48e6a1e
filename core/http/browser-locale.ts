/**
 * The language a browser asks for (`Accept-Language`), for someone not signed in yet: the first of
 * its languages, by weight, that the bot speaks (`fr-CA` is served `fr`), else the bot's default.
 */
export function browserLocale(
  header: string | undefined,
  spoken: readonly string[],
  fallback: string,
): string {
  if (header === undefined) return fallback
  const asked = header
    .split(',')
    .map((part, order) => {
      const [tag = '', ...options] = part.trim().split(';')
      const weight = options.map((option) => /^\s*q=([0-9.]+)\s*$/.exec(option)?.[1]).find(Boolean)
      return { tag: tag.trim().toLowerCase(), weight: weight === undefined ? 1 : Number(weight), order }
    })
    .filter(({ tag, weight }) => tag !== '' && tag !== '*' && weight > 0)
    .sort((a, b) => b.weight - a.weight || a.order - b.order)
  const known = new Map(spoken.map((locale) => [locale.toLowerCase(), locale]))
  for (const { tag } of asked) {
    const found = known.get(tag) ?? known.get(tag.split('-')[0]!)
    if (found !== undefined) return found
  }
  return fallback
}
