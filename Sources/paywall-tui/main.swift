import PaywallCLI
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Before anything opens a file: a closed stdout must not become the state directory's lock.
StandardStreams.reopenClosed()
// The command runs as a task, and this thread waits for it to end the process (`run` never
// returns). An `await` here would make main asynchronous, and the Swift runtime would then give
// the main thread to dispatch_main, which ends it with pthread_exit: in a static executable that
// unwinds the thread through the unwind tables, which the C runtime sorts on first use, about
// 18 ms of CPU at every start of the program (perf record on `paywall-tui --version`). Nothing
// here runs on the main actor or the main queue, so nothing waits for this thread.
Task.detached { await PaywallCommand.run() }
while true { pause() }
