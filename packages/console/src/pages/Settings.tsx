import { type FormEvent, useState } from "react"
import { api, type Result } from "../client.js"

type Setting = Result<typeof api.adminOps.listSettings>[number]
import { useAuth } from "../auth.js"
import { FlashMessage, LoadState, PageHeader, TextArea, useAction, useLoad } from "../components/ui.js"

const pretty = (v: unknown) => JSON.stringify(v, null, 2)

export const SettingsPage = () => {
  const { can } = useAuth()
  const loaded = useLoad(() => api.adminOps.listSettings(), [])
  const writable = can("settings:write")
  return (
    <section>
      <PageHeader title="Settings" />
      <p className="muted">
        App settings with their current value and default. {writable ? "Values are JSON; amounts in kobo." : "Only a superadmin changes them."}
      </p>
      <LoadState loaded={loaded} />
      {loaded.data !== undefined && (
        <ul className="cards">
          {loaded.data.map((s) => <SettingCard key={s.key} setting={s} writable={writable} onSaved={loaded.reload} />)}
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
  const [draft, setDraft] = useState(pretty(setting.value))
  const { flash, busy, run, setFlash } = useAction()
  const isDefault = pretty(setting.value) === pretty(setting.defaultValue)

  const save = (e: FormEvent) => {
    e.preventDefault()
    let value: unknown
    try {
      value = JSON.parse(draft)
    } catch {
      setFlash({ kind: "error", text: "Not valid JSON." })
      return
    }
    void run(async () => {
      const answer = await api.adminOps.updateSetting({ path: { key: setting.key }, payload: { value } })
      if ("pendingApproval" in answer) return "Change requested: it waits for another superadmin's approval."
      setDraft(pretty(answer.value))
      onSaved()
      return `Saved ${setting.key}.`
    })
  }

  return (
    <li className="card setting">
      <h2><code>{setting.key}</code> {isDefault ? <span className="muted small">default</span> : <span className="badge badge-changed">changed</span>}</h2>
      <p>{setting.description}</p>
      {writable
        ? (
          <form onSubmit={save}>
            <TextArea
              label={`Value of ${setting.key}`}
              hint={`Default: ${JSON.stringify(setting.defaultValue)}`}
              value={draft}
              onChange={setDraft}
              rows={Math.min(Math.max(draft.split("\n").length, 1), 12)}
            />
            <div className="row">
              <button type="submit" disabled={busy || draft === pretty(setting.value)}>Save {setting.key}</button>
              {draft !== pretty(setting.value) && (
                <button type="button" className="secondary" onClick={() => setDraft(pretty(setting.value))}>Undo edit</button>
              )}
            </div>
            <FlashMessage flash={flash} />
          </form>
        )
        : (
          <>
            <pre className="value">{pretty(setting.value)}</pre>
            <p className="muted small">Default: <code>{JSON.stringify(setting.defaultValue)}</code></p>
          </>
        )}
    </li>
  )
}
