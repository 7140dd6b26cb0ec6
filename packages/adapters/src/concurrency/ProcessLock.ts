/**
 * One writer per file or directory: `<path>.lock` holds the pid of the process that has it open.
 * A second process (or a second opener in the same process) is refused at once while the holder
 * lives, with one line naming it; a lock left by a process that died (a SIGKILL, a crash, a power
 * loss) is taken over. Used by the sandbox bank's journal and by the embedded database's data
 * directory (PGlite is one process's database: two processes on the same files corrupt it).
 *
 * The lock file is created with O_EXCL (`wx`), so two processes starting at once cannot both take
 * it. The holder's liveness is `kill(pid, 0)`: a pid reused by an unrelated live process keeps the
 * lock until that process ends (remove the file by hand then); the lock's own pid, after a restart
 * that reused it, is taken over.
 */
import * as fs from "node:fs"
import * as path from "node:path"

export class ProcessLockHeld extends Error {
  constructor(readonly target: string, readonly holder: number, message: string) {
    super(message)
    this.name = "ProcessLockHeld"
  }
}

/** Paths locked by this process (absolute). */
const heldHere = new Set<string>()

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM"
  }
}

export interface ProcessLock {
  readonly file: string
  /** whether the lock was left by a process that died and was taken over */
  readonly tookOver: boolean
  readonly release: () => void
}

/**
 * Locks `target` for this process. `refusal(holder)` is the message of the error thrown while a
 * live process holds it (one line, naming the holder).
 */
export const lockPath = (target: string, refusal: (holder: number, lockFile: string) => string): ProcessLock => {
  const absolute = path.resolve(target)
  const lockFile = `${absolute}.lock`
  if (heldHere.has(absolute)) throw new ProcessLockHeld(absolute, process.pid, refusal(process.pid, lockFile))
  fs.mkdirSync(path.dirname(lockFile), { recursive: true })
  let tookOver = false
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      fs.writeFileSync(lockFile, `${process.pid}\n`, { flag: "wx" })
      heldHere.add(absolute)
      let released = false
      return {
        file: lockFile,
        tookOver,
        release: () => {
          if (released) return
          released = true
          heldHere.delete(absolute)
          fs.rmSync(lockFile, { force: true })
        }
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error
    }
    let holder = Number.NaN
    try {
      holder = Number.parseInt(fs.readFileSync(lockFile, "utf8"), 10)
    } catch {
      // removed in between: try again
    }
    if (Number.isInteger(holder) && holder !== process.pid && alive(holder)) {
      throw new ProcessLockHeld(absolute, holder, refusal(holder, lockFile))
    }
    // left by a process that is gone (or by this one, before a restart that reused its pid)
    fs.rmSync(lockFile, { force: true })
    tookOver = true
  }
  throw new Error(`could not lock ${absolute} (${lockFile} keeps coming back)`)
}
