/** Small building blocks: labelled fields, status messages, tables, pagers, a data loader. */
import { type DependencyList, type ReactNode, useCallback, useEffect, useId, useState } from "react"
import { errorText } from "../client.js"

/** A labelled control: the label names the control (for/id), the hint is its description. */
export const Field = ({ label, hint, children }: {
  readonly label: string
  readonly hint?: string
  readonly children: (props: { id: string; "aria-describedby"?: string }) => ReactNode
}) => {
  const id = useId()
  const hintId = `${id}-hint`
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children(hint === undefined ? { id } : { id, "aria-describedby": hintId })}
      {hint !== undefined && <small id={hintId} className="hint">{hint}</small>}
    </div>
  )
}

export const Select = ({ label, value, onChange, options, any = "Any" }: {
  readonly label: string
  readonly value: string
  readonly onChange: (value: string) => void
  readonly options: ReadonlyArray<string>
  /** the label of the empty choice, or null for none */
  readonly any?: string | null
}) => (
  <Field label={label}>
    {(p) => (
      <select {...p} value={value} onChange={(e) => onChange(e.target.value)}>
        {any !== null && <option value="">{any}</option>}
        {options.map((o) => <option key={o} value={o}>{o.replace(/_/g, " ")}</option>)}
      </select>
    )}
  </Field>
)

export const TextInput = ({ label, value, onChange, type = "text", hint, placeholder, required, autoComplete, inputMode }: {
  readonly label: string
  readonly autoComplete?: string
  readonly inputMode?: "numeric" | "text" | "email"
  readonly value: string
  readonly onChange: (value: string) => void
  readonly type?: string
  readonly hint?: string
  readonly placeholder?: string
  readonly required?: boolean
}) => (
  <Field label={label} {...(hint === undefined ? {} : { hint })}>
    {(p) => (
      <input
        {...p}
        type={type}
        value={value}
        placeholder={placeholder}
        required={required}
        autoComplete={autoComplete}
        inputMode={inputMode}
        onChange={(e) => onChange(e.target.value)}
      />
    )}
  </Field>
)

export const TextArea = ({ label, value, onChange, rows = 3, required, hint }: {
  readonly label: string
  readonly value: string
  readonly onChange: (value: string) => void
  readonly rows?: number
  readonly required?: boolean
  readonly hint?: string
}) => (
  <Field label={label} {...(hint === undefined ? {} : { hint })}>
    {(p) => <textarea {...p} rows={rows} value={value} required={required} onChange={(e) => onChange(e.target.value)} />}
  </Field>
)

export type Flash = { readonly kind: "ok" | "error"; readonly text: string } | null

/** Outcome of an action: announced politely (ok) or assertively (error). */
export const FlashMessage = ({ flash }: { readonly flash: Flash }) =>
  flash === null
    ? <div role="status" className="sr-only" />
    : flash.kind === "ok"
    ? <div role="status" className="flash ok">{flash.text}</div>
    : <div role="alert" className="flash error">{flash.text}</div>

/** Runs an action, turning its outcome into a flash message. */
export const useAction = () => {
  const [flash, setFlash] = useState<Flash>(null)
  const [busy, setBusy] = useState(false)
  const run = useCallback(async (action: () => Promise<string>) => {
    setBusy(true)
    setFlash(null)
    try {
      setFlash({ kind: "ok", text: await action() })
      return true
    } catch (e) {
      setFlash({ kind: "error", text: errorText(e) })
      return false
    } finally {
      setBusy(false)
    }
  }, [])
  return { flash, busy, run, setFlash }
}

export interface Loaded<A> {
  readonly data: A | undefined
  readonly error: string | undefined
  readonly loading: boolean
  readonly reload: () => void
}

/** Loads data when the dependencies change; `reload` fetches again. */
export const useLoad = <A,>(load: () => Promise<A>, deps: DependencyList): Loaded<A> => {
  const [data, setData] = useState<A | undefined>(undefined)
  const [error, setError] = useState<string | undefined>(undefined)
  const [loading, setLoading] = useState(true)
  const [tick, setTick] = useState(0)
  useEffect(() => {
    let live = true
    setLoading(true)
    load()
      .then((a) => {
        if (live) {
          setData(a)
          setError(undefined)
        }
      })
      .catch((e) => live && setError(errorText(e)))
      .finally(() => live && setLoading(false))
    return () => {
      live = false
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, tick])
  return { data, error, loading, reload: useCallback(() => setTick((t) => t + 1), []) }
}

export const LoadState = ({ loaded }: { readonly loaded: Loaded<unknown> }) =>
  loaded.error !== undefined
    ? <p role="alert" className="flash error">{loaded.error}</p>
    : loaded.loading && loaded.data === undefined
    ? <p className="muted" aria-live="polite">Loading…</p>
    : null

export const Pager = ({ page, totalPages, total, onPage }: {
  readonly page: number
  readonly totalPages: number
  readonly total: number
  readonly onPage: (page: number) => void
}) => (
  <nav className="pager" aria-label="Pages">
    <button type="button" className="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>Previous</button>
    <span>Page {page} of {Math.max(totalPages, 1)} · {total} in all</span>
    <button type="button" className="secondary" disabled={page >= totalPages} onClick={() => onPage(page + 1)}>Next</button>
  </nav>
)

export const Badge = ({ value }: { readonly value: string }) => <span className={`badge badge-${value}`}>{value.replace(/_/g, " ")}</span>

export const Empty = ({ children }: { readonly children: ReactNode }) => <p className="muted empty">{children}</p>

export const PageHeader = ({ title, children }: { readonly title: string; readonly children?: ReactNode }) => {
  useEffect(() => {
    document.title = `${title} · Kobo back office`
  }, [title])
  return (
    <header className="page-header">
      <h1 tabIndex={-1} id="page-title">{title}</h1>
      {children}
    </header>
  )
}
