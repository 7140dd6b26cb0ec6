/**
 * Help that fits a terminal of 100 columns. @effect/cli lays out a command's subcommands as one
 * table whose descriptions start after the longest usage line (column ~160 here), and prints long
 * usage lines whole. When a line of the help is wider than 100 columns, each row of that table
 * becomes the usage line with its description indented below it, and other long lines are wrapped
 * at spaces with a hanging indent.
 */
import { Console, Effect } from "effect"

export const HELP_WIDTH = 100

const ANSI = /\x1b\[[0-9;]*m/g
const visible = (line: string) => line.replace(ANSI, "").length

/** Splits `text` (no newline) at spaces into lines of at most `width` columns, the later ones indented by `indent`. */
const wrap = (text: string, width: number, indent: string): Array<string> => {
  const lines: Array<string> = []
  const lead = /^\s*/.exec(text)![0]
  let current = lead
  for (const word of text.slice(lead.length).split(" ")) {
    const candidate = current.trim() === "" ? `${current}${word}` : `${current} ${word}`
    if (visible(candidate) > width && current.trim() !== "") {
      lines.push(current)
      current = `${indent}${word}`
    } else current = candidate
  }
  lines.push(current)
  return lines
}

/** A row of the subcommands table: `  - <usage>   <description>`. */
const ROW = /^(\s*- \S.*?)\s{2,}(\S.*)$/

/** The help text laid out in `width` columns (unchanged when it already fits). */
export const fitHelp = (text: string, width = HELP_WIDTH): string => {
  const lines = text.split("\n")
  if (lines.every((line) => visible(line) <= width)) return text
  return lines.flatMap((raw) => {
    const line = raw.replace(ANSI, "")
    const row = ROW.exec(line)
    if (row !== null) {
      const lead = /^\s*/.exec(row[1]!)![0]
      return [...wrap(row[1]!, width, `${lead}    `), ...wrap(`${lead}      ${row[2]!}`, width, `${lead}      `)]
    }
    if (visible(raw) <= width) return [raw]
    const lead = /^\s*/.exec(line)![0]
    return wrap(line, width, `${lead}  `)
  }).join("\n")
}

/** Runs `effect` with a console whose `log` lays help out in HELP_WIDTH columns. */
export const withFittedHelp = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.flatMap(Console.consoleWith(Effect.succeed), (console) =>
    Effect.withConsole(effect, {
      ...console,
      log: (...args: ReadonlyArray<unknown>) =>
        args.length === 1 && typeof args[0] === "string" ? console.log(fitHelp(args[0])) : console.log(...args)
    }))
