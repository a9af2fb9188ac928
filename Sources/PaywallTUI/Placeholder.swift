import ArgumentParser
import CNCurses
public struct PaywallCommand: ParsableCommand {
  public init() {}
  public func run() {}
}
