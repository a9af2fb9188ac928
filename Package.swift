// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "paywall-tui",
  platforms: [.macOS(.v15)],
  products: [
    .executable(name: "paywall-tui", targets: ["paywall-tui"]),
    .library(name: "PaywallModel", targets: ["PaywallModel"]),
    .library(name: "PaywallTUI", targets: ["PaywallTUI"]),
  ],
  targets: [
    .systemLibrary(
      name: "CNCurses",
      pkgConfig: "ncursesw",
      providers: [.apt(["libncurses-dev"]), .brew(["ncurses"])]
    ),
    .target(name: "CTerminalGuard"),
    .target(name: "PaywallModel"),
    .target(
      name: "PaywallTUI",
      dependencies: [
        "PaywallModel",
        "CNCurses",
        "CTerminalGuard",
      ]
    ),
    .executableTarget(name: "paywall-tui", dependencies: ["PaywallTUI"]),
    .executableTarget(
      name: "custom-controller-example",
      dependencies: ["PaywallModel", "PaywallTUI"],
      path: "Examples/custom-controller"
    ),
    .executableTarget(
      name: "headless-register-example",
      dependencies: ["PaywallModel"],
      path: "Examples/headless-register"
    ),
    .executableTarget(
      name: "paywall-bench",
      dependencies: ["PaywallModel", "PaywallTUI"],
      path: "Benchmarks/paywall-bench"
    ),
    .testTarget(name: "PaywallModelTests", dependencies: ["PaywallModel"]),
    .testTarget(
      name: "PaywallTUITests",
      dependencies: ["PaywallTUI", "PaywallModel", "CNCurses", "CTerminalGuard"],
      exclude: ["Goldens"]
    ),
  ],
  swiftLanguageModes: [.v6]
)
