// The requires graph as a picture: each spore a box coloured by its state, the rhizas it needs to
// its left, an arrow from each spore to what it requires (dashed when optional).
import type { SporeNeeds } from '../types.ts'
import { useWords } from '../words.ts'

const BOX_W = 150
const BOX_H = 44
const GAP_X = 70
const GAP_Y = 18
const PAD = 16

interface Placed {
  readonly spore: SporeNeeds
  readonly x: number
  readonly y: number
}

export function RequiresGraph({ spores }: { readonly spores: readonly SporeNeeds[] }) {
  const { t } = useWords()
  const byName = new Map(spores.map((spore) => [spore.name, spore]))
  const depths = new Map<string, number>()
  const depthOf = (name: string, seen: Set<string>): number => {
    const known = depths.get(name)
    if (known !== undefined) return known
    // A cycle is refused at germination; guard anyway so a picture never loops.
    if (seen.has(name)) return 0
    seen.add(name)
    const edges = (byName.get(name)?.edges ?? []).filter((edge) => byName.has(edge))
    const depth = edges.length === 0 ? 0 : 1 + Math.max(...edges.map((edge) => depthOf(edge, seen)))
    depths.set(name, depth)
    return depth
  }
  for (const spore of spores) depthOf(spore.name, new Set())
  const columns = new Map<number, SporeNeeds[]>()
  for (const spore of [...spores].sort((a, b) => a.name.localeCompare(b.name))) {
    const depth = depths.get(spore.name) ?? 0
    columns.set(depth, [...(columns.get(depth) ?? []), spore])
  }
  const placed = new Map<string, Placed>()
  for (const [depth, members] of columns) {
    members.forEach((spore, row) => {
      placed.set(spore.name, { spore, x: PAD + depth * (BOX_W + GAP_X), y: PAD + row * (BOX_H + GAP_Y) })
    })
  }
  const width = PAD * 2 + columns.size * (BOX_W + GAP_X) - GAP_X
  const height =
    PAD * 2 + Math.max(...[...columns.values()].map((members) => members.length)) * (BOX_H + GAP_Y) - GAP_Y
  const edges = spores.flatMap((spore) =>
    spore.edges
      .filter((edge) => placed.has(edge))
      .map((edge) => ({ from: spore.name, to: edge, optional: !spore.mandatory.includes(edge) })),
  )
  return (
    <figure className="graph">
      <svg
        role="img"
        aria-label={t('graph.label')}
        viewBox={`0 0 ${Math.max(width, BOX_W + PAD * 2)} ${Math.max(height, BOX_H + PAD * 2)}`}
        width={Math.max(width, BOX_W + PAD * 2)}
        height={Math.max(height, BOX_H + PAD * 2)}
      >
        <defs>
          <marker
            id="arrow"
            viewBox="0 0 10 10"
            refX="9"
            refY="5"
            markerWidth="7"
            markerHeight="7"
            orient="auto"
          >
            <path d="M0,0 L10,5 L0,10 z" className="graph-arrow" />
          </marker>
        </defs>
        {edges.map((edge) => {
          const from = placed.get(edge.from)!
          const to = placed.get(edge.to)!
          const x1 = from.x
          const y1 = from.y + BOX_H / 2
          const x2 = to.x + BOX_W
          const y2 = to.y + BOX_H / 2
          const bend = (x1 - x2) / 2
          return (
            <path
              key={`${edge.from}-${edge.to}`}
              d={`M${x1},${y1} C${x1 - bend},${y1} ${x2 + bend},${y2} ${x2},${y2}`}
              className={edge.optional ? 'graph-edge graph-edge-optional' : 'graph-edge'}
              markerEnd="url(#arrow)"
            >
              <title>
                {t(edge.optional ? 'graph.optional' : 'graph.requires', { from: edge.from, to: edge.to })}
              </title>
            </path>
          )
        })}
        {[...placed.values()].map(({ spore, x, y }) => (
          <g
            key={spore.name}
            transform={`translate(${x},${y})`}
            className={`graph-node graph-${spore.state}`}
          >
            <rect width={BOX_W} height={BOX_H} rx="8" />
            <text x="12" y="19" className="graph-name">
              {spore.name}
            </text>
            <text x="12" y="35" className="graph-kind">
              {spore.kind ? t(`kind.${spore.kind}`) : '—'} · {t(`state.${spore.state}`)}
            </text>
          </g>
        ))}
      </svg>
      <figcaption className="hint">{t('graph.caption')}</figcaption>
    </figure>
  )
}
