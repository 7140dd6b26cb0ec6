/** The navigation's links, each with how many wait in that section (GET /admin/attention); nothing when none. */
import { NavLink } from "react-router"
import { countFor, useAttention } from "./attention.js"

const NavCount = ({ n }: { readonly n: number | undefined }) =>
  n === undefined || n === 0 ? null : <span className="nav-count" aria-label={`, ${n} waiting`}>{n}</span>

export const AttentionNav = ({ sections }: { readonly sections: ReadonlyArray<{ readonly path: string; readonly label: string }> }) => {
  const { attention } = useAttention()
  return (
    <ul>
      {sections.map((s) => (
        <li key={s.path}>
          <NavLink to={s.path}>{s.label}<NavCount n={countFor(attention, s.path)} /></NavLink>
        </li>
      ))}
    </ul>
  )
}
