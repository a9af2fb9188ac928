import PaywallTUI
PaywallCommand.main()
