/** What the build scripts share about other processes (their work-in-progress markers name a pid). */

/** Whether a process of this id runs (EPERM: it does, as another user). */
export const isRunning = (pid) => {
  if (!Number.isInteger(pid) || pid <= 0) return false
  try {
    return process.kill(pid, 0)
  } catch (error) {
    return error.code === "EPERM"
  }
}
