import { type FormEvent, useState } from "react"
import { useLocation, useNavigate } from "react-router"
import { errorText } from "../client.js"
import { useAuth } from "../auth.js"
import { TextInput } from "../components/ui.js"

export const SignInPage = () => {
  const { signIn } = useAuth()
  const navigate = useNavigate()
  const location = useLocation()
  const [email, setEmail] = useState("")
  const [password, setPassword] = useState("")
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    setBusy(true)
    setError(null)
    try {
      await signIn(email, password)
      const from = (location.state as { from?: string } | null)?.from
      navigate(from && from !== "/sign-in" ? from : "/", { replace: true })
    } catch (err) {
      setError(errorText(err))
    } finally {
      setBusy(false)
    }
  }

  return (
    <main className="sign-in">
      <form className="card" onSubmit={submit} aria-labelledby="sign-in-title">
        <div className="brand-row">
          <span className="brand" aria-hidden="true">K</span>
          <h1 id="sign-in-title">Kobo back office</h1>
        </div>
        <p className="muted">Staff sign-in. Sessions last 8 hours.</p>
        <TextInput label="Email" type="email" value={email} onChange={setEmail} required autoComplete="username" />
        <TextInput label="Password" type="password" value={password} onChange={setPassword} required autoComplete="current-password" />
        {error !== null && <p role="alert" className="flash error">{error}</p>}
        <button type="submit" disabled={busy}>{busy ? "Signing in…" : "Sign in"}</button>
      </form>
    </main>
  )
}
