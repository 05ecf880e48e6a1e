import { describe, expect, test } from 'bun:test'
import { newDeliveryId } from '../../outbox/delivery-id.ts'

describe('delivery ids', () => {
  test('are 16 letters and digits, never repeated, across the points where their upper digits change', () => {
    // Past several blocks of 1,296: each block boundary remakes the id's upper digits.
    const ids = Array.from({ length: 5 * 1296 + 7 }, () => newDeliveryId())
    for (const id of ids) expect(id).toMatch(/^[0-9a-z]{16}$/)
    expect(new Set(ids).size).toBe(ids.length)
    // One run's ids share its random part and count upwards, so they sort in the order handed out.
    expect(new Set(ids.map((id) => id.slice(0, 8))).size).toBe(1)
    expect([...ids].sort()).toEqual(ids)
  })
})
