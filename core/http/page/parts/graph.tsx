// The requires graph as a picture: each spore a box coloured by its state, what it requires to its
// left with an arrow to it (dashed when optional), a requirement nobody installed drawn as a ghost,
// and the spores that need nothing and are needed by nothing in rows of their own below, as many to
// a row as the card's width holds. On a narrow screen the picture scales down to the card's width.
import { useCallback, useState } from 'react'
import type { SporeNeeds } from '../types.ts'
import { useWords } from '../words.ts'

const BOX_W = 150
const BOX_H = 44
const GAP_X = 80
const GAP_Y = 16
const PAD = 16
/** The rhiza that stands for the bot itself: a spore granted mycelium scopes acts on the core. */
const CORE = 'mycelium'

interface Node {
  readonly name: string
  readonly kind?: string | undefined
  readonly state: string
}

interface Edge {
  readonly from: string
  readonly to: string
  readonly optional: boolean
}

/** The width an element is given, followed as the window is resized (0 until it is drawn). */
function useWidth(): [number, (element: HTMLElement | null) => (() => void) | undefined] {
  const [width, setWidth] = useState(0)
  const follow = useCallback((element: HTMLElement | null) => {
    if (element === null) return undefined
    const observer = new ResizeObserver(([entry]) => setWidth(Math.floor(entry?.contentRect.width ?? 0)))
    observer.observe(element)
    return () => observer.disconnect()
  }, [])
  return [width, follow]
}

export function RequiresGraph({ spores }: { readonly spores: readonly SporeNeeds[] }) {
  const { t } = useWords()
  const [available, follow] = useWidth()
  const nodes = new Map<string, Node>(spores.map((spore) => [spore.name, spore]))
  const edges: Edge[] = []
  for (const spore of spores) {
    for (const need of spore.requires) {
      for (const rhiza of need.rhizas) {
        if (!nodes.has(rhiza)) {
          nodes.set(rhiza, { name: rhiza, kind: undefined, state: rhiza === CORE ? 'core' : 'missing' })
        }
        edges.push({ from: spore.name, to: rhiza, optional: need.optional || need.rhizas.length > 1 })
      }
    }
  }
  const linked = new Set(edges.flatMap((edge) => [edge.from, edge.to]))
  const depths = new Map<string, number>()
  const depthOf = (name: string, seen: Set<string>): number => {
    const known = depths.get(name)
    if (known !== undefined) return known
    // A cycle is refused at germination; guard anyway so a picture never loops.
    if (seen.has(name)) return 0
    seen.add(name)
    const targets = edges.filter((edge) => edge.from === name).map((edge) => edge.to)
    const depth = targets.length === 0 ? 0 : 1 + Math.max(...targets.map((target) => depthOf(target, seen)))
    depths.set(name, depth)
    return depth
  }
  const sorted = [...nodes.values()].sort((a, b) => a.name.localeCompare(b.name))
  const columns = new Map<number, Node[]>()
  for (const node of sorted.filter((one) => linked.has(one.name))) {
    const depth = depthOf(node.name, new Set())
    columns.set(depth, [...(columns.get(depth) ?? []), node])
  }
  const placed = new Map<string, { node: Node; x: number; y: number }>()
  for (const [depth, members] of columns) {
    members.forEach((node, row) => {
      placed.set(node.name, { node, x: PAD + depth * (BOX_W + GAP_X), y: PAD + row * (BOX_H + GAP_Y) })
    })
  }
  const tallest = Math.max(0, ...[...columns.values()].map((members) => members.length))
  const alone = sorted.filter((node) => !linked.has(node.name))
  // Four to a row (or as many as the columns) where there is room, fewer on a narrow card.
  const fits = Math.floor((available - PAD * 2 + GAP_Y) / (BOX_W + GAP_Y))
  const perRow = Math.max(
    1,
    available > 0 ? Math.min(fits, Math.max(4, columns.size)) : Math.max(4, columns.size),
  )
  const aloneTop = PAD + tallest * (BOX_H + GAP_Y) + (tallest > 0 ? GAP_Y * 2 : 0)
  alone.forEach((node, index) => {
    placed.set(node.name, {
      node,
      x: PAD + (index % perRow) * (BOX_W + GAP_Y),
      y: aloneTop + Math.floor(index / perRow) * (BOX_H + GAP_Y),
    })
  })
  const width =
    PAD * 2 +
    Math.max(
      columns.size * (BOX_W + GAP_X) - GAP_X,
      Math.min(alone.length, perRow) * (BOX_W + GAP_Y) - GAP_Y,
      BOX_W,
    )
  const height = Math.max(...[...placed.values()].map((one) => one.y + BOX_H), BOX_H) + PAD
  return (
    <figure className="graph" ref={follow}>
      <svg
        role="img"
        aria-label={t('graph.label')}
        viewBox={`0 0 ${width} ${height}`}
        width={width}
        height={height}
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
        {[...placed.values()].map(({ node, x, y }) => (
          <g key={node.name} transform={`translate(${x},${y})`} className={`graph-node graph-${node.state}`}>
            <rect width={BOX_W} height={BOX_H} rx="8" />
            <text x="12" y="19" className="graph-name">
              {node.name}
            </text>
            <text x="12" y="35" className="graph-kind">
              {node.kind ? `${t(`kind.${node.kind}`)} · ` : ''}
              {t(`state.${node.state}`)}
            </text>
          </g>
        ))}
      </svg>
      <figcaption className="hint">{t('graph.caption')}</figcaption>
    </figure>
  )
}
