import PaywallTUI

PaywallCommand.run()
