import { type FormEvent, type ReactNode, useId, useState } from "react"
import { ApiFailure } from "@app/client"
import { api, type Result } from "../client.js"
import { useAuth } from "../auth.js"
import { type Flash, FlashMessage, LoadState, PageHeader, useAction, useLoad } from "../components/ui.js"
import {
  changesInWords,
  countAbout,
  countSettings,
  type FieldSpec,
  flatSettings,
  fromInput,
  inWords,
  koboToNaira,
  NIP_ABOUT,
  nairaToKobo,
  percentToBasisPoints,
  basisPointsToPercent,
  type Tier,
  tierProblems,
  tiersInWords,
  toInput
} from "../settingsForm.js"

type Setting = Result<typeof api.adminOps.listSettings>[number]

type Errors = Record<string, string>

export const SettingsPage = () => {
  const { can } = useAuth()
  const loaded = useLoad(() => api.adminOps.listSettings(), [])
  const writable = can("settings:write")
  return (
    <section>
      <PageHeader title="Settings" />
      <p className="muted">
        Fees, limits and caps, with their defaults. {writable
          ? "Amounts are in naira, fees as percentages; every change is shown in words before it is saved, and audited."
          : "Only a superadmin changes them."}
      </p>
      <LoadState loaded={loaded} />
      {loaded.data !== undefined && (
        <ul className="cards">
          {loaded.data.map((s) => (
            <li key={s.key} className="card setting">
              <SettingCard setting={s} writable={writable} onSaved={loaded.reload} />
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}

const SettingCard = ({ setting, writable, onSaved }: {
  readonly setting: Setting
  readonly writable: boolean
  readonly onSaved: () => void
}) => {
  const changed = JSON.stringify(setting.value) !== JSON.stringify(setting.defaultValue)
  const head = (
    <>
      <h2>
        {titleOf(setting.key)} <code className="small">{setting.key}</code>{" "}
        {changed ? <span className="badge badge-changed">changed</span> : <span className="muted small">default</span>}
      </h2>
      <p>{aboutOf(setting)}</p>
    </>
  )
  if (setting.key === "fees.nip") return <>{head}<NipFeesForm setting={setting} writable={writable} onSaved={onSaved} /></>
  const flat = flatSettings[setting.key]
  const count = countSettings[setting.key]
  if (flat !== undefined) return <>{head}<FieldsForm setting={setting} fields={flat.fields} writable={writable} onSaved={onSaved} /></>
  if (count !== undefined) return <>{head}<FieldsForm setting={setting} fields={[count]} single writable={writable} onSaved={onSaved} /></>
  return <>{head}<p className="muted">No form for this setting yet: <code>{JSON.stringify(setting.value)}</code></p></>
}

const aboutOf = (setting: Setting) =>
  setting.key === "fees.nip" ? NIP_ABOUT : flatSettings[setting.key]?.about ?? countAbout[setting.key] ?? setting.description

const titleOf = (key: string) =>
  flatSettings[key]?.title ?? (key === "fees.nip" ? "Transfer (NIP) fees" : countSettings[key]?.label ?? key)

/** The server's 400 fieldErrors by the field's path inside the value ("value.perDay" → "perDay", "value" → ""). */
const serverErrors = (e: unknown): Errors | null => {
  if (!(e instanceof ApiFailure) || e.status !== 400) return null
  const fields = (e.detail.fieldErrors ?? {}) as Record<string, ReadonlyArray<string>>
  const out: Errors = {}
  for (const [path, messages] of Object.entries(fields)) out[path.replace(/^value\.?/, "")] = messages.join("; ")
  return out
}

/**
 * The review-then-save flow shared by the forms: the draft, the problems found in it (by the form
 * or by the server, `problem`), the change under review (`propose` puts it there), and `end`, the
 * form's last part (FormEnd), whose Save sends the PATCH and shows the outcome or the server's
 * field errors.
 */
const useReviewForm = <D, V>(setting: Setting, onSaved: () => void, initial: () => D) => {
  const [draft, setDraft] = useState<D>(initial)
  const [errors, setErrors] = useState<Errors>({})
  const [review, setReview] = useState<{ readonly value: V; readonly lines: ReadonlyArray<string> } | null>(null)
  const { flash, busy, run } = useAction()
  const [serverFieldErrors, setServerFieldErrors] = useState<Errors>({})
  /** `done` closes the review: after a save, and after a refusal (back to the fields, the problems beside them) */
  const save = (value: unknown, done: () => void) => {
    setServerFieldErrors({})
    void run(async () => {
      try {
        const answer = await api.adminOps.updateSetting({ path: { key: setting.key }, payload: { value } })
        done()
        onSaved()
        return "pendingApproval" in answer
          ? "Change requested: it waits for another superadmin's approval."
          : `Saved: ${titleOf(setting.key)}.`
      } catch (e) {
        const fields = serverErrors(e)
        if (fields !== null) {
          setServerFieldErrors(fields)
          done()
        }
        throw e
      }
    })
  }
  const problem = (key: string) => errors[key] ?? serverFieldErrors[key]
  const propose = (value: V, lines: ReadonlyArray<string>) =>
    setReview({ value, lines: lines.length === 0 ? ["No change: every field keeps its value."] : lines })
  const end = (
    <FormEnd
      title={titleOf(setting.key)}
      review={review}
      busy={busy}
      formError={serverFieldErrors[""]}
      flash={flash}
      onUndo={() => { setDraft(initial()); setErrors({}) }}
      onBack={() => setReview(null)}
      onSave={(value) => save(value, () => setReview(null))}
    />
  )
  return { draft, setDraft, setErrors, review, problem, propose, end }
}

/** A labelled input with its hint and, next to it, the problem found (by the form or by the server). */
const Input = ({ label, value, onChange, hint, error, prefix, suffix }: {
  readonly label: string
  readonly value: string
  readonly onChange: (value: string) => void
  readonly hint?: string
  readonly error?: string | undefined
  readonly prefix?: string
  readonly suffix?: string
}) => {
  const id = useId()
  const described = [hint === undefined ? null : `${id}-hint`, error === undefined ? null : `${id}-error`].filter(Boolean).join(" ")
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <span className="affixed">
        {prefix !== undefined && <span aria-hidden="true">{prefix}</span>}
        <input
          id={id}
          value={value}
          inputMode="decimal"
          aria-invalid={error !== undefined}
          {...(described === "" ? {} : { "aria-describedby": described })}
          onChange={(e) => onChange(e.target.value)}
        />
        {suffix !== undefined && <span aria-hidden="true">{suffix}</span>}
      </span>
      {hint !== undefined && <small id={`${id}-hint`} className="hint">{hint}</small>}
      {error !== undefined && <small id={`${id}-error`} className="field-error">{error}</small>}
    </div>
  )
}

const affixes = (spec: FieldSpec) =>
  spec.kind === "naira" ? { prefix: "₦" } : spec.kind === "percent" ? { suffix: "%" } : {}

/**
 * The end of a settings form: the server's problem with the form as a whole; while editing, the
 * buttons that review or undo the edits; once reviewed, the change before → after in words and the
 * buttons that save it or go back; then the outcome.
 */
const FormEnd = <V,>({ title, review, busy, formError, flash, onUndo, onBack, onSave }: {
  readonly title: string
  readonly review: { readonly value: V; readonly lines: ReadonlyArray<ReactNode> } | null
  readonly busy: boolean
  readonly formError: string | undefined
  readonly flash: Flash
  readonly onUndo: () => void
  readonly onBack: () => void
  readonly onSave: (value: V) => void
}) => (
  <>
    {formError !== undefined && <p className="field-error">{formError}</p>}
    {review === null
      ? (
        <div className="row">
          <button type="submit" disabled={busy}>Review change</button>
          <button type="button" className="secondary" onClick={onUndo}>Undo edits</button>
        </div>
      )
      : (
        <div role="group" aria-label={`Review the change to ${title}`} className="review">
          <p><strong>This change will set:</strong></p>
          <ul>{review.lines.map((l, i) => <li key={i}>{l}</li>)}</ul>
          <div className="row">
            <button type="button" disabled={busy} onClick={() => onSave(review.value)}>Save change</button>
            <button type="button" className="secondary" disabled={busy} onClick={onBack}>Back to edit</button>
          </div>
        </div>
      )}
    <FlashMessage flash={flash} />
  </>
)

const FieldsForm = ({ setting, fields, single = false, writable, onSaved }: {
  readonly setting: Setting
  readonly fields: ReadonlyArray<FieldSpec>
  /** the value is the one field itself (a count), not an object of fields */
  readonly single?: boolean
  readonly writable: boolean
  readonly onSaved: () => void
}) => {
  const asObject = (v: unknown): Record<string, unknown> => single ? { "": v } : (v as Record<string, unknown>)
  const current = asObject(setting.value)
  const defaults = asObject(setting.defaultValue)
  const initial = () => Object.fromEntries(fields.map((f) => [f.key, toInput(f.kind, current[f.key])]))
  const { draft, setDraft, setErrors, review, problem, propose, end } = useReviewForm<Record<string, string>, unknown>(setting, onSaved, initial)
  const title = titleOf(setting.key)

  if (!writable) {
    return (
      <dl className="facts">
        {fields.map((f) => (
          <FactPair key={f.key} name={f.label} value={`${inWords(f.kind, current[f.key])} (default ${inWords(f.kind, defaults[f.key])})`} />
        ))}
      </dl>
    )
  }

  const check = (e: FormEvent) => {
    e.preventDefault()
    const found: Errors = {}
    const after: Record<string, unknown> = {}
    for (const f of fields) {
      const parsed = fromInput(f, draft[f.key] ?? "")
      if ("error" in parsed) found[f.key] = parsed.error
      else after[f.key] = parsed.value
    }
    setErrors(found)
    if (Object.keys(found).length > 0) return
    const lines = changesInWords(fields, current, after)
    propose(single ? after[""] : after, lines)
  }
  return (
    <form onSubmit={check} noValidate>
      <fieldset disabled={review !== null} className="plain">
        <legend className="sr-only">{title}</legend>
        {fields.map((f) => (
          <Input
            key={f.key}
            label={f.label}
            value={draft[f.key] ?? ""}
            onChange={(v) => setDraft((d) => ({ ...d, [f.key]: v }))}
            hint={`Now ${inWords(f.kind, current[f.key])}; default ${inWords(f.kind, defaults[f.key])}${f.kind === "count" ? `; at least ${f.min}` : ""}`}
            error={problem(f.key)}
            {...affixes(f)}
          />
        ))}
      </fieldset>
      {end}
    </form>
  )
}

interface NipValue {
  readonly tiers: ReadonlyArray<{ readonly upToKobo: string | null; readonly feeKobo: string }>
  readonly vatBasisPoints: string
}

interface TierDraft {
  readonly upTo: string
  readonly fee: string
}

const NipFeesForm = ({ setting, writable, onSaved }: {
  readonly setting: Setting
  readonly writable: boolean
  readonly onSaved: () => void
}) => {
  const current = setting.value as NipValue
  const initial = () => ({
    tiers: current.tiers.map((t): TierDraft => ({ upTo: t.upToKobo === null ? "" : koboToNaira(t.upToKobo), fee: koboToNaira(t.feeKobo) })),
    vat: basisPointsToPercent(current.vatBasisPoints)
  })
  const { draft, setDraft, setErrors, review, problem, propose, end } = useReviewForm<ReturnType<typeof initial>, NipValue>(setting, onSaved, initial)
  const title = titleOf(setting.key)
  const vatWords = (bp: string) => `${basisPointsToPercent(bp)}%`

  if (!writable) {
    return (
      <>
        <ul>{tiersInWords(current.tiers).map((l) => <li key={l}>{l}</li>)}</ul>
        <p>VAT on the fee: {vatWords(current.vatBasisPoints)}</p>
      </>
    )
  }

  const setTier = (i: number, patch: Partial<TierDraft>) =>
    setDraft((d) => ({ ...d, tiers: d.tiers.map((t, j) => (j === i ? { ...t, ...patch } : t)) }))

  const check = (e: FormEvent) => {
    e.preventDefault()
    const found: Errors = {}
    const last = draft.tiers.length - 1
    const tiers: Array<Tier> = draft.tiers.map((t, i) => {
      const fee = nairaToKobo(t.fee)
      if (fee === null) found[`tiers.${i}.feeKobo`] = "Enter an amount in naira (at most two decimals)"
      let upTo: string | null = null
      if (i !== last || t.upTo.trim() !== "") {
        upTo = nairaToKobo(t.upTo)
        if (upTo === null) found[`tiers.${i}.upToKobo`] = "Enter an amount in naira (at most two decimals)"
      }
      return { upToKobo: upTo, feeKobo: fee ?? "0" }
    })
    const vat = percentToBasisPoints(draft.vat)
    if (vat === null) found["vatBasisPoints"] = "Enter a percentage, e.g. 7.5 (at most two decimals)"
    if (Object.keys(found).length === 0) Object.assign(found, tierProblems(tiers))
    setErrors(found)
    if (Object.keys(found).length > 0 || vat === null) return
    const before = tiersInWords(current.tiers)
    const after = tiersInWords(tiers)
    const lines = [
      ...(JSON.stringify(before) === JSON.stringify(after) ? [] : [`Fee tiers: ${before.join("; ")} → ${after.join("; ")}`]),
      ...(vat === current.vatBasisPoints ? [] : [`VAT on the fee: ${vatWords(current.vatBasisPoints)} → ${vatWords(vat)}`])
    ]
    propose({ tiers, vatBasisPoints: vat }, lines)
  }
  return (
    <form onSubmit={check} noValidate>
      <fieldset disabled={review !== null} className="plain">
        <legend className="sr-only">{title}</legend>
        {draft.tiers.map((t, i) => (
          <div key={i} className="row tier">
            <Input
              label={`Tier ${i + 1}: up to`}
              value={t.upTo}
              onChange={(v) => setTier(i, { upTo: v })}
              prefix="₦"
              {...(i === draft.tiers.length - 1 ? { hint: "Empty: every amount above the previous tier" } : {})}
              error={problem(`tiers.${i}.upToKobo`)}
            />
            <Input label={`Tier ${i + 1}: fee`} value={t.fee} onChange={(v) => setTier(i, { fee: v })} prefix="₦" error={problem(`tiers.${i}.feeKobo`)} />
            {draft.tiers.length > 1 && (
              <button type="button" className="secondary" onClick={() => setDraft((d) => ({ ...d, tiers: d.tiers.filter((_, j) => j !== i) }))}>
                Remove tier {i + 1}
              </button>
            )}
          </div>
        ))}
        {problem("tiers") !== undefined && <p className="field-error">{problem("tiers")}</p>}
        <button type="button" className="secondary" onClick={() => setDraft((d) => ({ ...d, tiers: [...d.tiers, { upTo: "", fee: "" }] }))}>
          Add a tier
        </button>
        <Input
          label="VAT on the fee"
          value={draft.vat}
          onChange={(v) => setDraft((d) => ({ ...d, vat: v }))}
          suffix="%"
          hint={`Now ${vatWords(current.vatBasisPoints)}`}
          error={problem("vatBasisPoints")}
        />
      </fieldset>
      {end}
    </form>
  )
}

const FactPair = ({ name, value }: { readonly name: string; readonly value: string }) => (
  <>
    <dt>{name}</dt>
    <dd>{value}</dd>
  </>
)
