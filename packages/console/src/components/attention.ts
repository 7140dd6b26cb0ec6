/**
 * What waits on staff (GET /admin/attention), shared by the navigation's counts and the Needs
 * attention page: loaded on sign-in, every 30 seconds, and at once after an action that may change
 * it (`attentionChanged()`).
 */
import { useEffect, useState } from "react"
import { api, type Result } from "../client.js"

export type Attention = Result<typeof api.adminAttention.attention>

const EVENT = "kobo:attention-changed"
const EVERY_MS = 30_000

/** Tells every counter that something was dealt with. */
export const attentionChanged = () => window.dispatchEvent(new Event(EVENT))

export const useAttention = (): { readonly attention: Attention | null; readonly error: boolean } => {
  const [attention, setAttention] = useState<Attention | null>(null)
  const [error, setError] = useState(false)
  useEffect(() => {
    let live = true
    const load = () =>
      void api.adminAttention.attention().then(
        (a) => live && (setAttention(a), setError(false)),
        () => live && setError(true)
      )
    load()
    const timer = setInterval(load, EVERY_MS)
    window.addEventListener(EVENT, load)
    return () => {
      live = false
      clearInterval(timer)
      window.removeEventListener(EVENT, load)
    }
  }, [])
  return { attention, error }
}

/** The count the navigation shows beside a section, by its path; undefined for none. */
export const countFor = (a: Attention | null, path: string): number | undefined => {
  if (a === null) return undefined
  switch (path) {
    case "/attention":
      return a.total
    case "/alerts":
      return a.alerts?.count
    case "/approvals":
      return a.approvals?.count
    case "/transactions":
      return a.movements?.count
    case "/support":
      return a.tickets?.count
    default:
      return undefined
  }
}
