import PaywallCLI
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Before anything opens a file: a closed stdout must not become the state directory's lock.
StandardStreams.reopenClosed()
// What needs no task runs here first, on this thread: the arguments are read and `run` loads its
// project and draws the first frame before the concurrency pool exists, so the first paint waits
// neither for a pool thread to start nor for the threads it starts beside it (its first byte came
// 0.3 to 0.8 ms sooner at the median, in three sets of runs in a pty, each alternated with the
// previous build). The rest of the command runs as a task, and this thread waits for it to end the
// process (`finish` never returns). An `await` here would make main asynchronous, and the Swift
// runtime would then give the main thread to dispatch_main, which ends it with pthread_exit: in a
// static executable that unwinds the thread through the unwind tables, which the C runtime sorts on
// first use, about 18 ms of CPU at every start of the program (perf record on `paywall-tui
// --version`). Nothing here runs on the main actor or the main queue, so nothing waits for this
// thread.
let rest = PaywallCommand.start()
Task.detached { await PaywallCommand.finish(rest) }
while true { pause() }
