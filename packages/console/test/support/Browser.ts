/** What the console's browser test files share: where Chromium and the screenshots are, and the label check. */
import * as path from "node:path"
import type { Page } from "playwright-core"
import { root } from "../../../../e2e/support/Service.js"

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium"
export const ARTIFACTS = path.join(root, ".artifacts/console")

/** The page's form controls (hidden inputs aside) that have no non-empty label, aria-label or aria-labelledby. */
export const unlabelledControls = (target: Page) =>
  target.evaluate(() =>
    [...document.querySelectorAll("input, select, textarea")]
      .filter((el) => el.getAttribute("type") !== "hidden")
      .filter((el) => {
        const labels = (el as HTMLInputElement).labels
        const byLabel = labels !== null && [...labels].some((l) => (l.textContent ?? "").trim() !== "")
        const byAria = (el.getAttribute("aria-label") ?? "").trim() !== "" || el.getAttribute("aria-labelledby") !== null
        return !byLabel && !byAria
      })
      .map((el) => el.outerHTML.slice(0, 120))
  )
