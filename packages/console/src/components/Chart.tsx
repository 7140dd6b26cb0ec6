/**
 * A daily series drawn with uPlot (canvas): bars or lines over UTC days, sized to its container.
 * For screen readers and keyboard users the same figures are a table under a disclosure.
 */
import { useEffect, useRef } from "react"
import uPlot from "uplot"
import "uplot/dist/uPlot.min.css"

export interface ChartSeries {
  readonly label: string
  readonly color: string
  readonly values: ReadonlyArray<number>
}

export const DailyChart = ({ title, dates, series, format, kind = "bars", integer = false }: {
  readonly title: string
  readonly dates: ReadonlyArray<string>
  readonly series: ReadonlyArray<ChartSeries>
  readonly format: (n: number) => string
  readonly kind?: "bars" | "lines"
  /** counts: ticks on whole numbers only */
  readonly integer?: boolean
}) => {
  const box = useRef<HTMLDivElement>(null)

  useEffect(() => {
    const el = box.current
    if (el === null) return
    const xs = dates.map((d) => Date.parse(`${d}T00:00:00Z`) / 1000)
    // bars for one series; several are lines (uPlot has no grouped bars without a plugin)
    const bars = kind === "bars" && series.length === 1
    const options: uPlot.Options = {
      width: Math.max(el.clientWidth, 280),
      height: 200,
      tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), "Etc/UTC"),
      legend: { show: true, live: false },
      cursor: { drag: { x: false, y: false } },
      scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] } },
      axes: [
        { stroke: "#52606d", grid: { show: false } },
        {
          stroke: "#52606d",
          grid: { stroke: "#e4e7eb", width: 1 },
          size: 64,
          values: (_u, ticks) => ticks.map(format),
          ...(integer ? { incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000] } : {})
        }
      ],
      series: [
        { label: "Day", value: (_u, v) => (v === null ? "—" : new Date(v * 1000).toISOString().slice(0, 10)) },
        ...series.map((s) => ({
          label: s.label,
          stroke: s.color,
          fill: bars ? s.color : `${s.color}1f`,
          width: bars ? 0 : 2,
          value: (_u: uPlot, v: number | null) => (v === null ? "—" : format(v)),
          ...(bars
            ? { paths: uPlot.paths.bars!({ size: [0.7, 40] }), points: { show: false } }
            : { points: { show: dates.length <= 31, size: 5 } })
        }))
      ]
    }
    const plot = new uPlot(options, [xs, ...series.map((s) => [...s.values])] as uPlot.AlignedData, el)
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(el.clientWidth, 280), height: 200 }))
    resize.observe(el)
    return () => {
      resize.disconnect()
      plot.destroy()
    }
  }, [dates, series, format, kind, integer])

  const total = series.map((s) => s.values.reduce((a, b) => a + b, 0))
  return (
    <figure className="chart card">
      <figcaption>
        <h2>{title}</h2>
        <span className="muted">{series.map((s, i) => `${s.label}: ${format(total[i]!)}`).join(" · ")}</span>
      </figcaption>
      <div
        ref={box}
        className="chart-canvas"
        role="img"
        aria-label={`${title}, ${dates.length} days from ${dates[0] ?? ""} to ${dates.at(-1) ?? ""}. ${
          series.map((s, i) => `${s.label} ${format(total[i]!)} in all`).join("; ")
        }.`}
      />
      <details>
        <summary>Figures by day</summary>
        <table>
          <caption className="sr-only">{title} by day</caption>
          <thead>
            <tr>
              <th scope="col">Day (UTC)</th>
              {series.map((s) => <th scope="col" key={s.label}>{s.label}</th>)}
            </tr>
          </thead>
          <tbody>
            {dates.map((d, row) => (
              <tr key={d}>
                <th scope="row">{d}</th>
                {series.map((s) => <td key={s.label}>{format(s.values[row] ?? 0)}</td>)}
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  )
}
