/**
 * The signed-in staff member: the token (sessionStorage, gone with the tab) and /auth/me, whose
 * permission list decides which pages and actions the console offers.
 */
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from "react"
import { Redacted } from "effect"
import { api, type Me, type Permission, setUnauthorizedHandler, storedToken, storeToken } from "./client.js"

interface AuthState {
  readonly me: Me | null
  readonly loading: boolean
  readonly can: (permission: Permission) => boolean
  readonly signIn: (email: string, password: string) => Promise<void>
  readonly signOut: () => void
}

const AuthContext = createContext<AuthState | null>(null)

export const AuthProvider = ({ children }: { readonly children: ReactNode }) => {
  const [me, setMe] = useState<Me | null>(null)
  const [loading, setLoading] = useState(storedToken() !== null)

  const signOut = useCallback(() => {
    storeToken(null)
    setMe(null)
  }, [])

  useEffect(() => {
    setUnauthorizedHandler(signOut)
    if (storedToken() === null) return
    api.adminStaff.me()
      .then(setMe)
      .catch(() => signOut())
      .finally(() => setLoading(false))
  }, [signOut])

  const signIn = useCallback(async (email: string, password: string) => {
    const session = await api.adminAuth.signIn({ payload: { email, password: Redacted.make(password) } })
    storeToken(session.token)
    setMe(await api.adminStaff.me())
  }, [])

  const value = useMemo<AuthState>(() => ({
    me,
    loading,
    can: (permission) => me?.permissions.includes(permission) ?? false,
    signIn,
    signOut
  }), [me, loading, signIn, signOut])

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>
}

export const useAuth = (): AuthState => {
  const state = useContext(AuthContext)
  if (state === null) throw new Error("useAuth outside AuthProvider")
  return state
}
