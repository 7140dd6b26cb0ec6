/** Builds the console into dist/, served by the HTTP server at /admin (packages/http/src/console). */
import react from "@vitejs/plugin-react"
import { defineConfig } from "vite"

export default defineConfig({
  root: import.meta.dirname,
  base: "/admin/",
  plugins: [react()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // the CSP allows no inline script or style: every asset is a file of its own
    assetsInlineLimit: 0,
    sourcemap: false
  },
  server: {
    // `npm run dev -w packages/console` next to `npm start` (PORT 3000): the API through Vite
    proxy: { "/api": "http://127.0.0.1:3000" }
  }
})
