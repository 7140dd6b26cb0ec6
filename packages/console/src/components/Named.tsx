/**
 * A person or record named for people, its id one click away: the name (a link where there is a
 * page for it), and a button that copies the full id. The id is also the button's title.
 */
import { useState } from "react"
import { Link } from "react-router"
import { useAuth } from "../auth.js"
import { shortId } from "../format.js"

/** Copies `id` to the clipboard; says "Copied" for a moment. */
export const CopyId = ({ id, of }: { readonly id: string; readonly of: string }) => {
  const [copied, setCopied] = useState(false)
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(id)
    } catch {
      // no clipboard permission (an insecure origin): the id is still in the title to select
      return
    }
    setCopied(true)
    setTimeout(() => setCopied(false), 1500)
  }
  return (
    <button type="button" className="copy-id" title={id} aria-label={`Copy id of ${of}`} onClick={() => void copy()}>
      {copied ? "copied" : "copy id"}
    </button>
  )
}

/** A name (or the short id when there is none) linked to `to`, with a copy-id button. */
export const Named = ({ id, name, to }: { readonly id: string; readonly name: string | null | undefined; readonly to?: string | undefined }) => {
  const text = name ?? shortId(id)
  return (
    <span className="named">
      {to === undefined ? <span title={id}>{text}</span> : <Link to={to} title={id}>{text}</Link>}
      <CopyId id={id} of={text} />
    </span>
  )
}

/** A customer named, linked to their file when the member's role may read customers. */
export const NamedCustomer = ({ id, name }: { readonly id: string; readonly name: string | null | undefined }) => {
  const { can } = useAuth()
  return <Named id={id} name={name} to={can("customers:read") ? `/customers/${id}` : undefined} />
}
