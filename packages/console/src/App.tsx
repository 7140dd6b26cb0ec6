/**
 * The console's shell: sign-in until a session exists, then a navigation of the pages the
 * member's permissions allow (a page or action the role lacks is not offered) and the routes.
 */
import { type ReactNode, useEffect, useRef } from "react"
import { Navigate, Route, Routes, useLocation } from "react-router"
import type { Permission } from "./client.js"
import { useAuth } from "./auth.js"
import { AttentionNav } from "./components/AttentionNav.js"
import { AttentionPage } from "./pages/Attention.js"
import { AlertsPage } from "./pages/Alerts.js"
import { ApprovalsPage } from "./pages/Approvals.js"
import { AuditPage } from "./pages/Audit.js"
import { CustomerPage } from "./pages/Customer.js"
import { CustomersPage } from "./pages/Customers.js"
import { DeletionsPage } from "./pages/Deletions.js"
import { FailedJobsPage } from "./pages/FailedJobs.js"
import { OverviewPage } from "./pages/Overview.js"
import { SettingsPage } from "./pages/Settings.js"
import { SignInPage } from "./pages/SignIn.js"
import { StaffPage } from "./pages/Staff.js"
import { SupportPage } from "./pages/Support.js"
import { TicketPage } from "./pages/Ticket.js"
import { TransactionsPage } from "./pages/Transactions.js"

interface Section {
  readonly path: string
  readonly label: string
  readonly permission: Permission
  readonly also?: Permission
}

export const SECTIONS: ReadonlyArray<Section> = [
  { path: "/overview", label: "Overview", permission: "overview:read" },
  { path: "/attention", label: "Needs attention", permission: "overview:read" },
  { path: "/customers", label: "Customers", permission: "customers:read" },
  { path: "/transactions", label: "Transactions", permission: "transactions:read" },
  { path: "/jobs", label: "Failed jobs", permission: "jobs:read" },
  { path: "/deletions", label: "Deletions", permission: "deletions:read" },
  { path: "/support", label: "Support desk", permission: "support:read" },
  { path: "/approvals", label: "Approvals", permission: "settings:write", also: "customers:unfreeze" },
  { path: "/settings", label: "Settings", permission: "settings:read" },
  { path: "/audit", label: "Audit log", permission: "audit:read" },
  { path: "/alerts", label: "Alerts", permission: "alerts:read" },
  { path: "/staff", label: "Staff", permission: "staff:read" }
]

const Guard = ({ permission, children }: { readonly permission: Permission; readonly children: ReactNode }) => {
  const { can } = useAuth()
  return can(permission) ? children : <NotAllowed />
}

const NotAllowed = () => (
  <section>
    <h1 tabIndex={-1} id="page-title">Not available</h1>
    <p>Your role does not include this page.</p>
  </section>
)

/** After a client-side navigation, focus moves to the new page's heading (announced, and Tab starts there). */
const useFocusOnNavigate = () => {
  const location = useLocation()
  const first = useRef(true)
  useEffect(() => {
    if (first.current) {
      first.current = false
      return
    }
    const t = setTimeout(() => document.getElementById("page-title")?.focus(), 0)
    return () => clearTimeout(t)
  }, [location.pathname])
}

export const App = () => {
  const { me, loading, can, signOut } = useAuth()
  const location = useLocation()
  useFocusOnNavigate()
  if (loading) return <p className="muted boot">Loading…</p>
  if (me === null) {
    return location.pathname === "/sign-in"
      ? <SignInPage />
      : <Navigate to="/sign-in" replace state={{ from: location.pathname + location.search }} />
  }
  const sections = SECTIONS.filter((s) => can(s.permission) || (s.also !== undefined && can(s.also)))
  const home = sections[0]?.path ?? "/overview"
  return (
    <div className="shell">
      <a href="#main" className="skip-link">Skip to content</a>
      <header className="topbar">
        <span className="brand" aria-hidden="true">K</span>
        <span className="brand-name">Kobo back office</span>
        <span className="who">
          {me.firstName ?? me.email} · <span className="role">{me.role}</span>
        </span>
        <button type="button" className="secondary small" onClick={signOut}>Sign out</button>
      </header>
      <nav className="sidebar" aria-label="Sections">
        <AttentionNav sections={sections} />
      </nav>
      <main id="main" tabIndex={-1}>
        <Routes>
          <Route path="/" element={<Navigate to={home} replace />} />
          <Route path="/sign-in" element={<Navigate to={home} replace />} />
          <Route path="/overview" element={<Guard permission="overview:read"><OverviewPage /></Guard>} />
          <Route path="/attention" element={<Guard permission="overview:read"><AttentionPage /></Guard>} />
          <Route path="/customers" element={<Guard permission="customers:read"><CustomersPage /></Guard>} />
          <Route path="/customers/:id" element={<Guard permission="customers:read"><CustomerPage /></Guard>} />
          <Route path="/transactions" element={<Guard permission="transactions:read"><TransactionsPage /></Guard>} />
          <Route path="/jobs" element={<Guard permission="jobs:read"><FailedJobsPage /></Guard>} />
          <Route path="/deletions" element={<Guard permission="deletions:read"><DeletionsPage /></Guard>} />
          <Route path="/support" element={<Guard permission="support:read"><SupportPage /></Guard>} />
          <Route path="/support/:id" element={<Guard permission="support:read"><TicketPage /></Guard>} />
          <Route path="/approvals" element={<ApprovalsPage />} />
          <Route path="/settings" element={<Guard permission="settings:read"><SettingsPage /></Guard>} />
          <Route path="/audit" element={<Guard permission="audit:read"><AuditPage /></Guard>} />
          <Route path="/alerts" element={<Guard permission="alerts:read"><AlertsPage /></Guard>} />
          <Route path="/staff" element={<Guard permission="staff:read"><StaffPage /></Guard>} />
          <Route path="*" element={<section><h1 tabIndex={-1} id="page-title">Not found</h1><p>No page here.</p></section>} />
        </Routes>
      </main>
    </div>
  )
}
