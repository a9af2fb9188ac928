import PaywallCLI

// Before anything opens a file: a closed stdout must not become the state directory's lock.
StandardStreams.reopenClosed()
await PaywallCommand.run()
